import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { connect, type Socket } from 'node:net'
import type { Kysely } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { manualClock } from '../../src/domain/clock.js'
import { seededRandom } from '../../src/domain/random.js'
import { createHandler } from '../../src/http/index.js'
import { createAuthority } from '../../src/index.js'
import { memoryStore } from '../../src/memory/index.js'
import { createNodeListener } from '../../src/node/index.js'
import type { TokenStore } from '../../src/store/index.js'
import { migratedStore } from '../sql/support/conformance.js'
import {
  type DatabaseTarget,
  emptyTables,
  mariadb,
  pglite,
  postgres,
  sqliteMemory,
  uniquePrefix,
} from '../sql/support/databases.js'
import { describeDatabase } from '../sql/support/describe-database.js'
import { ALICE, T0 } from '../support/authority-fixtures.js'

// Issue 9, item 6: a rotation that committed while its client's connection died leaves the client
// without the successor's secret, and presenting the old token again is reuse (the family is revoked).
// With an Idempotency-Key the retry gets the same successor. Here the connection really dies: the
// store, a real one, is wrapped so that the moment the rotation has committed, the client's socket is
// destroyed, before any byte of the answer is written.

const OLD = 'glpat-dropped-connection-0001'
const KEY = 'retry-me-4c1f8f0e'

/** A real store whose keyed rotation runs `afterCommit` once it has committed. */
function withCommitHook(store: TokenStore, afterCommit: () => void): TokenStore {
  const rotateWithReceipt = store.rotateWithReceipt
  return {
    ...store,
    rotateWithReceipt: (oldId, successor, receipt) =>
      rotateWithReceipt(oldId, successor, receipt).map((token) => {
        afterCommit()
        return token
      }),
  }
}

async function authorityOver(store: TokenStore) {
  const authority = createAuthority({
    store,
    pepper: 'test-pepper',
    clock: manualClock(T0),
    random: seededRandom(3),
  })
  ;(await authority.users.put(ALICE))._unsafeUnwrap()
  const old = (
    await authority.issueToken({ userId: ALICE.id, name: 'ci', scopes: ['api'], secret: OLD })
  )._unsafeUnwrap()
  return { authority, old: old.token }
}

const rotateRequest = (key: string | null) =>
  new Request('http://gitlab.test/api/v4/personal_access_tokens/self/rotate', {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': OLD, ...(key === null ? {} : { 'Idempotency-Key': key }) },
  })

interface Rotated {
  readonly id: number
  readonly token: string
}

/** The scenario on one store: `fresh` gives an empty store, `hooked` wraps it. */
function describeDroppedConnection(fresh: () => Promise<TokenStore>): void {
  const servers: Server[] = []
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('the answer is dropped after the commit: the same key gets the same successor, which works', async () => {
    const store = await fresh()
    const { authority, old } = await authorityOver(store)
    const handler = createHandler(authority)
    // The first answer is never read: the client is gone.
    const lost = await handler(rotateRequest(KEY))
    expect(lost.status).toBe(200)
    const stored = (await store.findById(old.id))._unsafeUnwrap()
    expect(stored?.revoked).toBe(true)
    const replay = await handler(rotateRequest(KEY))
    expect(replay.status).toBe(200)
    const body = (await replay.json()) as Rotated
    expect(body).toEqual(await lost.json())
    const self = await handler(
      new Request('http://gitlab.test/api/v4/personal_access_tokens/self', {
        headers: { 'PRIVATE-TOKEN': body.token },
      }),
    )
    expect(self.status).toBe(200)
    expect(((await self.json()) as Rotated).id).toBe(body.id)
  })

  it('without a key the same retry is reuse: 401 and the successor revoked (what the key fixes)', async () => {
    const store = await fresh()
    const { authority } = await authorityOver(store)
    const handler = createHandler(authority)
    const lost = (await (await handler(rotateRequest(null))).json()) as Rotated
    const retry = await handler(rotateRequest(null))
    expect(retry.status).toBe(401)
    expect((await store.findById(lost.id))._unsafeUnwrap()?.revoked).toBe(true)
  })

  it('16 concurrent retries with the key: exactly one gets the successor, the rest are reuse', async () => {
    const store = await fresh()
    const { authority } = await authorityOver(store)
    const handler = createHandler(authority)
    const lost = (await (await handler(rotateRequest(KEY))).json()) as Rotated
    const answers = await Promise.all(Array.from({ length: 16 }, () => handler(rotateRequest(KEY))))
    const statuses = answers.map((a) => a.status).sort()
    expect(statuses).toEqual([200, ...Array.from({ length: 15 }, () => 401)])
    const winner = answers.find((a) => a.status === 200)
    if (winner === undefined) throw new Error('no retry got the successor')
    expect(((await winner.json()) as Rotated).token).toBe(lost.token)
    // The losers presented a revoked token without a receipt left: reuse detection revoked the family.
    expect((await store.findById(lost.id))._unsafeUnwrap()?.revoked).toBe(true)
  })

  it('over a socket that dies once the rotation committed: the retry with the key gets the successor', async () => {
    let client: Socket | undefined
    const store = withCommitHook(await fresh(), () => client?.destroy())
    const { authority, old } = await authorityOver(store)
    const server = createServer(createNodeListener(authority))
    servers.push(server)
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    const { port } = server.address() as AddressInfo
    const socket = connect(port, '127.0.0.1')
    client = socket
    const received: Buffer[] = []
    socket.on('data', (chunk: Buffer) => received.push(chunk))
    socket.on('error', () => {})
    await once(socket, 'connect')
    socket.write(
      `POST /api/v4/personal_access_tokens/self/rotate HTTP/1.1\r\nHost: 127.0.0.1\r\nPRIVATE-TOKEN: ${OLD}\r\nIdempotency-Key: ${KEY}\r\nContent-Length: 0\r\n\r\n`,
    )
    await once(socket, 'close')
    // Nothing of the answer reached the client, yet the rotation is stored.
    expect(Buffer.concat(received).length).toBe(0)
    expect((await store.findById(old.id))._unsafeUnwrap()?.revoked).toBe(true)
    const { items } = (
      await store.list({
        filter: { userId: ALICE.id, state: 'active' },
        sort: 'id_asc',
        page: { page: 1, perPage: 20 },
        now: T0,
      })
    )._unsafeUnwrap()
    const successor = items.find((t) => t.previousId === old.id)
    expect(successor).toBeDefined()

    const retry = await fetch(`http://127.0.0.1:${port}/api/v4/personal_access_tokens/self/rotate`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': OLD, 'Idempotency-Key': KEY },
    })
    expect(retry.status).toBe(200)
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    const body = (await retry.json()) as Rotated
    expect(body.id).toBe(successor?.id)
    const self = await fetch(`http://127.0.0.1:${port}/api/v4/personal_access_tokens/self`, {
      headers: { 'PRIVATE-TOKEN': body.token },
    })
    expect(self.status).toBe(200)
  })
}

describe('a dropped rotation answer, memory store', () => {
  describeDroppedConnection(async () => memoryStore())
})

function describeOn(target: DatabaseTarget, tag: string): Promise<void> {
  const prefix = uniquePrefix(`http_drop_${tag}`)
  return describeDatabase(target, prefix, (db: Kysely<unknown>) => {
    describe('a dropped rotation answer', () => {
      describeDroppedConnection(async () => {
        const store = await migratedStore(db, prefix)
        await emptyTables(db, prefix)
        return store
      })
    })
  })
}

await describeOn(sqliteMemory, 'sqlite')
await describeOn(pglite, 'pglite')
await describeOn(postgres, 'pg')
await describeOn(mariadb, 'my')
