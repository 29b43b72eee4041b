import type { Kysely } from 'kysely'
import { beforeEach, describe, expect, it } from 'vitest'
import { manualClock } from '../../src/domain/clock.js'
import { seededRandom } from '../../src/domain/random.js'
import { createHandler, type Handler } from '../../src/http/index.js'
import { createAuthority } from '../../src/index.js'
import { migratedStore } from '../sql/support/conformance.js'
import {
  type DatabaseTarget,
  emptyTables,
  mariadb,
  postgres,
  sqliteMemory,
  uniquePrefix,
} from '../sql/support/databases.js'
import { describeDatabase } from '../sql/support/describe-database.js'
import { ADMIN, ALICE, T0 } from '../support/authority-fixtures.js'

// Issue 9, item 4: a NUL byte reached PostgreSQL, which refuses it in text ("invalid byte sequence for
// encoding UTF8: 0x00"), and the request failed with a 500. The handler now refuses it as GitLab's
// Rack middleware does, before any store is touched, so every database gives the same 400.

const ROOT = 'glpat-malformed-sql-root-0001'
const OWN = 'glpat-malformed-sql-alice-001'

async function sqlHandler(db: Kysely<unknown>, prefix: string): Promise<Handler> {
  const authority = createAuthority({
    store: await migratedStore(db, prefix),
    pepper: 'test-pepper',
    clock: manualClock(T0),
    random: seededRandom(11),
  })
  for (const user of [ADMIN, ALICE]) (await authority.users.put(user))._unsafeUnwrap()
  ;(
    await authority.issueToken({ userId: ADMIN.id, name: 'root', scopes: ['api'], secret: ROOT })
  )._unsafeUnwrap()
  ;(
    await authority.issueToken({ userId: ALICE.id, name: 'own', scopes: ['api'], secret: OWN })
  )._unsafeUnwrap()
  return createHandler(authority)
}

const json = (secret: string) => ({ 'PRIVATE-TOKEN': secret, 'content-type': 'application/json' })
const form = (secret: string) => ({
  'PRIVATE-TOKEN': secret,
  'content-type': 'application/x-www-form-urlencoded',
})
const URL_BASE = 'http://gitlab.test/api/v4'

/** Each request carries a NUL byte somewhere GitLab's middleware looks. */
const CASES: readonly (readonly [string, () => Request])[] = [
  [
    'search=%00',
    () =>
      new Request(`${URL_BASE}/personal_access_tokens?search=%00`, { headers: { 'PRIVATE-TOKEN': ROOT } }),
  ],
  [
    'user_id=al%00ice',
    () =>
      new Request(`${URL_BASE}/personal_access_tokens?user_id=al%00ice`, {
        headers: { 'PRIVATE-TOKEN': ROOT },
      }),
  ],
  [
    'a NUL in name, create for a user (JSON)',
    () =>
      new Request(`${URL_BASE}/users/${ALICE.id}/personal_access_tokens`, {
        method: 'POST',
        headers: json(ROOT),
        body: JSON.stringify({ name: 'ci\u0000', scopes: ['api'] }),
      }),
  ],
  [
    'a NUL in description, create for oneself (JSON)',
    () =>
      new Request(`${URL_BASE}/user/personal_access_tokens`, {
        method: 'POST',
        headers: json(OWN),
        body: JSON.stringify({ name: 'k', scopes: ['k8s_proxy'], description: 'a\u0000b' }),
      }),
  ],
  [
    'a NUL in name, create for oneself (form)',
    () =>
      new Request(`${URL_BASE}/user/personal_access_tokens`, {
        method: 'POST',
        headers: form(OWN),
        body: 'name=a%00&scopes[]=k8s_proxy',
      }),
  ],
]

function describeOn(target: DatabaseTarget, tag: string): Promise<void> {
  const prefix = uniquePrefix(`http_nul_${tag}`)
  return describeDatabase(target, prefix, (db) => {
    describe('a NUL byte in a request', () => {
      let handler: Handler
      beforeEach(async () => {
        await emptyTables(db, prefix).catch(() => {})
        handler = await sqlHandler(db, prefix)
      })

      it.each(CASES)('%s: 400 "Bad Request" as GitLab, not a 500, and nothing stored', async (_, build) => {
        const response = await handler(build())
        expect(response.status).toBe(400)
        expect(response.headers.get('content-type')).toBe('text/plain')
        expect(await response.text()).toBe('Bad Request')
        const list = await handler(
          new Request(`${URL_BASE}/personal_access_tokens`, { headers: { 'PRIVATE-TOKEN': ROOT } }),
        )
        expect(list.headers.get('x-total')).toBe('2')
      })
    })
  })
}

await describeOn(postgres, 'pg')
await describeOn(mariadb, 'my')
await describeOn(sqliteMemory, 'lite')
