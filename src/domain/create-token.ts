import { err, type Result } from 'neverthrow'
import type { CalendarDate } from './calendar.js'
import type { MintContext } from './context.js'
import type { ErrorOf } from './errors.js'
import { resolveExpiry } from './expiry.js'
import { mintSecret } from './mint-secret.js'
import type { TokenDraft } from './token.js'
import { validateTokenFields } from './token-fields.js'
import type { UserId } from './user-id.js'

// Where it has always been imported from; the rule that reads it lives in token-fields.ts.
export { MAX_TEXT_LENGTH } from './token-fields.js'

/**
 * What a caller asks for when creating a token.
 *
 * @example
 * ```ts
 * import type { CreateTokenInput } from './create-token.js'
 * const input: CreateTokenInput = { userId: 2, name: 'ci', scopes: ['read_api'] }
 * ```
 */
export interface CreateTokenInput {
  readonly userId: UserId
  readonly name: string
  readonly scopes: readonly string[]
  readonly description?: string | null
  /**
   * Absent: today + the maximum lifetime when expiry is required, else never. Today or a past day
   * makes a token that is inactive from the start, as GitLab creates it.
   */
  readonly expiresAt?: CalendarDate
  /**
   * Refuse today or a past `expiresAt` (`Expiration date must be after ...`) instead of creating an
   * inactive token: the checked path of an application (`createOwn`), not GitLab's model.
   */
  readonly refusePast?: boolean
  readonly impersonation?: boolean
}

/**
 * A new token and its one-time secret.
 *
 * @example
 * ```ts
 * import type { Minted } from './create-token.js'
 * declare const minted: Minted
 * minted.secret // shown to the user once, never stored
 * ```
 */
export interface Minted {
  readonly draft: TokenDraft
  readonly secret: string
}

/**
 * Validates a creation request and mints the token: GitLab's model rules (`validateTokenFields`: name
 * and scopes present, known scopes, 255-character limits), the expiry window, a fresh secret, and
 * only its digest kept.
 *
 * @example
 * ```ts
 * import { createToken } from './create-token.js'
 * import type { MintContext } from './context.js'
 * declare const ctx: MintContext
 *
 * const result = createToken({ userId: 2, name: 'ci', scopes: ['api'] }, ctx)
 * if (result.isOk()) console.log(result.value.secret)
 * ```
 */
export function createToken(
  input: CreateTokenInput,
  ctx: MintContext,
): Result<Minted, ErrorOf<'invalid_parameter' | 'validation_failed' | 'invalid_expiry'>> {
  const fields = validateTokenFields(input, ctx.scopes)
  if (fields.isErr()) return err(fields.error)
  const { name, description, scopes } = fields.value
  const { expiry } = ctx
  return resolveExpiry(
    input.expiresAt,
    ctx.now,
    expiry,
    expiry.maxLifetimeDays,
    input.refusePast !== true,
  ).map((expiresAt) => {
    const secret = mintSecret(ctx, input.userId)
    const draft: TokenDraft = {
      userId: input.userId,
      name,
      description,
      scopes,
      createdAt: ctx.now,
      lastUsedAt: null,
      expiresAt,
      revoked: false,
      impersonation: input.impersonation ?? false,
      previousId: null,
      familyId: null,
      digest: ctx.digest(secret),
    }
    return { draft, secret }
  })
}
