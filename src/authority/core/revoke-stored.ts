import { err, ok, type Result } from 'neverthrow'
import type { StoreFailure } from '../../domain/errors.js'
import type { Token } from '../../domain/token.js'
import type { UserId } from '../../domain/user-id.js'
import type { RevokeOutcome } from '../../store/token-store.js'
import type { AuthorityDeps } from './deps.js'
import { toTokenInfo } from './events.js'

// Every revocation (by id, self, impersonation, resource, service account, a deleted account's tokens)
// ends here: the store decides whether this call revoked it, and only then is `revoked` emitted.
export async function revokeStored(
  deps: AuthorityDeps,
  actorUserId: UserId,
  token: Token,
): Promise<Result<RevokeOutcome, StoreFailure>> {
  const outcome = await deps.store.revoke(token.id)
  if (outcome.isErr()) return err(outcome.error)
  if (outcome.value === 'revoked') {
    deps.emit({
      type: 'revoked',
      at: deps.clock.now(),
      actorUserId,
      token: toTokenInfo({ ...token, revoked: true }),
    })
  }
  return ok(outcome.value)
}
