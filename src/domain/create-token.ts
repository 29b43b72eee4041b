import { err, ok, type Result } from 'neverthrow'
import { type CalendarDate, parseCalendarDate } from './calendar.js'
import type { MintContext } from './context.js'
import { invalidParameter, validationFailed } from './error-constructors.js'
import type { ErrorOf } from './errors.js'
import { resolveExpiry } from './expiry.js'
import type { GranularScope } from './granular-scope.js'
import { keepNewestIps } from './last-used.js'
import { checkRouteScopes, type MintPolicy, PERSONAL_MINT } from './mint-policy.js'
import { mintSecret } from './mint-secret.js'
import type { TokenDraft } from './token.js'
import { validateTokenFields } from './token-fields.js'
import type { UserId } from './user-id.js'

// Where it has always been imported from; the rule that reads it lives in token-fields.ts.
export { MAX_TEXT_LENGTH } from './token-fields.js'

/** The shortest secret a seed may name: anything shorter is guessable. */
const MIN_GIVEN_SECRET_LENGTH = 8

/**
 * What a token put in place may say about itself (a policy whose `state` is `given`: seeds, fixtures,
 * migrations); everything absent is as for a fresh token.
 */
export interface GivenState {
  /** Used as is (only its digest is stored); at least 8 characters. */
  readonly secret?: string
  readonly createdAt?: Date
  readonly lastUsedAt?: Date | null
  /** The last client IPs, oldest first; the newest five are kept. */
  readonly lastUsedIps?: readonly string[]
  readonly revoked?: boolean
  /** The `impersonation` flag, instead of the policy's. */
  readonly impersonation?: boolean
  /** The token this one was rotated from; the caller checks the family and sets `familyId`. */
  readonly previousId?: number | null
}

/** What a caller asks for when creating a token. */
interface CreateTokenInput {
  readonly userId: UserId
  /** Whether the owner is an administrator (admin-only scopes, when the policy says so). */
  readonly ownerIsAdmin?: boolean
  readonly name: string
  readonly scopes: readonly string[]
  /** A fine-grained token's scopes (checked by the caller): `scopes` is empty then, and not checked. */
  readonly granularScopes?: readonly GranularScope[]
  readonly description?: string | null
  /**
   * `YYYY-MM-DD` (a malformed one is `expires_at is invalid`), absent for the policy's default, or
   * `null` for never where the policy's expiry rule takes it. Today or a past day makes a token that is
   * inactive from the start where the rule says so, as GitLab creates it.
   */
  readonly expiresAt?: string | null
  /** Read only when the policy's `state` is `given`. */
  readonly given?: GivenState
}

/** A token that passed every check of its policy, before its secret is minted. */
export interface CheckedToken {
  readonly draft: Omit<TokenDraft, 'digest'>
  /** The secret the request gave (a `given` policy), or `undefined` for a fresh one. */
  readonly secret: string | undefined
}

/** A new token and its one-time secret. */
interface Minted {
  readonly draft: TokenDraft
  readonly secret: string
}

/**
 * The checks every token kind runs, pure, in GitLab's order (the route's parameters, then the model):
 * the policy's scope rule (the route's values, admin-only scopes), the expiry parameter, GitLab's
 * model rules for the fields (`validateTokenFields`), a given secret's length, the expiry rule.
 */
export function checkToken(
  input: CreateTokenInput,
  ctx: MintContext,
  policy: MintPolicy,
): Result<CheckedToken, ErrorOf<'invalid_parameter' | 'validation_failed' | 'invalid_expiry'>> {
  const granular = input.granularScopes
  if (granular === undefined) {
    const routed = checkRouteScopes(input.scopes, policy.scopes, input.ownerIsAdmin ?? false)
    if (routed.isErr()) return err(routed.error)
  }
  const requested = parseExpiresAt(input.expiresAt)
  if (requested.isErr()) return err(requested.error)
  const fields = validateTokenFields(input, ctx.scopes, policy.scopes.unknown, granular !== undefined)
  if (fields.isErr()) return err(fields.error)
  const given = policy.state === 'given' ? (input.given ?? {}) : {}
  if (given.secret !== undefined && given.secret.length < MIN_GIVEN_SECRET_LENGTH) {
    return err(validationFailed(`Token is too short (minimum is ${MIN_GIVEN_SECRET_LENGTH} characters)`))
  }
  const expiresAt = resolveExpiry(requested.value, ctx.now, ctx.expiry, policy.expiry)
  if (expiresAt.isErr()) return err(expiresAt.error)
  const { name, description, scopes } = fields.value
  const ips = given.lastUsedIps === undefined ? [] : keepNewestIps(given.lastUsedIps)
  return ok({
    draft: {
      userId: input.userId,
      name,
      description,
      scopes,
      createdAt: given.createdAt ?? ctx.now,
      lastUsedAt: given.lastUsedAt ?? null,
      ...(ips.length === 0 ? {} : { lastUsedIps: ips }),
      expiresAt: expiresAt.value,
      revoked: given.revoked ?? false,
      impersonation: given.impersonation ?? policy.impersonation,
      previousId: given.previousId ?? null,
      familyId: null,
      ...(granular === undefined ? {} : { granularScopes: granular }),
    },
    secret: given.secret,
  })
}

/** Mints the secret of a checked token (a given one is kept) and keeps only its digest. */
export function mintToken(checked: CheckedToken, ctx: MintContext): Minted {
  const secret = checked.secret ?? mintSecret(ctx, checked.draft.userId)
  return { draft: { ...checked.draft, digest: ctx.digest(secret) }, secret }
}

/**
 * {@link checkToken}, then {@link mintToken}: a new token of `policy` (GitLab's personal creation,
 * `PERSONAL_MINT`, when absent) and its one-time secret.
 */
export function createToken(
  input: CreateTokenInput,
  ctx: MintContext,
  policy: MintPolicy = PERSONAL_MINT,
): Result<Minted, ErrorOf<'invalid_parameter' | 'validation_failed' | 'invalid_expiry'>> {
  return checkToken(input, ctx, policy).map((checked) => mintToken(checked, ctx))
}

function parseExpiresAt(
  value: string | null | undefined,
): Result<CalendarDate | null | undefined, ErrorOf<'invalid_parameter'>> {
  if (value === undefined || value === null) return ok(value)
  return parseCalendarDate(value).mapErr(() => invalidParameter('expires_at', 'invalid'))
}
