import { err, type Result } from 'neverthrow'
import type { CalendarDate } from './calendar.js'
import type { MintContext } from './context.js'
import type { ErrorOf } from './errors.js'
import { resolveExpiry } from './expiry.js'
import { mintSecret } from './mint-secret.js'
import { isScope, type Scope } from './scopes.js'
import type { TokenDraft } from './token.js'

/** GitLab's column limit for `name` and `description`. */
export const MAX_TEXT_LENGTH = 255

/**
 * What a caller asks for when creating a token.
 *
 * @example
 * ```ts
 * import type { CreateTokenInput } from 'patkit'
 * const input: CreateTokenInput = { userId: 2, name: 'ci', scopes: ['read_api'] }
 * ```
 */
export interface CreateTokenInput {
  readonly userId: number
  readonly name: string
  readonly scopes: readonly string[]
  readonly description?: string | null
  /** Absent: today + the maximum lifetime when expiry is required, else never. */
  readonly expiresAt?: CalendarDate
  readonly impersonation?: boolean
}

/**
 * A new token and its one-time secret.
 *
 * @example
 * ```ts
 * import type { Minted } from 'patkit'
 * declare const minted: Minted
 * minted.secret // shown to the user once, never stored
 * ```
 */
export interface Minted {
  readonly draft: TokenDraft
  readonly secret: string
}

/**
 * Validates a creation request and mints the token: GitLab's model rules (name and scopes present,
 * known scopes, 255-character limits, expiry window), a fresh secret, and only its digest kept.
 *
 * @example
 * ```ts
 * import { createToken } from 'patkit'
 * const result = createToken({ userId: 2, name: 'ci', scopes: ['api'] }, ctx)
 * if (result.isOk()) console.log(result.value.secret)
 * ```
 */
export function createToken(
  input: CreateTokenInput,
  ctx: MintContext,
): Result<Minted, ErrorOf<'invalid_parameter' | 'validation_failed' | 'invalid_expiry'>> {
  const name = input.name.trim()
  if (name === '') return err({ type: 'validation_failed', message: "Name can't be blank" })
  if (name.length > MAX_TEXT_LENGTH) {
    return err({
      type: 'validation_failed',
      message: `Name is too long (maximum is ${MAX_TEXT_LENGTH} characters)`,
    })
  }
  const description = input.description ?? null
  if (description !== null && description.length > MAX_TEXT_LENGTH) {
    return err({
      type: 'validation_failed',
      message: `Description is too long (maximum is ${MAX_TEXT_LENGTH} characters)`,
    })
  }
  if (input.scopes.length === 0) return err({ type: 'validation_failed', message: "Scopes can't be blank" })
  if (!input.scopes.every(isScope)) {
    return err({ type: 'invalid_parameter', parameter: 'scopes', reason: 'not_allowed_value' })
  }
  const scopes: Scope[] = [...new Set(input.scopes as readonly Scope[])]
  return resolveExpiry(input.expiresAt, ctx.now, ctx.expiry, ctx.expiry.maxLifetimeDays).map((expiresAt) => {
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
