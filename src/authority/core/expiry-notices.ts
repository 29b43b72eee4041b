import { ResultAsync } from 'neverthrow'
import { addCalendarDays, type CalendarDate, calendarDaysBetween, utcDay } from '../../domain/calendar.js'
import type { Clock } from '../../domain/clock.js'
import type { StoreFailure } from '../../domain/errors.js'
import { EXPIRY_NOTICE_DAYS, type ExpiryNoticeDays } from '../../domain/expiry-notice.js'
import type { Token } from '../../domain/token.js'
import { everyToken } from '../../store/every-page.js'
import type { TokenStore } from '../../store/token-store.js'
import { type AuthorityEvent, toTokenInfo } from './events.js'

/**
 * What {@link expiryNotices} needs: the tokens, the clock, and where the events go (an authority's
 * `onEvent`).
 *
 * @example
 * ```ts
 * import type { AuthorityEvent } from 'patkit'
 * import type { ExpiryNoticesOptions } from 'patkit/authority'
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
  /**
   * Give the notices of every day since the last check, as if a check had run on each of them: for a
   * clock that jumps (a fake's), so that moving it 54 days at once gives the notices 54 daily runs
   * would have given. Default false: a check gives the notices of its own day only, as GitLab's daily
   * worker does after a pause (it never catches up on missed days).
   */
  readonly everyDay?: boolean
}

/**
 * The expiry notices of a store's tokens, GitLab's 60/30/7-day mails as `token_expiring` events.
 *
 * @example
 * ```ts
 * import { expiryNotices } from 'patkit/authority'
 *
 * const notices = expiryNotices({ store, clock, onEvent: (event) => console.log(event.type) })
 * setInterval(() => void notices.check(), 60_000) // GitLab's ExpiringWorker runs daily
 * ```
 */
export interface ExpiryNotices {
  /**
   * Emits a `token_expiring` event for each notice due since the last check, by GitLab's rule (see
   * {@link expiryNotices}), and resolves with those events.
   */
  check(): ResultAsync<readonly AuthorityEvent[], StoreFailure>
  /** Forgets which notices were given (the store's data was replaced). */
  forget(): void
}

// GitLab's PersonalAccessToken::NOTIFICATION_INTERVALS: each notice covers its own range of days left
// (sixty_days 31..60, thirty_days 8..30, seven_days 0..7), so the ranges never overlap. Day 0 counts:
// `scope_for_notification_interval` selects `expires_at BETWEEN Date.current + min AND Date.current +
// max` whether or not the token has expired, so a token no earlier run notified hears the 7-day notice
// on its expiry day, as the webhooks do (src/fake/hooks/notice-schedule.ts).
const INTERVALS: readonly { readonly days: ExpiryNoticeDays; readonly from: number }[] =
  EXPIRY_NOTICE_DAYS.map((days, i) => ({ days, from: (EXPIRY_NOTICE_DAYS[i + 1] ?? -1) + 1 }))
// The 7-day notice also sets GitLab's `expire_notification_delivered`, which every range excludes.
const TIGHTEST: ExpiryNoticeDays = 7

// What the notifier knows of one token: the last day it evaluated it for, and the notices it gave
// (GitLab's `*_notification_sent_at` columns).
interface Notified {
  through: CalendarDate
  readonly given: Set<ExpiryNoticeDays>
}

const later = (a: CalendarDate, b: CalendarDate): CalendarDate => (calendarDaysBetween(a, b) > 0 ? b : a)
const earlier = (a: CalendarDate, b: CalendarDate): CalendarDate => (calendarDaysBetween(a, b) < 0 ? b : a)

/**
 * Creates the {@link ExpiryNotices} of a store, with GitLab's rule (app/models/personal_access_token.rb,
 * `NOTIFICATION_INTERVALS` and `scope_for_notification_interval`; app/workers/personal_access_tokens/
 * expiring_worker.rb): a run gives an active, non-impersonation token the notice of the range its days
 * left fall in, 60 (31 to 60 days), 30 (8 to 30) or 7 (0 to 7), unless that notice was given, and no
 * notice at all once the 7-day one was (GitLab's `expire_notification_delivered`). The ranges exclude
 * each other: a token first found 5 days before expiry gets the 7-day notice only. With `everyDay`, a
 * check runs that rule for each day since the last one, oldest day first.
 *
 * Which notices were given is remembered in memory (per notifier; GitLab keeps it in token columns): a
 * new notifier, after a restart, gives each token's current notice once more. Checks never overlap: a
 * check asked for while one runs waits for it.
 *
 * @example
 * ```ts
 * import { expiryNotices, systemClock } from 'patkit/authority'
 *
 * const notices = expiryNotices({ store, clock: systemClock, onEvent: console.log })
 * await notices.check()
 * ```
 */
export function expiryNotices(options: ExpiryNoticesOptions): ExpiryNotices {
  const everyDay = options.everyDay === true
  let notified = new Map<number, Notified>()
  // The first day checked since the start or `forget`: a token is found no earlier than that.
  let horizon: CalendarDate | null = null
  let lastChecked: CalendarDate | null = null
  let running: Promise<unknown> = Promise.resolve()

  // The notices due for one token from its first unevaluated day through `today`, each with the day it
  // fell due on; records them as given.
  const due = (token: Token, today: CalendarDate): { days: ExpiryNoticeDays; on: CalendarDate }[] => {
    if (token.expiresAt === null || token.revoked || token.impersonation) return []
    const known = notified.get(token.id)
    let first = today
    if (everyDay) {
      const found = later(horizon ?? today, utcDay(token.createdAt))
      first = known === undefined ? found : addCalendarDays(known.through, 1)
    }
    if (calendarDaysBetween(first, today) < 0) return []
    const state = known ?? { through: today, given: new Set<ExpiryNoticeDays>() }
    notified.set(token.id, state)
    state.through = later(state.through, today)
    // Days left on the first and the last day evaluated; the expiry day itself has 0 left.
    const most = calendarDaysBetween(first, token.expiresAt)
    const least = Math.max(0, calendarDaysBetween(today, token.expiresAt))
    const found: { days: ExpiryNoticeDays; on: CalendarDate }[] = []
    for (const { days, from } of INTERVALS) {
      if (state.given.has(TIGHTEST)) break
      if (state.given.has(days) || from > most || days < least) continue
      state.given.add(days)
      found.push({ days, on: later(first, addCalendarDays(token.expiresAt, -days)) })
    }
    return found
  }

  const once = async (): Promise<readonly AuthorityEvent[]> => {
    const now = options.clock.now()
    const today = utcDay(now)
    horizon ??= today
    // Only tokens expiring on a day not yet checked (today is checked again: its day-0 tokens), and
    // within the widest notice of today, can be due: an index range, not a scan (`expiresAfter`
    // inclusive, `expiresBefore` strict).
    const since = everyDay && lastChecked !== null ? earlier(lastChecked, today) : today
    const filter = {
      revoked: false,
      expiresAfter: since,
      expiresBefore: addCalendarDays(today, EXPIRY_NOTICE_DAYS[0] + 1),
    }
    // Every page first: a store failing halfway leaves the notices as they were, for the next check.
    const listed = await everyToken(options.store, filter, now)
    if (listed.isErr()) throw listed.error
    const tokens = listed.value
    const found = tokens.flatMap((token) => due(token, today).map((notice) => ({ token, ...notice })))
    lastChecked = lastChecked === null ? today : later(lastChecked, today)
    // In the order daily checks would have given them: by the day each fell due, then by token id.
    found.sort((a, b) => calendarDaysBetween(b.on, a.on) || a.token.id - b.token.id)
    const events = found.map(
      ({ token, days }): AuthorityEvent => ({
        type: 'token_expiring',
        at: now,
        token: toTokenInfo(token),
        days,
      }),
    )
    for (const event of events) options.onEvent(event)
    return events
  }

  return {
    check: () => {
      const next = running.then(once, once)
      running = next.catch(() => {})
      return ResultAsync.fromPromise(next, (error) => error as StoreFailure)
    },
    forget: () => {
      notified = new Map()
      horizon = null
      lastChecked = null
    },
  }
}
