import { err, ok, type Result } from 'neverthrow'
import { invalidParameter, validationFailed } from './error-constructors.js'
import type { ErrorOf } from './errors.js'
import { CREATION_EXPIRY, type ExpiryRule } from './expiry.js'
import { ADMIN_ONLY_SCOPES } from './scopes.js'
import { UNAVAILABLE_SCOPES } from './token-fields.js'

/** Which scopes a kind of token may carry, and how a refused one fails. */
export interface ScopeRule {
  /**
   * The scopes the route lists (Grape's `values`), checked first: another one is `invalid_parameter`.
   * `null` when the route lists none of its own (the instance's vocabulary still applies).
   */
  readonly values: readonly string[] | null
  /**
   * A scope outside the instance's vocabulary (the `scopes` option): the route's `invalid_parameter`,
   * or, on a route that lists no values, the model's `validation_failed` ({@link UNAVAILABLE_SCOPES}).
   */
  readonly unknown: 'invalid_parameter' | 'validation_failed'
  /** Whether admin-only scopes (`sudo`, `admin_mode`, `read_service_ping`) need an administrator as owner. */
  readonly adminOnlyNeedsAdmin: boolean
}

/**
 * The pure part of a token kind's policy: what the domain checks and mints. The authority's kinds
 * (`src/authority/core/token-kinds.ts`) add who may mint and the event.
 */
export interface MintPolicy {
  readonly scopes: ScopeRule
  readonly expiry: ExpiryRule
  /** The `impersonation` flag of the tokens of this kind. */
  readonly impersonation: boolean
  /**
   * `fresh`: a new active token with a fresh secret, created now, never used. `given`: the request may
   * name the secret and the stored state (`given` of `CreateTokenInput`): seeds, fixtures, migrations.
   */
  readonly state: 'fresh' | 'given'
}

/** GitLab's `POST /users/:user_id/personal_access_tokens`: the default of `createToken`. */
export const PERSONAL_MINT: MintPolicy = {
  scopes: { values: null, unknown: 'invalid_parameter', adminOnlyNeedsAdmin: true },
  expiry: CREATION_EXPIRY,
  impersonation: false,
  state: 'fresh',
}

/** The checks of a rule that come before the token's own fields: the route's values, then admin-only scopes. */
export function checkRouteScopes(
  scopes: readonly string[],
  rule: ScopeRule,
  ownerIsAdmin: boolean,
): Result<void, ErrorOf<'invalid_parameter' | 'validation_failed'>> {
  const { values } = rule
  if (values !== null && !scopes.every((s) => values.includes(s))) {
    return err(invalidParameter('scopes', 'not_allowed_value'))
  }
  if (rule.adminOnlyNeedsAdmin && !ownerIsAdmin && scopes.some((s) => isAdminOnly(s))) {
    return err(validationFailed(UNAVAILABLE_SCOPES))
  }
  return ok(undefined)
}

function isAdminOnly(scope: string): boolean {
  return (ADMIN_ONLY_SCOPES as readonly string[]).includes(scope)
}
