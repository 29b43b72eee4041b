import { err, ok, type Result } from 'neverthrow'
import { storeConflict, storeFailure } from '../domain/error-constructors.js'
import type { ErrorOf, StoreFailure } from '../domain/errors.js'
import { nextLastUsed } from '../domain/last-used.js'
import { tokensToRevokeOnReuse } from '../domain/reuse-detection.js'
import type { Token, TokenDraft } from '../domain/token.js'
import type { UserId } from '../domain/user-id.js'
import { listOver } from '../query/apply.js'
import type { ListQuery } from '../query/filter.js'
import { comparatorsOver } from '../query/sort.js'
import type { RevokeOutcome } from '../store/token-store.js'
import { RecentMap } from './recent-map.js'
import { RowsById } from './rows-by-id.js'
import { ROW_INSTANTS, type StoredRow, scopeInterner, toRow, toToken, withChanges } from './stored-row.js'

const ROW_ORDER = comparatorsOver(ROW_INSTANTS)
/** How many tokens read by digest are kept built: a busy server's working set of presented tokens. */
const RECENT_TOKENS = 10_000

/**
 * The memory store's tokens and their indexes. Every method is synchronous: it runs to completion
 * before any other JavaScript does, which is what makes each one atomic (see `memoryStore`).
 *
 * Cost: `byDigest`, `byId`, `revoke`, `touchLastUsed`, `insert` and `rotate` are O(1); `list` is
 * O(tokens of the user) with a `userId` filter and O(all tokens) without; `revokeDescendants` is
 * O(family size).
 */
interface TokenTable {
  /** The id the next `insert` gets. */
  readonly nextId: number
  /** The stored token with this digest; while it is unchanged, reads hand out the same frozen object. */
  byDigest(digest: string): Token | null
  /** The stored row with this digest: a row is replaced, never changed, when its token changes. */
  rowByDigest(digest: string): StoredRow | null
  /** The token of a stored row, as `byDigest` hands it out. */
  tokenFor(row: StoredRow): Token
  byId(id: number): Token | null
  /** The token rotated from `id` (whose `previousId` is `id`), if any. */
  successorOf(id: number): Token | null
  /**
   * One page of the tokens matching a list query, and how many match. With a `userId` in the filter
   * only that user's tokens are read, with `owners` only theirs; only the page's tokens are built.
   */
  list(query: ListQuery, owners?: readonly UserId[]): { items: Token[]; total: number }
  insert(draft: TokenDraft): Result<Token, StoreFailure>
  importToken(token: Token): Result<Token, StoreFailure>
  revoke(id: number): RevokeOutcome
  rotate(
    oldId: number,
    successor: TokenDraft,
  ): Result<Token, StoreFailure | ErrorOf<'already_revoked'> | ErrorOf<'not_found'>>
  revokeDescendants(tokenId: number, now: Date): readonly Token[]
  touchLastUsed(id: number, at: Date, throttleMs: number, ip: string | null): boolean
}

/** An empty {@link TokenTable}. */
export function tokenTable(firstId = 1): TokenTable {
  const rows = new RowsById<StoredRow>()
  // The same rows by digest: authentication finds its row with one lookup (see `keep`).
  const rowByDigest = new Map<string, StoredRow>()
  // Ids only, append-only: tokens are never deleted and never change user or family.
  const idsByUser = new Map<UserId, number[]>()
  // Members other than the family's first token (the one whose id is the family id, reachable through
  // `rows`). Most families have one token, so most tokens cost nothing here.
  const laterMembersByFamily = new Map<number, number[]>()
  // previousId -> the successor's id: SQL's UNIQUE(previous_id), so a token never has two successors.
  const successorOf = new Map<number, number>()
  const intern = scopeInterner()
  // The tokens last handed out by digest (authentication's read), by row: a row never changes (a
  // write replaces it), so its token can be handed out again as long as it is the stored row.
  const handedOut = new RecentMap<StoredRow, Token>(RECENT_TOKENS)
  let nextId = firstId

  function append<K>(index: Map<K, number[]>, key: K, id: number): void {
    const ids = index.get(key)
    if (ids === undefined) index.set(key, [id])
    else ids.push(id)
  }

  /** Why a new token cannot be stored, or null when it can. */
  function conflict(operation: string, token: Pick<Token, 'digest' | 'previousId'>): StoreFailure | null {
    const holder = rowByDigest.get(token.digest)
    if (holder !== undefined)
      return storeConflict(operation, 'digest', new Error(`digest already stored (token ${holder.id})`))
    const successor = token.previousId === null ? undefined : successorOf.get(token.previousId)
    if (successor !== undefined) {
      return storeConflict(
        operation,
        'previous_id',
        new Error(`token ${token.previousId} already has a successor (token ${successor})`),
      )
    }
    return null
  }

  /**
   * Puts a row, new or replacing the one with its id, in both maps. A row's digest never changes, so
   * the digest map always holds exactly the current rows.
   */
  function keep(row: StoredRow): void {
    rows.set(row.id, row)
    rowByDigest.set(row.digest, row)
  }

  /** Stores a token whose conflicts were checked; returns the stored token. */
  function put(token: Token): Token {
    const row = toRow(token, intern)
    keep(row)
    append(idsByUser, row.userId, row.id)
    if (row.familyId !== row.id) append(laterMembersByFamily, row.familyId, row.id)
    if (row.previousId !== null) successorOf.set(row.previousId, row.id)
    if (row.id >= nextId) nextId = row.id + 1
    return toToken(row)
  }

  function tokenFor(row: StoredRow): Token {
    let token = handedOut.get(row)
    if (token === undefined) {
      token = toToken(row)
      handedOut.set(row, token)
    }
    return token
  }

  function fromDraft(draft: TokenDraft): Token {
    const id = nextId
    return { ...draft, id, familyId: draft.familyId ?? id }
  }

  // A plain loop into an array: much faster than a generator when a list reads many rows.
  function rowsOf(ids: readonly number[]): StoredRow[] {
    const found: StoredRow[] = []
    for (const id of ids) {
      const row = rows.get(id)
      if (row !== undefined) found.push(row)
    }
    return found
  }

  function family(familyId: number): Token[] {
    const first = rows.get(familyId)
    const members = first !== undefined && first.familyId === familyId ? [toToken(first)] : []
    members.push(...rowsOf(laterMembersByFamily.get(familyId) ?? []).map(toToken))
    return members
  }

  function markRevoked(row: StoredRow): StoredRow {
    const revoked = withChanges(row, { revoked: true })
    keep(revoked)
    return revoked
  }

  return {
    get nextId() {
      return nextId
    },
    byDigest(digest) {
      const row = rowByDigest.get(digest)
      return row === undefined ? null : tokenFor(row)
    },
    rowByDigest(digest) {
      return rowByDigest.get(digest) ?? null
    },
    tokenFor,
    byId(id) {
      const row = rows.get(id)
      return row === undefined ? null : toToken(row)
    },
    successorOf(id) {
      const successor = successorOf.get(id)
      const row = successor === undefined ? undefined : rows.get(successor)
      return row === undefined ? null : toToken(row)
    },
    list(query, owners) {
      const { userId } = query.filter
      // The filter and sort read the rows themselves: building a Token (and its Dates) for each of a
      // million rows would cost more than the whole filter. Only the page becomes tokens.
      let candidates: Iterable<StoredRow>
      if (owners !== undefined) {
        candidates = owners.flatMap((owner) => rowsOf(idsByUser.get(owner) ?? []))
      } else {
        candidates = userId === undefined ? rows.values() : rowsOf(idsByUser.get(userId) ?? [])
      }
      const page = listOver(candidates, query, ROW_INSTANTS, ROW_ORDER)
      return { items: page.items.map(toToken), total: page.total }
    },
    insert(draft) {
      const failure = conflict('insert', draft)
      return failure === null ? ok(put(fromDraft(draft))) : err(failure)
    },
    importToken(token) {
      if (!Number.isSafeInteger(token.id) || token.id < 1) {
        return err(storeFailure('importToken', new Error(`token id ${token.id} is not a positive integer`)))
      }
      if (rows.has(token.id))
        return err(storeConflict('importToken', 'id', new Error(`token id ${token.id} is already stored`)))
      const failure = conflict('importToken', token)
      return failure === null ? ok(put(token)) : err(failure)
    },
    revoke(id) {
      const row = rows.get(id)
      if (row === undefined) return 'missing'
      if (row.revoked) return 'already_revoked'
      markRevoked(row)
      return 'revoked'
    },
    rotate(oldId, successor) {
      const old = rows.get(oldId)
      if (old === undefined) return err({ type: 'not_found', entity: 'token' })
      if (old.revoked) return err({ type: 'already_revoked', tokenId: oldId })
      const failure = conflict('rotate', successor)
      if (failure !== null) return err(failure)
      // Both writes happen here with no `await` between the check above and them: JavaScript runs
      // this to completion before any other call, so of N concurrent rotations exactly one gets past
      // the `revoked` check and the rest see the token revoked.
      markRevoked(old)
      return ok(put(fromDraft(successor)))
    },
    revokeDescendants(tokenId, now) {
      const presented = rows.get(tokenId)
      if (presented === undefined) return []
      // The domain rule decides which tokens go; it only acts for a revoked presented token, and the
      // store's contract is "the descendants", so the token is presented as revoked.
      const doomed = tokensToRevokeOnReuse(
        { ...toToken(presented), revoked: true },
        family(presented.familyId),
        now,
      ).unwrapOr([])
      const revoked: Token[] = []
      for (const token of doomed) {
        const row = rows.get(token.id)
        if (row !== undefined && !row.revoked) revoked.push(toToken(markRevoked(row)))
      }
      return revoked
    },
    touchLastUsed(id, at, throttleMs, ip) {
      const row = rows.get(id)
      if (row === undefined) return false
      // The one rule (nextLastUsed) on the stored values, in this synchronous, so atomic, step.
      const lastUsedAt = row.lastUsedAt === null ? null : new Date(row.lastUsedAt)
      const next = nextLastUsed({ lastUsedAt, lastUsedIps: row.lastUsedIps }, at, throttleMs, ip)
      if (next === null) return false
      keep(
        withChanges(row, {
          lastUsedAt: next.lastUsedAt === null ? null : next.lastUsedAt.getTime(),
          lastUsedIps: next.lastUsedIps,
        }),
      )
      return true
    },
  }
}
