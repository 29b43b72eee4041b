import Database from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { manualClock } from '../../../src/domain/clock.js'
import { seededRandom } from '../../../src/domain/random.js'
import { controllableClock } from '../../../src/fake/controllable-clock.js'
import { type FakeAuthority, fakeAuthority } from '../../../src/fake/fake-authority.js'
import type { StateSnapshot } from '../../../src/fake/fake-state.js'
import type { SeedProblem } from '../../../src/fake/seed/seed-schema.js'
import { type Seed, validateSeed } from '../../../src/fake/seed/seed-schema.js'
import { memoryStore } from '../../../src/memory/index.js'
import { migrate, sqlStore } from '../../../src/sql/index.js'
import type { TokenStore } from '../../../src/store/index.js'

// A fake authority driven as the control plane drives it, for the tests of its data writes: built
// without a socket, its control API and GitLab's API called with Requests.

export const ROOT = 'glpat-data-root-secret-0001'
export const ALICE_OLD = 'glpat-data-alice-rotated-01'
export const ALICE = 'glpat-data-alice-current-01'
export const BOB = 'glpat-data-bob-secret-00001'
export const ALICE_SPARE = 'glpat-data-alice-spare-0001'

/**
 * Three users; alice's token 11 was rotated from 10 (revoked), 14 is a revoked token of hers never
 * rotated, bob has 12.
 */
export const SEED: Seed = {
  users: [
    { id: 1, username: 'root', admin: true },
    { id: 2, username: 'alice' },
    { id: 3, username: 'bob' },
  ],
  tokens: [
    { id: 1, user_id: 1, name: 'root', scopes: ['api'], token: ROOT, expires_at: '2027-01-01' },
    {
      id: 10,
      user_id: 2,
      name: 'ci',
      scopes: ['api'],
      token: ALICE_OLD,
      revoked: true,
      expires_at: '2027-01-01',
    },
    {
      id: 11,
      user_id: 2,
      name: 'ci',
      scopes: ['api'],
      token: ALICE,
      previous_id: 10,
      expires_at: '2027-01-01',
    },
    { id: 12, user_id: 3, name: 'bob', scopes: ['api'], token: BOB, expires_at: '2027-01-01' },
    {
      id: 14,
      user_id: 2,
      name: 'spare',
      scopes: ['api'],
      token: ALICE_SPARE,
      revoked: true,
      expires_at: '2027-01-01',
    },
  ],
}

export interface DataFakeOptions {
  readonly store?: TokenStore
  /** A new store for reset and restore; absent: the data is never replaced (as with a database). */
  readonly freshStore?: (() => TokenStore) | undefined
  readonly seed?: Seed
}

/** The fake's start, or the problems its seed was refused with. */
export async function startFake(
  options: DataFakeOptions = {},
): Promise<{ ok: true; fake: FakeAuthority } | { ok: false; problems: readonly SeedProblem[] }> {
  const seed = validateSeed(options.seed ?? SEED)
  if (!seed.success) return { ok: false, problems: seed.problems }
  const made = await fakeAuthority({
    store: options.store ?? memoryStore(),
    ...('freshStore' in options
      ? options.freshStore === undefined
        ? {}
        : { freshStore: options.freshStore }
      : { freshStore: () => memoryStore() }),
    pepper: 'data-writes-pepper',
    clock: controllableClock(manualClock(new Date('2026-01-01T00:00:00.000Z')), { frozen: true }),
    random: () => seededRandom(19),
    seed: seed.seed,
  })
  return made.isOk() ? { ok: true, fake: made.value } : { ok: false, problems: made.error }
}

/** A fake over the seed that must start. */
export async function fakeOver(options: DataFakeOptions = {}): Promise<FakeAuthority> {
  const started = await startFake(options)
  if (!started.ok) throw new Error(`the fake did not start: ${JSON.stringify(started.problems)}`)
  return started.fake
}

/** One control request, as a test suite sends it: JSON, on a loopback host. */
export async function control(
  fake: FakeAuthority,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const response = await fake.control(
    new Request(`http://127.0.0.1/__patkit${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  )
  const text = await response.text()
  return { status: response.status, body: text === '' ? null : (JSON.parse(text) as unknown) }
}

/** The data as `GET /__patkit/state` answers it. */
export async function snapshotOf(fake: FakeAuthority): Promise<StateSnapshot> {
  const { status, body } = await control(fake, 'GET', '/state')
  if (status !== 200) throw new Error(`GET /state answered ${status}`)
  return body as StateSnapshot
}

/** The status GitLab's API gives a secret on `GET /personal_access_tokens/self`. */
export async function selfStatus(fake: FakeAuthority, secret: string): Promise<number> {
  const response = await fake.handler(
    new Request('http://127.0.0.1/api/v4/personal_access_tokens/self', {
      headers: { 'PRIVATE-TOKEN': secret },
    }),
  )
  await response.body?.cancel()
  return response.status
}

/** Rotates a token through GitLab's API; resolves the successor's id and secret. */
export async function rotate(fake: FakeAuthority, secret: string): Promise<{ id: number; token: string }> {
  const response = await fake.handler(
    new Request('http://127.0.0.1/api/v4/personal_access_tokens/self/rotate', {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': secret },
    }),
  )
  if (response.status !== 200) throw new Error(`rotate answered ${response.status}: ${await response.text()}`)
  return (await response.json()) as { id: number; token: string }
}

/** A migrated SQLite store in memory, and how to close it. */
export async function sqliteStore(): Promise<{ store: TokenStore; close: () => Promise<void> }> {
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) })
  const migrated = await migrate(db, { tablePrefix: 'data_' })
  if (migrated.isErr()) throw migrated.error.cause
  return { store: sqlStore(db, { tablePrefix: 'data_' }), close: () => db.destroy() }
}
