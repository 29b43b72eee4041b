import type { Clock } from '../domain/clock.js'

/**
 * A clock a test moves over HTTP or in process: it runs with its base clock (real time, by default)
 * shifted by an offset, or stands still at an instant. Everything time-dependent in the authority
 * (expiry, `state`, the last-used throttle, default expiries) reads it.
 *
 * @example
 * ```ts
 * import { systemClock } from 'patkit/authority'
 * import { controllableClock } from 'patkit/fake'
 *
 * const clock = controllableClock(systemClock)
 * clock.set(new Date('2030-01-01T00:00:00.000Z'))
 * clock.freeze()
 * clock.advance(86_400_000)
 * clock.now().toISOString() // '2030-01-02T00:00:00.000Z'
 * clock.reset() // back to the base clock's now, running
 * ```
 */
export interface ControllableClock extends Clock {
  /** Moves the clock to an instant; a running clock goes on from there. */
  set(at: Date): void
  /** Moves the clock by `ms` milliseconds (back with a negative value). */
  advance(ms: number): void
  /** Stops the clock at its current instant. */
  freeze(): void
  /** Lets a frozen clock run again from the instant it stands at. */
  resume(): void
  /**
   * Back to where it started: its start instant (without one, the base clock's now, the offset
   * gone), standing still or running as it started. A fake's reset calls it.
   */
  reset(): void
  /** Whether the clock stands still. */
  readonly frozen: boolean
}

/**
 * Where a {@link ControllableClock} starts: its first instant (default the base clock's now) and whether
 * it stands still.
 *
 * @example
 * ```ts
 * import type { ClockStart } from 'patkit/fake'
 *
 * const start: ClockStart = { at: new Date('2026-01-01T00:00:00.000Z'), frozen: true }
 * ```
 */
export interface ClockStart {
  readonly at?: Date
  readonly frozen?: boolean
}

/**
 * Creates a {@link ControllableClock} over `base`.
 *
 * @example
 * ```ts
 * import { controllableClock } from 'patkit/fake'
 * import { systemClock } from 'patkit/authority'
 * const clock = controllableClock(systemClock, { at: new Date('2026-01-01T00:00:00.000Z'), frozen: true })
 * ```
 */
export function controllableClock(base: Clock, start: ClockStart = {}): ControllableClock {
  // Running: now = base + offset. Frozen: now = standing.
  let offset = 0
  let standing: number | null = null
  // One reading of the base clock: two could differ by a millisecond, and a frozen start would not
  // stand exactly at `start.at`.
  const begin = () => {
    const baseNow = base.now().getTime()
    offset = start.at === undefined ? 0 : start.at.getTime() - baseNow
    standing = start.frozen === true ? baseNow + offset : null
  }
  begin()
  const current = () => standing ?? base.now().getTime() + offset
  return {
    now: () => new Date(current()),
    set: (at) => {
      if (standing !== null) standing = at.getTime()
      else offset = at.getTime() - base.now().getTime()
    },
    advance: (ms) => {
      if (standing !== null) standing += ms
      else offset += ms
    },
    freeze: () => {
      standing = current()
    },
    resume: () => {
      if (standing === null) return
      offset = standing - base.now().getTime()
      standing = null
    },
    reset: begin,
    get frozen() {
      return standing !== null
    },
  }
}
