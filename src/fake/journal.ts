import type { AuthorityEvent } from '../authority/core/events.js'
import type { RefusalReason } from './refusal-reason.js'
import type { RequestDetail } from './request-detail.js'

/**
 * One request the fake authority answered: never a secret (credentials in the query are masked), with
 * the token that authenticated it, when one did, and its owner; for a refused request, why
 * (`reason`); and what it sent and got (`detail`, credentials filtered).
 *
 * @example
 * ```ts
 * import type { RequestEntry } from 'patkit/fake'
 *
 * const entry: RequestEntry = {
 *   kind: 'request', seq: 1, at: '2026-01-01T00:00:00.000Z', method: 'GET',
 *   path: '/api/v4/personal_access_tokens/self', status: 401, tokenId: 3, userId: 2, fault: null,
 *   reason: { code: 'token_expired', message: 'token 3 expired on 2025-12-31', tokenId: 3, expiresOn: '2025-12-31' },
 *   detail: null,
 * }
 * ```
 */
export interface RequestEntry {
  readonly kind: 'request'
  /** Order of recording, from 1; never reused, also across clears. */
  readonly seq: number
  /** The authority's clock when the request arrived (ISO 8601). */
  readonly at: string
  readonly method: string
  /**
   * Path and query, the value of every credential-named parameter (`private_token`, `access_token`,
   * `job_token`, any case; any name with `token`, `password`, `secret`, or ending in `key`) replaced by
   * `[FILTERED]`, as GitLab's logs do; a target that does not parse is shown without its query.
   */
  readonly path: string
  /** The status answered; 0 when a fault dropped the connection. */
  readonly status: number
  readonly tokenId: number | null
  readonly userId: number | null
  /** The id of the fault rule that acted on the request, if one did. */
  readonly fault: string | null
  /** Why the request was refused (status 400 or more, or no answer); `null` when it was answered. */
  readonly reason: RefusalReason | null
  /** The request's headers and parameters and the answer, credentials filtered; `null` when not recorded. */
  readonly detail: RequestDetail | null
}

/**
 * What {@link Journal.recordRequest} takes: a request entry's fields, `reason` and `detail` optional.
 *
 * @example
 * ```ts
 * import type { RecordedRequest } from 'patkit/fake'
 *
 * const request: RecordedRequest = {
 *   at: '2026-01-01T00:00:00.000Z', method: 'GET', path: '/api/v4/user', status: 200,
 *   tokenId: 3, userId: 2, fault: null,
 * }
 * ```
 */
export type RecordedRequest = Omit<RequestEntry, 'kind' | 'seq' | 'reason' | 'detail'> &
  Partial<Pick<RequestEntry, 'reason' | 'detail'>>

/**
 * One authority event (created, rotated, revoked, reuse_detected, used, token_expiring, ...) as the
 * journal keeps it: the event's fields with instants as ISO 8601 text. Events never carry a secret.
 *
 * @example
 * ```ts
 * import type { EventEntry } from 'patkit/fake'
 *
 * const entry: EventEntry = { kind: 'event', seq: 2, at: '2026-01-01T00:00:00.000Z', type: 'used', event: {} }
 * ```
 */
export interface EventEntry {
  readonly kind: 'event'
  readonly seq: number
  readonly at: string
  readonly type: string
  readonly event: Readonly<Record<string, unknown>>
}

/**
 * An entry of the {@link Journal}.
 *
 * @example
 * ```ts
 * import type { JournalEntry } from 'patkit/fake'
 *
 * declare const entry: JournalEntry
 * if (entry.kind === 'request') entry.status
 * ```
 */
export type JournalEntry = RequestEntry | EventEntry

/**
 * What a journal query selects; every field is optional and all given ones must match.
 *
 * @example
 * ```ts
 * import type { JournalQuery } from 'patkit/fake'
 *
 * const rotations: JournalQuery = { kind: 'request', method: 'POST', pathContains: '/rotate', status: 200 }
 * ```
 */
export interface JournalQuery {
  readonly kind?: 'request' | 'event'
  readonly method?: string
  /** Requests whose path (with query) contains this text. */
  readonly pathContains?: string
  readonly status?: number
  /** Requests authenticated by, or events about, this token (an event's `token`, `presented` or `previous`). */
  readonly tokenId?: number
  readonly userId?: number
  /** Events of this type. */
  readonly type?: string
  /** Entries recorded after this sequence number (for polling). */
  readonly afterSeq?: number
  /** At most this many entries, the newest last; default all. */
  readonly limit?: number
}

/**
 * The recorded requests and events of a fake authority, bounded (the oldest are dropped first).
 *
 * @example
 * ```ts
 * import { createJournal } from './journal.js'
 *
 * const journal = createJournal()
 * journal.query({ kind: 'event', type: 'reuse_detected' }).count
 * ```
 */
export interface Journal {
  recordRequest(entry: RecordedRequest): void
  recordEvent(event: AuthorityEvent): void
  /**
   * Records something the fake did that is no authority event, as an event entry of `type` (a webhook
   * delivery: `webhook_delivery`); `data` holds plain JSON values and never a secret.
   */
  recordNote(type: string, at: Date, data: Readonly<Record<string, unknown>>): void
  /** The matching entries (oldest first) and how many matched in all (before `limit`). */
  query(query?: JournalQuery): { readonly entries: readonly JournalEntry[]; readonly count: number }
  /** Forgets every entry; sequence numbers go on. */
  clear(): void
  /** How many entries were dropped for the bound since the last clear. */
  readonly dropped: number
  /**
   * Calls `listener` with every entry recorded from now on, as it is recorded, until the returned
   * function is called (the control API's event stream).
   */
  subscribe(listener: (entry: JournalEntry) => void): () => void
}

/** Entries kept at most; a long test run drops the oldest. */
export const DEFAULT_JOURNAL_LIMIT = 10_000

// An event as JSON-ready data: instants as text, nested tokens kept (they have no digest).
function plain(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString()
  if (Array.isArray(value)) return value.map(plain)
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]))
  }
  return value
}

function tokenIdsOf(event: Readonly<Record<string, unknown>>): number[] {
  const ids: number[] = []
  for (const key of ['token', 'presented', 'previous']) {
    const id = (event[key] as { id?: unknown } | undefined)?.id
    if (typeof id === 'number') ids.push(id)
  }
  for (const token of (event['revoked'] as { id?: unknown }[] | undefined) ?? []) {
    if (typeof token.id === 'number') ids.push(token.id)
  }
  return ids
}

function userIdsOf(event: Readonly<Record<string, unknown>>): number[] {
  const ids: number[] = []
  if (typeof event['actorUserId'] === 'number') ids.push(event['actorUserId'])
  for (const key of ['token', 'presented']) {
    const id = (event[key] as { userId?: unknown } | undefined)?.userId
    if (typeof id === 'number') ids.push(id)
  }
  return ids
}

/** Whether an entry is one a journal query selects (its `limit` aside). */
export function journalMatches(entry: JournalEntry, q: JournalQuery): boolean {
  if (q.kind !== undefined && entry.kind !== q.kind) return false
  if (q.afterSeq !== undefined && entry.seq <= q.afterSeq) return false
  if (entry.kind === 'request') {
    if (q.type !== undefined) return false
    if (q.method !== undefined && entry.method !== q.method.toUpperCase()) return false
    if (q.pathContains !== undefined && !entry.path.includes(q.pathContains)) return false
    if (q.status !== undefined && entry.status !== q.status) return false
    if (q.tokenId !== undefined && entry.tokenId !== q.tokenId) return false
    if (q.userId !== undefined && entry.userId !== q.userId) return false
    return true
  }
  if (q.method !== undefined || q.pathContains !== undefined || q.status !== undefined) return false
  if (q.type !== undefined && entry.type !== q.type) return false
  if (q.tokenId !== undefined && !tokenIdsOf(entry.event).includes(q.tokenId)) return false
  if (q.userId !== undefined && !userIdsOf(entry.event).includes(q.userId)) return false
  return true
}

/**
 * Creates an empty {@link Journal} keeping at most `limit` entries.
 */
export function createJournal(limit: number = DEFAULT_JOURNAL_LIMIT): Journal {
  let entries: JournalEntry[] = []
  let seq = 0
  let dropped = 0
  const listeners = new Set<(entry: JournalEntry) => void>()
  const push = (entry: JournalEntry) => {
    entries.push(entry)
    if (entries.length > limit) {
      entries.splice(0, entries.length - limit)
      dropped++
    }
    for (const listener of listeners) listener(entry)
  }
  return {
    recordRequest: (entry) => push({ kind: 'request', seq: ++seq, reason: null, detail: null, ...entry }),
    recordEvent: (event) => {
      const data = plain(event) as Record<string, unknown>
      push({ kind: 'event', seq: ++seq, at: String(data['at']), type: event.type, event: data })
    },
    recordNote: (type, at, data) =>
      push({
        kind: 'event',
        seq: ++seq,
        at: at.toISOString(),
        type,
        event: { type, at: at.toISOString(), ...data },
      }),
    query: (q = {}) => {
      const found = entries.filter((entry) => journalMatches(entry, q))
      const limited = q.limit === undefined ? found : found.slice(Math.max(0, found.length - q.limit))
      return { entries: limited, count: found.length }
    },
    clear: () => {
      entries = []
      dropped = 0
    },
    get dropped() {
      return dropped
    },
    subscribe: (listener) => {
      // A wrapper of its own, so one function subscribed twice is two subscriptions.
      const own = (entry: JournalEntry) => listener(entry)
      listeners.add(own)
      return () => {
        listeners.delete(own)
      }
    },
  }
}
