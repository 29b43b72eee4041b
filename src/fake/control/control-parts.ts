import type { TokenStore } from '../../store/token-store.js'
import type { ControllableClock } from '../controllable-clock.js'
import type { FakeState } from '../fake-state.js'
import type { Faults } from '../faults.js'
import type { HookDeliveries } from '../hooks/hook-deliveries.js'
import type { Journal } from '../journal.js'

/**
 * Where the control API lives: a prefix GitLab never uses.
 *
 * @example
 * ```ts
 * import { CONTROL_PREFIX } from 'patkit/fake'
 * declare const url: URL
 *
 * `${url}${CONTROL_PREFIX}/clock` // 'http://127.0.0.1:3000/__patkit/clock'
 * ```
 */
export const CONTROL_PREFIX = '/__patkit'

/**
 * What the control API drives.
 *
 * @example
 * ```ts
 * import type { ControllableClock, ControlParts, Faults, Journal } from 'patkit/fake'
 * import type { TokenStore } from 'patkit/store'
 * import type { FakeState } from '../fake-state.js'
 * declare const clock: ControllableClock
 * declare const state: FakeState
 * declare const store: TokenStore
 * declare const journal: Journal
 * declare const faults: Faults
 * declare const newSecret: (userId: number) => string
 *
 * const parts: ControlParts = { clock, state, store, journal, faults, mint: (userId) => newSecret(userId) }
 * ```
 */
export interface ControlParts {
  readonly clock: ControllableClock
  readonly state: FakeState
  /** The data the dashboard's read routes list (`GET /__patkit/tokens`, `/users`, ...): the fake's store. */
  readonly store: TokenStore
  readonly journal: Journal
  readonly faults: Faults
  /** A fresh secret for a token of a user (the authority's format), for tokens added without one. */
  readonly mint: (userId: number) => string
  /** When set, every control request must carry it in `X-Patkit-Control-Token` (compared in constant time). */
  readonly controlToken?: string | undefined
  /**
   * Host names (or IP addresses) the control API answers for beside `localhost`, `127.0.0.0/8` and
   * `[::1]`: the `Host` of every request must be one of them (a defence against DNS rebinding). `*`
   * allows any host; give a `controlToken` then.
   */
  readonly allowedHosts?: readonly string[] | undefined
  /**
   * The largest body, in bytes, of `PUT /__patkit/state` and `POST /__patkit/users` (a whole data set
   * or a batch of users); default 16 MiB. Every other route reads at most 64 KiB. A larger body is
   * refused with 413 as soon as it passes the limit (or at once, when its Content-Length says so).
   */
  readonly controlBodyLimit?: number | undefined
  /** Aborted when the fake closes: every open `GET /__patkit/journal/stream` ends then. */
  readonly closing?: AbortSignal | undefined
  /** The webhook deliveries (`GET /__patkit/deliveries`); none listed without it. */
  readonly deliveries?: HookDeliveries | undefined
  /** Called after the clock moved (expiry notices are emitted then). */
  readonly onClockChange?: (() => Promise<void>) | undefined
}
