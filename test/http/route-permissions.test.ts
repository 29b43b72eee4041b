import { describe, expect, it } from 'vitest'
import { ROUTES } from '../../src/http/routes.js'

// Every row patkit serves declares GitLab's `route_setting :authorization` as the generated REST page
// (doc/auth/tokens/fine_grained_access_tokens_rest.md, commit 0739b8bf) and the route files read lists
// it: shared/reference fine-grained-pats.md §8.1. `p`/`g` rows are the resource named by `:id`.
const EXPECTED: Readonly<Record<string, string>> = {
  'GET /personal_access_tokens': 'read_personal_access_token@user',
  'GET /personal_access_tokens/self/associations': 'read_personal_access_token@user',
  'GET /personal_access_tokens/:id': 'read_personal_access_token@user',
  'DELETE /personal_access_tokens/:id': 'revoke_personal_access_token@user',
  'POST /personal_access_tokens/:id/rotate': 'rotate_personal_access_token@user',
  'POST /users/:user_id/personal_access_tokens': 'create_personal_access_token@instance',
  'POST /user/personal_access_tokens': 'create_personal_access_token@user',
  'GET /users/:user_id/impersonation_tokens': 'read_impersonation_token@instance',
  'POST /users/:user_id/impersonation_tokens': 'create_impersonation_token@instance',
  'GET /users/:user_id/impersonation_tokens/:id': 'read_impersonation_token@instance',
  'DELETE /users/:user_id/impersonation_tokens/:id': 'revoke_impersonation_token@instance',
  'GET /user': 'read_user@user',
  'GET /users': 'read_user@instance',
  'GET /users/:id': 'read_user@user',
  'GET /version': 'read_metadata@instance',
  'GET /metadata': 'read_metadata@instance',
  'GET /projects/:id/access_tokens': 'read_resource_access_token@project:id',
  'POST /projects/:id/access_tokens': 'create_resource_access_token@project:id',
  'POST /projects/:id/access_tokens/self/rotate': 'rotate_resource_access_token@project:id',
  'GET /projects/:id/access_tokens/:token_id': 'read_resource_access_token@project:id',
  'DELETE /projects/:id/access_tokens/:token_id': 'delete_resource_access_token@project:id',
  'POST /projects/:id/access_tokens/:token_id/rotate': 'rotate_resource_access_token@project:id',
  'GET /groups/:id/access_tokens': 'read_resource_access_token@group:id',
  'POST /groups/:id/access_tokens': 'create_resource_access_token@group:id',
  'POST /groups/:id/access_tokens/self/rotate': 'rotate_resource_access_token@group:id',
  'GET /groups/:id/access_tokens/:token_id': 'read_resource_access_token@group:id',
  'DELETE /groups/:id/access_tokens/:token_id': 'delete_resource_access_token@group:id',
  'POST /groups/:id/access_tokens/:token_id/rotate': 'rotate_resource_access_token@group:id',
  'POST /service_accounts': 'create_service_account@instance',
  'GET /service_accounts': 'read_service_account@instance',
  'POST /groups/:id/service_accounts': 'create_service_account@group:id',
  'GET /groups/:id/service_accounts': 'read_service_account@group:id',
  'DELETE /groups/:id/service_accounts/:user_id': 'delete_service_account@group:id',
  'GET /groups/:id/service_accounts/:user_id/personal_access_tokens':
    'read_service_account_personal_access_token@group:id',
  'POST /groups/:id/service_accounts/:user_id/personal_access_tokens':
    'create_service_account_personal_access_token@group:id',
  'DELETE /groups/:id/service_accounts/:user_id/personal_access_tokens/:token_id':
    'revoke_service_account_personal_access_token@group:id',
  'POST /groups/:id/service_accounts/:user_id/personal_access_tokens/:token_id/rotate':
    'rotate_service_account_personal_access_token@group:id',
  'POST /admin/token': 'read_any_token@instance',
  'DELETE /admin/token': 'revoke_any_token@instance',
  'GET /projects/:id/hooks': 'read_webhook@project:id',
  'POST /projects/:id/hooks': 'create_webhook@project:id',
  'GET /projects/:id/hooks/:hook_id': 'read_webhook@project:id',
  'PUT /projects/:id/hooks/:hook_id': 'update_webhook@project:id',
  'DELETE /projects/:id/hooks/:hook_id': 'delete_webhook@project:id',
  'GET /projects/:id/hooks/:hook_id/events': 'read_webhook@project:id',
  'POST /projects/:id/hooks/:hook_id/test/:trigger': 'trigger_webhook@project:id',
  'GET /projects/:id/audit_events': 'read_audit_event@project:id',
  'GET /projects/:id/audit_events/:audit_event_id': 'read_audit_event@project:id',
  'GET /groups/:id/hooks': 'read_webhook@group:id',
  'POST /groups/:id/hooks': 'create_webhook@group:id',
  'GET /groups/:id/hooks/:hook_id': 'read_webhook@group:id',
  'PUT /groups/:id/hooks/:hook_id': 'update_webhook@group:id',
  'DELETE /groups/:id/hooks/:hook_id': 'delete_webhook@group:id',
  'GET /groups/:id/hooks/:hook_id/events': 'read_webhook@group:id',
  'POST /groups/:id/hooks/:hook_id/test/:trigger': 'trigger_webhook@group:id',
  'GET /groups/:id/audit_events': 'read_audit_event@group:id',
  'GET /groups/:id/audit_events/:audit_event_id': 'read_audit_event@group:id',
  'GET /audit_events': 'read_audit_event@instance',
  'GET /audit_events/:id': 'read_audit_event@instance',
  // Publicly accessible endpoints (§8.1 notes): a public resource is read without the permission.
  'GET /projects/:id': 'read_project@project:id public',
  'GET /groups/:id': 'read_group@group:id public',
}

describe("each route declares GitLab's route_setting :authorization", () => {
  it('the table of §8.1, row by row, and no row left undeclared', () => {
    const declared = Object.fromEntries(
      ROUTES.map((row) => {
        const p = row.permission
        const text =
          p === undefined
            ? 'none'
            : 'ref' in p
              ? `${p.name}@${p.boundary}:${p.ref}${p.publicRead === true ? ' public' : ''}`
              : `${p.name}@${p.boundary}`
        return [`${row.method} ${row.path}`, text]
      }),
    )
    expect(declared).toEqual(EXPECTED)
  })
})
