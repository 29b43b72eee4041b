import { err, type Result } from 'neverthrow'
import type { CalendarDate } from './calendar.js'
import type { MintContext } from './context.js'
import { mintToken } from './create-token.js'
import type { ErrorOf } from './errors.js'
import { ROTATION_EXPIRY, resolveExpiry } from './expiry.js'
import type { Token, TokenDraft } from './token.js'

/**
 * The outcome of a rotation: the old token revoked, its successor to insert, and the successor's
 * one-time secret. The store applies both writes atomically.
 */
interface Rotation {
  readonly revoked: Token
  readonly successor: TokenDraft
  readonly secret: string
}

/**
 * Rotates a token: the successor inherits user, name, description, scopes, granular scopes and impersonation, links
 * `previousId` and `familyId`, and expires on the requested day or by default one week from today (the
 * policy's `rotationDefaultDays`)
 * (never, when expiry is not required). A revoked token cannot be rotated.
 */
export function rotateToken(
  token: Token,
  request: { readonly expiresAt?: CalendarDate },
  ctx: MintContext,
): Result<Rotation, ErrorOf<'already_revoked' | 'invalid_expiry'>> {
  if (token.revoked) return err({ type: 'already_revoked', tokenId: token.id })
  return resolveExpiry(request.expiresAt, ctx.now, ctx.expiry, ROTATION_EXPIRY).map((expiresAt) => {
    const draft = {
      userId: token.userId,
      name: token.name,
      description: token.description,
      scopes: token.scopes,
      createdAt: ctx.now,
      lastUsedAt: null,
      expiresAt,
      revoked: false,
      impersonation: token.impersonation,
      previousId: token.id,
      familyId: token.familyId,
      // GitLab's RotateService copies the granular scopes to the new token (rotate_service.rb).
      ...(token.granularScopes === undefined ? {} : { granularScopes: token.granularScopes }),
    }
    const { draft: successor, secret } = mintToken({ draft, secret: undefined }, ctx)
    return { revoked: { ...token, revoked: true }, successor, secret }
  })
}
