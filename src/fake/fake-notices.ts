import type { AuthorityEvent } from '../authority/core/events.js'
import { expiryNotices } from '../authority/core/expiry-notices.js'
import { utcDay } from '../domain/calendar.js'
import type { Clock } from '../domain/clock.js'
import type { TokenStore } from '../store/token-store.js'

/**
 * When a fake authority runs GitLab's daily expiry notifier: after its data is loaded (start, reset,
 * restore) and whenever its clock is on a day not checked yet (a move, the first request of a day).
 * Each run catches up on every day since the last, so the notices a test sees depend on the data and
 * the days the clock passed, never on which requests came between.
 */
interface FakeNotices {
  /** Runs the notifier if the data was loaded since its last run or the clock is on a new day. */
  due(): Promise<void>
  /** The data was replaced: the notices given are forgotten, and the next `due()` runs. */
  replaced(): void
}

/**
 * Creates the {@link FakeNotices} of a fake authority's store and clock; the events go to `onEvent`.
 */
export function fakeNotices(options: {
  readonly store: TokenStore
  readonly clock: Clock
  readonly onEvent: (event: AuthorityEvent) => void
}): FakeNotices {
  const notices = expiryNotices({ ...options, everyDay: true })
  // null: a run is due whatever the day (nothing ran since the data was loaded).
  let checkedDay: string | null = null
  return {
    due: async () => {
      const day = utcDay(options.clock.now())
      if (day === checkedDay) return
      checkedDay = day
      // A store failure skips this run; the next day's catches up.
      await notices.check()
    },
    replaced: () => {
      notices.forget()
      checkedDay = null
    },
  }
}
