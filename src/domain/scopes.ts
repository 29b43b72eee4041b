/**
 * Every scope GitLab grants to a personal access token, in GitLab's own order.
 *
 * @example
 * ```ts
 * import { SCOPES } from 'patkit'
 * SCOPES.includes('api') // true
 * ```
 */
export const SCOPES = [
  'api',
  'read_api',
  'read_user',
  'create_runner',
  'manage_runner',
  'k8s_proxy',
  'self_rotate',
  'read_repository',
  'write_repository',
  'read_registry',
  'write_registry',
  'read_virtual_registry',
  'write_virtual_registry',
  'read_observability',
  'write_observability',
  'ai_features',
  'sudo',
  'admin_mode',
  'read_service_ping',
] as const

/**
 * One GitLab token scope.
 *
 * @example
 * ```ts
 * import type { Scope } from 'patkit'
 * const scopes: Scope[] = ['read_api']
 * ```
 */
export type Scope = (typeof SCOPES)[number]

/**
 * Scopes a user may grant when creating a token for themselves through
 * `POST /user/personal_access_tokens`, as GitLab limits them.
 */
export const USER_CREATABLE_SCOPES = ['k8s_proxy', 'self_rotate'] as const satisfies readonly Scope[]

/** Scopes only an administrator may put on a token. */
export const ADMIN_ONLY_SCOPES = [
  'sudo',
  'admin_mode',
  'read_service_ping',
] as const satisfies readonly Scope[]

/**
 * GitLab's `resource_bot_scopes`: every scope but the administrators' (`sudo`, `admin_mode`,
 * `read_service_ping`) and `read_user`, in GitLab's order.
 */
export const RESOURCE_BOT_SCOPES: readonly string[] = Object.freeze(
  SCOPES.filter((s) => s !== 'read_user' && !(ADMIN_ONLY_SCOPES as readonly Scope[]).includes(s)),
)

/** Narrows a string to a {@link Scope}. */
export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value)
}
