import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import type { AuthorityEvent } from '../../src/authority/core/events.js'
import { expiryNotices } from '../../src/authority/core/expiry-notices.js'
import { addCalendarDays } from '../../src/domain/calendar.js'
import { manualClock } from '../../src/domain/clock.js'
import { createFakeGitLab, type FakeGitLab } from '../../src/fake/fake-gitlab.js'
import { memoryStore } from '../../src/memory/memory-store.js'
import { draftFactory } from '../../src/testing/fixtures.js'

// Issue 20, item 2. GitLab's notifier (app/models/personal_access_token.rb NOTIFICATION_INTERVALS,
// scope_for_notification_interval; app/workers/personal_access_tokens/expiring_worker.rb) gives a token
// the notice of the range its days left fall in (60: 31-60, 30: 8-30, 7: 0-7), each once, none after the
// 7-day one, none for impersonation tokens. The fake ran it lazily (the first request of a day, a clock
// move), so a token already inside a range at the start or a reset got its notice only after some
// request, and a clock jump from 59 to 5 days out skipped the 30-day notice the daily runs in between
// would have given. It now runs at the start and after each reset or restore, and each run catches up
// on every day the clock passed: the notices depend on the data and the clock, not on the call order.

const DAY = 86_400_000
const T0 = new Date('2026-01-01T00:00:00.000Z')
const day = (offset: number) => addCalendarDays('2026-01-01', offset)

const running: FakeGitLab[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((gitlab) => gitlab.close()))
})

const token = (id: number, expiresIn: number, extra: Record<string, unknown> = {}) => ({
  id,
  user_id: 2,
  name: `t${id}`,
  scopes: ['api' as const],
  token: `glpat-notice-rule-token-${id}`,
  expires_at: day(expiresIn),
  ...extra,
})

async function start(tokens: ReturnType<typeof token>[]): Promise<FakeGitLab> {
  const gitlab = await createFakeGitLab({ tokens })
  running.push(gitlab)
  return gitlab
}

async function call(gitlab: FakeGitLab, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${gitlab.url}/__patkit${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  return text === '' ? null : (JSON.parse(text) as unknown)
}

async function notices(gitlab: FakeGitLab): Promise<[number, number][]> {
  const { entries } = (await call(gitlab, 'GET', '/journal?type=token_expiring')) as {
    entries: { event: { days: number; token: { id: number } } }[]
  }
  return entries.map((e) => [e.event.token.id, e.event.days])
}

// 5, 20, 45 and 100 days left at the start; a revoked and an impersonation token 5 days out.
const TOKENS = [
  token(3, 5),
  token(4, 20),
  token(5, 45),
  token(6, 100),
  token(7, 5, { revoked: true }),
  token(8, 5, { impersonation: true }),
]
const AT_START: [number, number][] = [
  [3, 7],
  [4, 30],
  [5, 60],
]

describe('token_expiring in the fake: GitLab rule, whatever the call order', () => {
  it('the start data is checked at the start: one notice per token, of its own range only', async () => {
    const gitlab = await start(TOKENS)
    expect(await notices(gitlab)).toEqual(AT_START)
    expect(gitlab.journal.query({ type: 'token_expiring' }).count).toBe(3)
  })

  it('a reset gives the start notices again, before any request, in process and over HTTP', async () => {
    const gitlab = await start(TOKENS)
    await call(gitlab, 'POST', '/clock/advance', { days: 30 })
    await call(gitlab, 'POST', '/reset')
    expect(await notices(gitlab)).toEqual(AT_START)
    gitlab.clock.advance(30 * DAY)
    await gitlab.reset()
    expect(gitlab.journal.query({ type: 'token_expiring' }).entries.map((e) => e.at)).toEqual([
      T0.toISOString(),
      T0.toISOString(),
      T0.toISOString(),
    ])
    // A GitLab request first changes nothing.
    await fetch(`${gitlab.apiUrl}/version`)
    expect(await notices(gitlab)).toEqual(AT_START)
  })

  it("the docs' pytest fixture (reset, then set the clock to the start) sees the start notices after any test", async () => {
    const gitlab = await start(TOKENS)
    await call(gitlab, 'POST', '/clock/advance', { days: 12 }) // a previous test moved the clock
    await call(gitlab, 'POST', '/reset')
    await call(gitlab, 'POST', '/clock/set', { at: T0.toISOString() })
    await call(gitlab, 'POST', '/clock/freeze')
    expect(await notices(gitlab)).toEqual(AT_START)
  })

  it('a jump from 59 days out to 5 days out gives the 30-day and the 7-day notice, as daily runs would', async () => {
    const gitlab = await start([token(3, 59)])
    expect(await notices(gitlab)).toEqual([[3, 60]])
    await call(gitlab, 'POST', '/clock/advance', { days: 54 })
    expect(await notices(gitlab)).toEqual([
      [3, 60],
      [3, 30],
      [3, 7],
    ])
  })

  it('a restore is checked at once: a token 5 days out gets its 7-day notice', async () => {
    const gitlab = await start([])
    await call(gitlab, 'PUT', '/state', { users: [{ id: 2, username: 'alice' }], tokens: [token(9, 5)] })
    expect(await notices(gitlab)).toEqual([[9, 7]])
  })
})

// Each run replays the notices of every single day of its clock: seconds of CPU on a busy machine.
describe('expiryNotices with everyDay: any split of the clock gives the notices of one run per day', {
  timeout: 30_000,
}, () => {
  async function run(expiries: readonly number[], moves: readonly number[]): Promise<[number, number][]> {
    const store = memoryStore()
    await store.putUser({ id: 2, username: 'alice', admin: false, blocked: false })
    const draft = draftFactory('every-day')
    for (const expiresIn of expiries) {
      ;(await store.insert(draft({ userId: 2, createdAt: T0, expiresAt: day(expiresIn) })))._unsafeUnwrap()
    }
    const clock = manualClock(T0)
    const seen: AuthorityEvent[] = []
    const notices = expiryNotices({ store, clock, onEvent: (e) => seen.push(e), everyDay: true })
    ;(await notices.check())._unsafeUnwrap()
    for (const days of moves) {
      clock.advance(days * DAY)
      ;(await notices.check())._unsafeUnwrap()
    }
    return seen.map((e) => (e.type === 'token_expiring' ? [e.token.id, e.days] : [0, 0]))
  }

  it('the same events, in the same order, as a check on every single day', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 130 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 6 }),
        async (expiries, moves) => {
          const total = moves.reduce((a, b) => a + b, 0)
          const daily = await run(
            expiries,
            Array.from({ length: total }, () => 1),
          )
          expect(await run(expiries, moves)).toEqual(daily)
          expect(await run(expiries, [total])).toEqual(daily)
          // Each notice at most once per token, and none wider after a narrower one.
          for (const id of new Set(daily.map(([tokenId]) => tokenId))) {
            const given = daily.filter(([tokenId]) => tokenId === id).map(([, days]) => days)
            expect(given).toEqual([...given].sort((a, b) => b - a))
            expect(new Set(given).size).toBe(given.length)
          }
        },
      ),
      { numRuns: 60 },
    )
  })

  it('without everyDay (an embedder on real time), a check gives its own day only, as GitLab after a pause', async () => {
    const store = memoryStore()
    await store.putUser({ id: 2, username: 'alice', admin: false, blocked: false })
    ;(
      await store.insert(draftFactory('one-day')({ userId: 2, createdAt: T0, expiresAt: day(59) }))
    )._unsafeUnwrap()
    const clock = manualClock(T0)
    const notices = expiryNotices({ store, clock, onEvent: () => {} })
    const days = async () =>
      (await notices.check())._unsafeUnwrap().map((e) => (e.type === 'token_expiring' ? e.days : 0))
    expect(await days()).toEqual([60])
    clock.advance(54 * DAY)
    expect(await days()).toEqual([7])
  })

  it('gives the 7-day notice on the expiry day itself to a token no earlier run notified (0 days left is in range)', async () => {
    // GitLab's seven_days range is 0..7 (`scope_for_notification_interval`: expires_at BETWEEN
    // Date.current AND Date.current + 7), so a token created on its expiry day, or found first then,
    // is notified that day; the next day it is past its range.
    const store = memoryStore()
    await store.putUser({ id: 2, username: 'alice', admin: false, blocked: false })
    for (const [name, expiresIn] of [
      ['today', 0],
      ['yesterday', -1],
    ] as const) {
      ;(
        await store.insert(draftFactory(name)({ userId: 2, name, createdAt: T0, expiresAt: day(expiresIn) }))
      )._unsafeUnwrap()
    }
    for (const everyDay of [false, true]) {
      const clock = manualClock(T0)
      const notices = expiryNotices({ store, clock, onEvent: () => {}, everyDay })
      const given = async () =>
        (await notices.check())
          ._unsafeUnwrap()
          .map((e) => (e.type === 'token_expiring' ? [e.token.name, e.days] : []))
      expect(await given()).toEqual([['today', 7]])
      clock.advance(DAY)
      expect(await given()).toEqual([])
    }
  })

  it('gives no notice to an impersonation token (GitLab scopes them out)', async () => {
    const store = memoryStore()
    await store.putUser({ id: 2, username: 'alice', admin: false, blocked: false })
    await store.insert(
      draftFactory('imp')({ userId: 2, createdAt: T0, expiresAt: day(5), impersonation: true }),
    )
    const notices = expiryNotices({ store, clock: manualClock(T0), onEvent: () => {} })
    expect((await notices.check())._unsafeUnwrap()).toEqual([])
  })
})
