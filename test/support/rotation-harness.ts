import { type ManualClock, manualClock } from '../../src/domain/clock.js'
import { seededRandom } from '../../src/domain/random.js'
import { createHandler, type Handler } from '../../src/http/index.js'
import { type AuthorityConfig, createAuthority } from '../../src/index.js'
import type { TokenStore } from '../../src/store/index.js'
import { ADMIN, ALICE, T0 } from './authority-fixtures.js'

// What the rotation property tests (Idempotency-Key, grace window) drive: GitLab's HTTP binding over
// a store seeded with three known secrets, a clock they move, and the answers as plain values.

/** The personal access token routes, as the property tests address them. */
export const BASE = 'http://gitlab.test/api/v4/personal_access_tokens'

/** The handler, the clock the tests move, and the store they inspect. */
export interface RotationWorld {
  readonly handler: Handler
  readonly clock: ManualClock
  readonly store: TokenStore
}

/**
 * An authority over `store` at T0 with ADMIN and ALICE, and one `api` token per secret: the first two
 * ALICE's, the third ADMIN's. `config` adds options (a window, a rotation grace).
 */
export async function rotationWorld(
  store: TokenStore,
  secrets: readonly [string, string, string],
  config: Omit<AuthorityConfig, 'store' | 'clock' | 'random'>,
  seed: number,
): Promise<RotationWorld> {
  const clock = manualClock(T0)
  const authority = createAuthority({ ...config, store, clock, random: seededRandom(seed) })
  for (const user of [ADMIN, ALICE]) (await authority.users.put(user))._unsafeUnwrap()
  const owners = [ALICE.id, ALICE.id, ADMIN.id]
  for (const [i, secret] of secrets.entries()) {
    ;(
      await authority.issueToken({ userId: owners[i] ?? ALICE.id, name: `t${i}`, scopes: ['api'], secret })
    )._unsafeUnwrap()
  }
  return { handler: createHandler(authority), clock, store }
}

/** An answer as plain values, to compare two runs or read a rotation's secret. */
export interface Answer {
  readonly status: number
  readonly headers: readonly (readonly [string, string])[]
  readonly body: string
}

/** Sends a request through the handler and reads the whole answer. */
export async function send(handler: Handler, request: Request): Promise<Answer> {
  const response = await handler(request)
  return { status: response.status, headers: [...response.headers.entries()], body: await response.text() }
}

/** The id and secret a successful rotation answered, if any. */
export function rotatedSecret(answer: Answer): { id: number; token: string } | null {
  if (answer.status !== 200) return null
  const body = JSON.parse(answer.body) as { id?: unknown; token?: unknown }
  return typeof body.token === 'string' && typeof body.id === 'number'
    ? { id: body.id, token: body.token }
    : null
}
