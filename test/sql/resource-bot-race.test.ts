import { beforeAll, describe, expect, it } from 'vitest'
import { manualClock } from '../../src/domain/clock.js'
import { seededRandom } from '../../src/domain/random.js'
import { type Authority, createAuthority } from '../../src/index.js'
import { memoryStore } from '../../src/memory/index.js'
import type { ResourceStore } from '../../src/store/resource-store.js'
import type { TokenStore } from '../../src/store/token-store.js'
import { migratedStore } from './support/conformance.js'
import { type DatabaseTarget, mariadb, postgres, sqliteMemory, uniquePrefix } from './support/databases.js'
import { describeDatabase } from './support/describe-database.js'

// Issue 28: before 17.9 a revoked resource token's bot leaves the resource. The revocation rewrote
// the member list it had read at its start, so a bot created meanwhile (201) lost its membership: its
// token answered 404 and was never listed. A membership change is one row (removeMember), so creates
// racing revocations all keep their bots.
const T0 = new Date('2026-06-15T12:00:00.000Z')
const OWNER = { id: 1, username: 'owner', admin: false, blocked: false } as const
const PROJECT = { type: 'project', id: 7 } as const
const REVOKED = 12
const CREATED = 36

async function world(store: TokenStore): Promise<{ authority: Authority; resources: ResourceStore }> {
  const resources = store.resources
  if (resources === undefined) throw new Error('the store holds no resources')
  const authority = createAuthority({
    store,
    pepper: 'race-pepper',
    clock: manualClock(T0),
    random: seededRandom(11),
    release: '17.8',
  })
  ;(await authority.users.put(OWNER))._unsafeUnwrap()
  const project = {
    ...PROJECT,
    path: 'api',
    fullPath: 'api',
    name: 'API',
    groupId: null,
    visibility: 'private' as const,
    members: [{ userId: OWNER.id, accessLevel: 50 as const }],
  }
  ;(await resources.putProject(project))._unsafeUnwrap()
  return { authority, resources }
}

async function raceCreatesAndRevokes(store: TokenStore): Promise<void> {
  const { authority, resources } = await world(store)
  const { secret } = (
    await authority.issueToken({ userId: OWNER.id, name: 'owner', scopes: ['api'] })
  )._unsafeUnwrap()
  const owner = (await authority.authenticate(secret))._unsafeUnwrap()
  const issue = (k: number) =>
    authority.resources.issue({ resource: PROJECT, name: `bot-${k}`, scopes: ['api'] })
  const doomed = []
  for (let k = 0; k < REVOKED; k++) doomed.push((await issue(k))._unsafeUnwrap())
  const [created, revoked] = await Promise.all([
    Promise.all(Array.from({ length: CREATED }, (_, k) => issue(REVOKED + k))),
    Promise.all(doomed.map((d) => authority.resources.revoke(owner, PROJECT, d.token.id))),
  ])
  for (const outcome of revoked) expect(outcome.isOk()).toBe(true)
  const members = (await resources.findProject(PROJECT.id))._unsafeUnwrap()?.members ?? []
  const memberIds = new Set(members.map((m) => m.userId))
  const kept = created.map((c) => c._unsafeUnwrap())
  expect(kept.filter((c) => !memberIds.has(c.token.userId as number))).toEqual([])
  expect(doomed.filter((d) => memberIds.has(d.token.userId as number))).toEqual([])
  // Every created token is listed, and answered by id.
  const listed = (
    await authority.resources.list(owner, PROJECT, { page: { page: 1, perPage: 100 } })
  )._unsafeUnwrap()
  expect(listed.items.map((t) => t.token.id).sort((a, b) => a - b)).toEqual(
    kept.map((c) => c.token.id).sort((a, b) => a - b),
  )
}

describe('creating resource tokens while revoking others (17.8: the bot leaves)', () => {
  it('on the memory store, no created bot loses its membership', async () => {
    await raceCreatesAndRevokes(memoryStore())
  })
})

function describeRace(target: DatabaseTarget, tag: string): Promise<void> {
  const prefix = uniquePrefix(tag)
  return describeDatabase(target, prefix, (db) => {
    let store: TokenStore
    beforeAll(async () => {
      store = await migratedStore(db, prefix)
    })
    it('no created bot loses its membership', async () => {
      await raceCreatesAndRevokes(store)
    })
  })
}

await describeRace(sqliteMemory, 'brsqlite')
await describeRace(postgres, 'brpg')
await describeRace(mariadb, 'brmy')
