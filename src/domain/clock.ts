/**
 * The source of "now". Every rule that depends on time takes its instant from a clock handed in by the
 * caller, so tests, the fake authority and replays control time completely.
 *
 * @example
 * ```ts
 * import type { Clock } from 'patkit'
 * const frozen: Clock = { now: () => new Date('2030-01-01T00:00:00.000Z') }
 * ```
 */
export interface Clock {
  now(): Date
}

/**
 * The real clock. This file is the single place in patkit that reads the wall clock (a test enforces
 * it); everything else receives a {@link Clock}.
 *
 * @example
 * ```ts
 * import { createAuthority } from 'patkit'
 * import { systemClock } from 'patkit/authority'
 * createAuthority({ store, pepper, clock: systemClock })
 * ```
 */
export const systemClock: Clock = Object.freeze({ now: () => new Date() })

/**
 * A clock's instant in epoch milliseconds: the real clock's without building a `Date` (a hot path,
 * such as the verification cache's hit, reads it on every call), any other clock's from its `now()`.
 */
export function epochMs(clock: Clock): number {
  return clock === systemClock ? Date.now() : clock.now().getTime()
}

/**
 * A clock that only moves when told to; for tests and the fake authority.
 *
 * @example
 * ```ts
 * import { manualClock } from 'patkit/fake'
 * const clock = manualClock(new Date('2030-01-01T00:00:00.000Z'))
 * clock.advance(24 * 60 * 60 * 1000)
 * clock.now().toISOString() // '2030-01-02T00:00:00.000Z'
 * ```
 */
export interface ManualClock extends Clock {
  /** Moves the clock forward (or back, with a negative value) by `ms` milliseconds. */
  advance(ms: number): void
  /** Sets the clock to an instant. */
  set(at: Date): void
}

/**
 * Creates a {@link ManualClock} starting at `start`.
 *
 * @example
 * ```ts
 * import { manualClock } from 'patkit/fake'
 * const clock = manualClock(new Date('2030-01-01T00:00:00.000Z'))
 * ```
 */
export function manualClock(start: Date): ManualClock {
  let current = start.getTime()
  return {
    now: () => new Date(current),
    advance: (ms) => {
      current += ms
    },
    set: (at) => {
      current = at.getTime()
    },
  }
}

/**
 * Milliseconds from a monotonic source, for measuring durations (never an instant): the real one is
 * `performance.now()`, read here beside the wall clock so the purity rule keeps one home for both.
 *
 * @example
 * ```ts
 * import { systemMonotonic } from 'patkit/webhooks'
 * const start = systemMonotonic()
 * const elapsed = systemMonotonic() - start
 * ```
 */
export const systemMonotonic: () => number = () => performance.now()
