import type { Feature } from '../authority/release.js'
import type { ImpersonationRouteName } from './impersonation-routes.js'
import type { MetadataRouteName } from './metadata-routes.js'
import type { UserRouteName } from './user-routes.js'

/** The operations the handler serves. */
export type RouteName =
  | 'list'
  | 'get'
  | 'revoke'
  | 'rotate'
  | 'create_for_user'
  | 'create_self'
  | 'associations'
  | UserRouteName
  | MetadataRouteName
  | ImpersonationRouteName

interface RouteShape {
  readonly pattern: RegExp
  readonly methods: Readonly<Record<string, RouteName>>
  /** Body parameters the route knows; anything else is refused. */
  readonly bodyParams: Readonly<Partial<Record<RouteName, readonly string[]>>>
  /** The feature of a later GitLab the path is: before its release, no route at all (404). */
  readonly since?: Feature
}

const CREATE_PARAMS = ['name', 'scopes', 'description', 'expires_at']

// `/self` needs no special pattern: it is the `:id` segment, resolved by the handler.
const ROUTES: readonly RouteShape[] = [
  { pattern: /^\/personal_access_tokens$/, methods: { GET: 'list', HEAD: 'list' }, bodyParams: {} },
  {
    pattern: /^\/personal_access_tokens\/self\/associations$/,
    methods: { GET: 'associations', HEAD: 'associations' },
    bodyParams: {},
    since: 'token_associations',
  },
  {
    pattern: /^\/personal_access_tokens\/([^/]+)$/,
    methods: { GET: 'get', HEAD: 'get', DELETE: 'revoke' },
    bodyParams: { revoke: [] },
  },
  {
    pattern: /^\/personal_access_tokens\/([^/]+)\/rotate$/,
    methods: { POST: 'rotate' },
    bodyParams: { rotate: ['expires_at'] },
  },
  {
    pattern: /^\/users\/([^/]+)\/personal_access_tokens$/,
    methods: { POST: 'create_for_user' },
    bodyParams: { create_for_user: CREATE_PARAMS },
  },
  {
    pattern: /^\/user\/personal_access_tokens$/,
    methods: { POST: 'create_self' },
    bodyParams: { create_self: CREATE_PARAMS },
  },
  // GitLab's impersonation tokens (impersonation-routes.ts); `:user_id` and the token id are checked
  // there, after the administrator check, as Grape validates after GitLab's `before` blocks.
  {
    pattern: /^\/users\/([^/]+)\/impersonation_tokens$/,
    methods: { GET: 'impersonation_list', HEAD: 'impersonation_list', POST: 'impersonation_create' },
    bodyParams: { impersonation_create: [...CREATE_PARAMS, 'impersonation'] },
  },
  {
    pattern: /^\/users\/([^/]+)\/impersonation_tokens\/([^/]+)$/,
    methods: { GET: 'impersonation_get', HEAD: 'impersonation_get', DELETE: 'impersonation_revoke' },
    bodyParams: { impersonation_revoke: [] },
  },
  // GitLab's users API and instance metadata, which clients call around tokens (user-routes.ts,
  // metadata-routes.ts). `:id` is digits only, as GitLab's route requirement: `/users/1ASDF` is 404.
  { pattern: /^\/user$/, methods: { GET: 'current_user', HEAD: 'current_user' }, bodyParams: {} },
  { pattern: /^\/users$/, methods: { GET: 'users', HEAD: 'users' }, bodyParams: {} },
  { pattern: /^\/users\/(\d+)$/, methods: { GET: 'user', HEAD: 'user' }, bodyParams: {} },
  { pattern: /^\/version$/, methods: { GET: 'version', HEAD: 'version' }, bodyParams: {} },
  {
    pattern: /^\/metadata$/,
    methods: { GET: 'metadata', HEAD: 'metadata' },
    bodyParams: {},
    since: 'metadata',
  },
]

/** What the path and method resolve to. */
export type RouteMatch =
  | {
      readonly kind: 'route'
      readonly name: RouteName
      readonly segment: string | undefined
      /** The second path parameter, where the route has one (an impersonation token's id). */
      readonly subsegment?: string
      readonly bodyParams: readonly string[] | undefined
      readonly since?: Feature
    }
  | { readonly kind: 'method_not_allowed'; readonly allow: readonly string[] }
  | { readonly kind: 'not_found' }

/** Matches a path relative to the base path. A single trailing slash is ignored. */
export function matchRoute(method: string, path: string): RouteMatch {
  const normalized = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
  for (const route of ROUTES) {
    const match = route.pattern.exec(normalized)
    if (match === null) continue
    const name = route.methods[method]
    if (name === undefined) return { kind: 'method_not_allowed', allow: Object.keys(route.methods) }
    let segment: string | undefined
    try {
      segment = match[1] === undefined ? undefined : decodeURIComponent(match[1])
    } catch {
      segment = match[1]
    }
    const subsegment = match[2] === undefined ? undefined : decodeSegment(match[2])
    return {
      kind: 'route',
      name,
      segment,
      ...(subsegment === undefined ? {} : { subsegment }),
      bodyParams: route.bodyParams[name],
      ...(route.since === undefined ? {} : { since: route.since }),
    }
  }
  return { kind: 'not_found' }
}

function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw)
  } catch {
    return raw
  }
}
