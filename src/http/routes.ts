import { ADMIN_TOKEN_ROUTES } from './admin-token-routes.js'
import { AUDIT_ROUTES } from './audit-routes.js'
import { HOOK_ROUTES } from './hook-routes.js'
import { HOOK_TEST_ROUTES } from './hook-test-routes.js'
import { IMPERSONATION_ROUTES } from './impersonation-routes.js'
import { METADATA_ROUTES } from './metadata-routes.js'
import { RESOURCE_ROUTES } from './resource-routes.js'
import { RESOURCE_TOKEN_ROUTES } from './resource-token-routes.js'
import type { RouteRow } from './route.js'
import { SERVICE_ACCOUNT_ROUTES } from './service-account-routes.js'
import { TOKEN_ROUTES } from './token-routes.js'
import { USER_ROUTES } from './user-routes.js'

/**
 * Every route the handler serves: the tables of the route modules. A new route is a row (and its
 * handler) in its module; a new module is one more table here.
 */
export const ROUTES: readonly RouteRow[] = [
  ...TOKEN_ROUTES,
  ...IMPERSONATION_ROUTES,
  ...USER_ROUTES,
  ...METADATA_ROUTES,
  ...RESOURCE_TOKEN_ROUTES,
  ...SERVICE_ACCOUNT_ROUTES,
  ...ADMIN_TOKEN_ROUTES,
  ...RESOURCE_ROUTES,
  ...HOOK_ROUTES,
  ...AUDIT_ROUTES,
  ...HOOK_TEST_ROUTES,
]
