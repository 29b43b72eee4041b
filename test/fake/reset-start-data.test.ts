import { afterEach, describe, expect, it } from 'vitest'
import { manualClock } from '../../src/domain/clock.js'
import { seededRandom } from '../../src/domain/random.js'
import { createDigester } from '../../src/domain/secret.js'
import { controllableClock } from '../../src/fake/controllable-clock.js'
import { INSECURE_DEVELOPMENT_PEPPER } from '../../src/fake/demo-defaults.js'
import { fakeAuthority } from '../../src/fake/fake-authority.js'
import { createFakeGitLab, type FakeGitLab } from '../../src/fake/fake-gitlab.js'
import { validateSeed } from '../../src/fake/seed/seed-schema.js'
import { memoryStore } from '../../src/memory/index.js'
import { control, snapshotOf } from './support/data-fake.js'

// Issue 20, item 1: a reset loaded the start seed again, so a seed token without `created_at` or
// `expires_at` took them from the clock at reset time (400 days on, its created_at was after the
// clock once the test set it back), and one without `id` took the next free id of the new store.
// A reset now writes the start data as the start wrote it, and sets the clock back to its start.

const DAY = 86_400_000
const START = '2026-01-01T00:00:00.000Z'
const SECRET = 'glpat-reset-start-secret-01'
const KNOWN_ONLY_BY_DIGEST = 'glpat-reset-digest-secret-1'

const running: FakeGitLab[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((gitlab) => gitlab.close()))
})

async function start(): Promise<FakeGitLab> {
  const gitlab = await createFakeGitLab({
    tokens: [
      // Neither id nor dates: the store and the clock give them.
      { user_id: 2, name: 'ci', scopes: ['api'], token: SECRET },
      {
        id: 9,
        user_id: 1,
        name: 'digest',
        scopes: ['api'],
        token_digest: createDigester(INSECURE_DEVELOPMENT_PEPPER)(KNOWN_ONLY_BY_DIGEST),
      },
    ],
  })
  running.push(gitlab)
  return gitlab
}

describe('a reset is the start data again, whatever the clock did', () => {
  it('in process: 400 days on, reset() restores created_at, expires_at and ids, and the start clock', async () => {
    const gitlab = await start()
    const before = await gitlab.snapshot()
    expect(before.tokens.map((t) => [t.id, t.created_at, t.expires_at])).toEqual([
      [1, START, '2027-01-01'],
      [9, START, null],
    ])
    gitlab.clock.advance(400 * DAY)
    await gitlab.reset()
    expect(await gitlab.snapshot()).toEqual(before)
    expect(gitlab.clock.now().toISOString()).toBe(START)
  })

  it('over the control API: advance 400 days, reset, the same state and the start clock', async () => {
    const gitlab = await start()
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${gitlab.url}/__patkit${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      return (await response.json()) as unknown
    }
    const before = await call('GET', '/state')
    await call('POST', '/clock/advance', { days: 400 })
    expect(await call('POST', '/reset')).toEqual({ users: 2, tokens: 2, groups: 0, projects: 0 })
    expect(await call('GET', '/state')).toEqual(before)
    expect(await call('GET', '/clock')).toEqual({ now: START, frozen: true })
    const self = await fetch(`${gitlab.apiUrl}/personal_access_tokens/self`, {
      headers: { 'PRIVATE-TOKEN': SECRET },
    })
    expect(await self.json()).toMatchObject({
      id: 1,
      created_at: START,
      expires_at: '2027-01-01',
      active: true,
    })
  })

  it('a seed token without id keeps the id the start gave it, also when the start store held tokens', async () => {
    const store = memoryStore()
    await store.putUser({ id: 2, username: 'alice', admin: false, blocked: false })
    const digest = createDigester('reset-pepper')
    ;(
      await store.importToken({
        id: 7,
        userId: 2,
        name: 'already there',
        description: null,
        scopes: ['api'],
        createdAt: new Date(START),
        lastUsedAt: null,
        expiresAt: null,
        revoked: false,
        impersonation: false,
        previousId: null,
        familyId: 7,
        digest: digest('glpat-already-stored-0001'),
      })
    )._unsafeUnwrap()
    const seed = validateSeed({
      users: [{ id: 2, username: 'alice' }],
      tokens: [{ user_id: 2, name: 'seeded', scopes: ['api'], token: SECRET }],
    })
    if (!seed.success) throw new Error('the seed is valid')
    const made = await fakeAuthority({
      store,
      freshStore: () => memoryStore(),
      pepper: 'reset-pepper',
      clock: controllableClock(manualClock(new Date(START)), { frozen: true }),
      random: () => seededRandom(3),
      seed: seed.seed,
    })
    const fake = made._unsafeUnwrap()
    const seeded = (await snapshotOf(fake)).tokens.find((t) => t.name === 'seeded')
    expect(seeded).toMatchObject({ id: 8, created_at: START })
    expect((await control(fake, 'POST', '/reset')).status).toBe(200)
    expect((await snapshotOf(fake)).tokens).toEqual([seeded])
  })
})

describe('controllableClock.reset', () => {
  it('goes back to the start instant, running or frozen as it started', () => {
    const base = manualClock(new Date('2030-01-01T00:00:00.000Z'))
    const running = controllableClock(base, { at: new Date(START) })
    running.advance(DAY)
    running.freeze()
    base.advance(5 * DAY)
    running.reset()
    expect([running.now().toISOString(), running.frozen]).toEqual([START, false])
    base.advance(DAY)
    expect(running.now().toISOString()).toBe('2026-01-02T00:00:00.000Z')

    const frozen = controllableClock(base, { at: new Date(START), frozen: true })
    frozen.resume()
    frozen.set(new Date('2027-01-01T00:00:00.000Z'))
    frozen.reset()
    expect([frozen.now().toISOString(), frozen.frozen]).toEqual([START, true])
  })

  it('without a start instant, goes back to the base clock, the offset gone', () => {
    const base = manualClock(new Date('2030-01-01T00:00:00.000Z'))
    const clock = controllableClock(base)
    clock.advance(3 * DAY)
    clock.reset()
    expect([clock.now().toISOString(), clock.frozen]).toEqual(['2030-01-01T00:00:00.000Z', false])
  })

  it('a frozen start stands exactly at its instant even when the base clock moves between reads', () => {
    // A base clock that moves 1 ms on every reading, as the real one may between two calls.
    let ms = Date.parse('2030-01-01T00:00:00.000Z')
    const ticking = { now: () => new Date(ms++) }
    const clock = controllableClock(ticking, { at: new Date(START), frozen: true })
    expect(clock.now().toISOString()).toBe(START)
    clock.advance(DAY)
    clock.reset()
    expect(clock.now().toISOString()).toBe(START)
  })
})
