import { beforeAll, describe, expect, it } from 'vitest'
import { memoryStore } from '../../src/memory/index.js'
import type { TokenStore } from '../../src/store/token-store.js'
import { migratedStore } from '../sql/support/conformance.js'
import {
  type DatabaseTarget,
  mariadb,
  postgres,
  sqliteMemory,
  uniquePrefix,
} from '../sql/support/databases.js'
import { describeDatabase } from '../sql/support/describe-database.js'
import { control, fakeOver } from './support/data-fake.js'

// Issue 28: POST /__patkit/groups with a group whose full path is over 512 characters (the SQL
// schema's full_path varchar(512), migration 0007) stored the groups before it on SQL stores and
// answered 400 "Could not be stored"; memory accepted the whole request. One rule for every store,
// checked before any write: the whole request is refused, and nothing of it is stored.

const segment = (k: number) => `level-${k}-${'x'.repeat(60)}`

/** Nine nested groups: the eighth’s full path is 551 characters long, the ones above are not. */
function nested(): Record<string, unknown>[] {
  return Array.from({ length: 9 }, (_, k) => ({
    id: 100 + k,
    path: segment(k),
    name: `Level ${k}`,
    ...(k === 0 ? {} : { parent_id: 100 + k - 1 }),
  }))
}

async function refusesWhole(store: TokenStore): Promise<void> {
  const fake = await fakeOver({ store, freshStore: undefined })
  const answer = await control(fake, 'POST', '/groups', nested())
  expect(answer.status).toBe(400)
  expect(answer.body).toMatchObject({
    error: 'invalid group',
    problems: [
      { path: 'groups[7].path', message: expect.stringContaining('characters: at most 512') },
      { path: 'groups[8].path', message: expect.stringContaining('characters: at most 512') },
    ],
  })
  expect((await store.resources?.listGroups())?._unsafeUnwrap()).toEqual([])
  // A project under the deepest group that fits, with a path that would take it over, too.
  expect((await control(fake, 'POST', '/groups', nested().slice(0, 7))).status).toBe(201)
  const project = { id: 1, path: 'y'.repeat(100), name: 'Deep', group_id: 106 }
  const refused = await control(fake, 'POST', '/projects', project)
  expect(refused).toMatchObject({ status: 400, body: { problems: [{ path: 'projects[0].path' }] } })
  expect((await store.resources?.listProjects())?._unsafeUnwrap()).toEqual([])
  // Renaming a group so that a stored subgroup's full path would pass the limit is refused at the group.
  const renamed = { id: 100, path: 'z'.repeat(120), name: 'Level 0' }
  const grown = await control(fake, 'POST', '/groups', renamed)
  expect(grown).toMatchObject({ status: 400, body: { problems: [{ path: 'groups[0].path' }] } })
  expect((await store.resources?.findGroup(100))?._unsafeUnwrap()?.path).toBe(segment(0))
}

describe('POST /__patkit/groups is all or nothing', () => {
  it('on the memory store', async () => {
    await refusesWhole(memoryStore())
  })
})

function register(target: DatabaseTarget, tag: string): Promise<void> {
  const prefix = uniquePrefix(tag)
  return describeDatabase(target, prefix, (db) => {
    let store: TokenStore
    beforeAll(async () => {
      store = await migratedStore(db, prefix)
    })
    it('POST /__patkit/groups is all or nothing', async () => {
      await refusesWhole(store)
    })
  })
}

await register(sqliteMemory, 'gasqlite')
await register(postgres, 'gapg')
await register(mariadb, 'gamy')
