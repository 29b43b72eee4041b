import { isExpired, type Token } from '../../domain/token.js'
import type { TokenStore } from '../../store/token-store.js'
import type { Journal } from '../journal.js'
import { messageReply, okReply } from './dashboard-reply.js'

/** A detection of a revoked token presented again, as the journal recorded it. */
interface Reuse {
  readonly at: string
  readonly presented_id: number
  readonly revoked_ids: readonly number[]
}

const idOf = (value: unknown): number | null => {
  const id = value !== null && typeof value === 'object' ? (value as { id?: unknown }).id : undefined
  return typeof id === 'number' ? id : null
}

// The journal's reuse_detected events that touch one of the ids: the presented token or one revoked.
function reusesOf(journal: Journal, ids: ReadonlySet<number>): Reuse[] {
  const found: Reuse[] = []
  for (const entry of journal.query({ kind: 'event', type: 'reuse_detected' }).entries) {
    if (entry.kind !== 'event') continue
    const presented = idOf(entry.event['presented'])
    const listed = entry.event['revoked']
    const revoked = Array.isArray(listed) ? listed.map(idOf).filter((id) => id !== null) : []
    if (presented === null || ![presented, ...revoked].some((id) => ids.has(id))) continue
    found.push({ at: entry.at, presented_id: presented, revoked_ids: revoked })
  }
  return found
}

type State = 'active' | 'revoked' | 'expired' | 'reuse_revoked'

function stateOf(token: Token, now: Date, reuseRevoked: ReadonlySet<number>): State {
  if (token.revoked) return reuseRevoked.has(token.id) ? 'reuse_revoked' : 'revoked'
  return isExpired(token, now) ? 'expired' : 'active'
}

const FAILED = () => messageReply(500, '500 Internal Server Error')

/**
 * `GET /__patkit/tokens/:id/family`: the token's rotation chain, oldest first (back by `previousId`,
 * forward by the store's `findSuccessor`), each with its state, and the reuse detections of the chain
 * the journal still holds (a detection the journal dropped or a reset cleared leaves its tokens
 * `revoked`).
 */
export async function tokenFamily(
  store: TokenStore,
  journal: Journal,
  idText: string,
  now: Date,
): Promise<Response> {
  const notFound = () => messageReply(404, '404 Token Not Found')
  if (!/^\d{1,15}$/.test(idText) || Number(idText) === 0) return notFound()
  const start = await store.findById(Number(idText))
  if (start.isErr()) return FAILED()
  if (start.value === null) return notFound()
  const chain: Token[] = [start.value]
  const seen = new Set([start.value.id])
  for (let at = start.value.previousId; at !== null && !seen.has(at); ) {
    const found = await store.findById(at)
    if (found.isErr()) return FAILED()
    if (found.value === null) break
    chain.unshift(found.value)
    seen.add(at)
    at = found.value.previousId
  }
  for (let at = start.value.id; ; ) {
    const found = await store.findSuccessor(at)
    if (found.isErr()) return FAILED()
    if (found.value === null || seen.has(found.value.id)) break
    chain.push(found.value)
    seen.add(found.value.id)
    at = found.value.id
  }
  const reuse = reusesOf(journal, seen)
  const reuseRevoked = new Set(reuse.flatMap((detection) => detection.revoked_ids))
  return okReply({
    family_id: start.value.familyId,
    tokens: chain.map((token) => ({
      id: token.id,
      name: token.name,
      user_id: token.userId,
      previous_id: token.previousId,
      state: stateOf(token, now, reuseRevoked),
      created_at: token.createdAt.toISOString(),
      expires_at: token.expiresAt,
      last_used_at: token.lastUsedAt === null ? null : token.lastUsedAt.toISOString(),
    })),
    reuse,
  })
}
