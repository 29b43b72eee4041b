import type { IssueTokenInput } from '../../src/authority/personal/issue-token.js'
import { manualClock } from '../../src/domain/clock.js'
import { seededRandom } from '../../src/domain/random.js'
import {
  type AuthorityConfig,
  type AuthorityEvent,
  createAuthority,
  type Principal,
} from '../../src/index.js'
import { memoryStore } from '../../src/memory/index.js'

export const ADMIN = { id: 1, username: 'root', admin: true, blocked: false } as const
export const ALICE = { id: 2, username: 'alice', admin: false, blocked: false } as const
export const BOB = { id: 3, username: 'bob', admin: false, blocked: false } as const
export const BLOCKED = { id: 4, username: 'mallory', admin: false, blocked: true } as const

/** The instant every authority test starts at, unless it says otherwise. */
export const T0 = new Date('2026-03-10T12:00:00.000Z')

/**
 * A fresh authority over a fresh memory store with four users, a manual clock and a seeded random
 * source. Each test calls it for its own world.
 */
export async function world(options: Partial<Omit<AuthorityConfig, 'store' | 'pepper'>> = {}) {
  const store = memoryStore()
  const clock = manualClock(T0)
  const events: AuthorityEvent[] = []
  const authority = createAuthority({
    store,
    pepper: 'test-pepper',
    clock,
    random: seededRandom(11),
    onEvent: (e) => events.push(e),
    ...options,
  })
  for (const user of [ADMIN, ALICE, BOB, BLOCKED]) (await authority.users.put(user))._unsafeUnwrap()

  /** Issues a token (no authorization) and returns it with its secret. */
  async function issue(userId: number, overrides: Partial<IssueTokenInput> = {}) {
    return (
      await authority.issueToken({ userId, name: 'token', scopes: ['api'], ...overrides })
    )._unsafeUnwrap()
  }

  /** Issues a token for the user and authenticates with it. */
  async function login(
    userId: number,
    overrides: Partial<IssueTokenInput> = {},
  ): Promise<Principal & { secret: string }> {
    const { secret } = await issue(userId, overrides)
    const principal = (await authority.authenticate(secret))._unsafeUnwrap()
    return { ...principal, secret }
  }

  events.length = 0
  return { authority, store, clock, events, issue, login }
}

export const DAY = 86_400_000
