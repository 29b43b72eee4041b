import { toBase64Url } from './bytes.js'
import type { MintContext } from './context.js'
import { ROUTABLE_RANDOM_BYTES, routableSecret } from './routable-token.js'
import type { UserId } from './user-id.js'

/**
 * The formats of new secrets: GitLab's `routable` one (the default since GitLab 18.3: prefix, base64url
 * payload with the owner, `.01.`, a CRC-32 check), or GitLab's `legacy` one (the prefix and
 * `Devise.friendly_token`: 20 characters of `[A-Za-z0-9_-]`, 120 random bits, below patkit's 128-bit
 * floor: only to emulate an older GitLab).
 *
 * @example
 * ```ts
 * import type { TokenFormat } from 'patkit/authority'
 * const format: TokenFormat = 'routable'
 * ```
 */
export type TokenFormat = 'routable' | 'legacy'

/** Random bytes of a legacy secret: `SecureRandom.urlsafe_base64(15)` gives 20 characters. */
const LEGACY_RANDOM_BYTES = 15

// Devise.friendly_token: urlsafe base64, with `lIO0` replaced by `sxyz` (no look-alike characters).
function friendlyToken(bytes: Uint8Array): string {
  return toBase64Url(bytes).replace(/[lIO0]/g, (c) => ({ l: 's', I: 'x', O: 'y', '0': 'z' })[c] ?? c)
}

/**
 * A new secret for a token of `userId`, in the context's format (routable when none is given).
 */
export function mintSecret(ctx: Pick<MintContext, 'random' | 'prefix' | 'format'>, userId: UserId): string {
  if (ctx.format === 'legacy') return ctx.prefix + friendlyToken(ctx.random.bytes(LEGACY_RANDOM_BYTES))
  return routableSecret(ctx.random.bytes(ROUTABLE_RANDOM_BYTES), ctx.prefix, { userId })
}
