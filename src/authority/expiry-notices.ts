import { ResultAsync } from 'neverthrow'
import { addCalendarDays, utcDay } from '../domain/calendar.js'
import type { Clock } from '../domain/clock.js'
import type { StoreFailure } from '../domain/errors.js'
import { EXPIRY_NOTICE_DAYS, type ExpiryNoticeDays, expiryNoticeDue } from '../domain/expiry-notice.js'
import type { TokenStore } from '../store/token-store.js'
import { type AuthorityEvent, toTokenInfo } from './events.js'

/**
 * What {@link expiryNotices} needs: the tokens, the clock, and where the events go (an authority's
 * `onEvent`).
 *
 * @example
 * ```ts
 * import type { AuthorityEvent, ExpiryNoticesOptions } from 'patkit'
 *
 * declare const mailer: { send(event: AuthorityEvent): void }
 *
 * const options: ExpiryNoticesOptions = { store, clock, onEvent: (event) => mailer.send(event) }
 * ```
 */
export interface ExpiryNoticesOptions {
  readonly store: TokenStore
  readonly clock: Clock
  readonly onEvent: (event: AuthorityEvent) => void
}

/**
 * The expiry notices of a store's tokens, GitLab's 60/30/7-day mails as `token_expiring` events.
 *
 * @example
 * ```ts
 * import { expiryNotices } from 'patkit'
 *
 * const notices = expiryNotices({ store, clock, onEvent: (event) => console.log(event.type) })
 * setInterval(() => void notices.check(), 60_000) // GitLab's ExpiringWorker runs daily
 * ```
 */
export interface ExpiryNotices {
  /**
   * Emits a `token_expiring` event for every active token that passed a threshold since the last
   * check (each threshold once per token), and resolves with those events.
   */
  check(): ResultAsync<readonly AuthorityEvent[], StoreFailure>
  /** Forgets which notices were given (the store's data was replaced). */
  forget(): void
}

const PAGE = 100

/**
 * Creates the {@link ExpiryNotices} of a store. Which notices were given is remembered in memory (per
 * notifier; GitLab keeps it in token columns): a new notifier, after a restart, gives each token's
 * current notice once more. Checks never overlap: a check asked for while one runs waits for it.
 *
 * @example
 * ```ts
 * import { expiryNotices, systemClock } from 'patkit'
 *
 * const notices = expiryNotices({ store, clock: systemClock, onEvent: console.log })
 * await notices.check()
 * ```
 */
export function expiryNotices(options: ExpiryNoticesOptions): ExpiryNotices {
  const notified = new Map<number, ExpiryNoticeDays>()
  let running: Promise<unknown> = Promise.resolve()
  const widest = EXPIRY_NOTICE_DAYS[0]

  const once = async (): Promise<readonly AuthorityEvent[]> => {
    const now = options.clock.now()
    const events: AuthorityEvent[] = []
    // Only tokens expiring within the widest threshold can be due: an index range, not a scan
    // (`expiresBefore` is strict, so the day after the widest threshold bounds it).
    const filter = { state: 'active' as const, expiresBefore: addCalendarDays(utcDay(now), widest + 1) }
    for (let page = 1; ; page++) {
      const listed = await options.store.list({ filter, sort: 'id_asc', page: { page, perPage: PAGE }, now })
      if (listed.isErr()) throw listed.error
      for (const token of listed.value.items) {
        const due = expiryNoticeDue(token, now, notified.get(token.id) ?? null)
        if (due === null) continue
        notified.set(token.id, due)
        const event: AuthorityEvent = {
          type: 'token_expiring',
          at: now,
          token: toTokenInfo(token),
          days: due,
        }
        events.push(event)
        options.onEvent(event)
      }
      if (page * PAGE >= listed.value.total) break
    }
    return events
  }

  return {
    check: () => {
      const next = running.then(once, once)
      running = next.catch(() => {})
      return ResultAsync.fromPromise(next, (error) => error as StoreFailure)
    },
    forget: () => notified.clear(),
  }
}
