import { okAsync, ResultAsync } from 'neverthrow'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type CachedStore, cachedStore, localInvalidation } from '../../../src/cache/index.js'
import { manualClock } from '../../../src/domain/clock.js'
import { createDigester } from '../../../src/domain/secret.js'
import { loadSeed, seedSchema } from '../../../src/fake/index.js'
import { createHandler, type Handler } from '../../../src/http/index.js'
import {
  type Authority,
  type AuthorityConfig,
  type AuthorityEvent,
  createAuthority,
} from '../../../src/index.js'
import type { TokenStore } from '../../../src/store/index.js'
import { okValue } from '../../../src/testing/conformance/results.js'
import { draftFactory } from '../../../src/testing/index.js'
import { ALICE, T0 } from '../../support/authority-fixtures.js'

// Issue 19, item 4: two instances (each its own cache) on one store. Instance A rotates a token that
// both have cached; B has not heard of it yet (its channel is its own: A's message is still on its
// way, as it is for up to the lease in default mode). Only authentication may be answered from B's
// cached row: a rotation request, a replay and reuse detection decide from the store.

const BASE = 'http://gitlab.test/api/v4/personal_access_tokens'
const PEPPER = 'stale-decisions-pepper'
let serial = 0

export interface StaleDecisionsOptions {
  readonly name: string
  /** The one store both instances wrap; called once per test (the tables may be shared). */
  readonly store: () => TokenStore
}

interface Instance {
  readonly cache: CachedStore
  readonly handler: Handler
  readonly events: AuthorityEvent[]
  readonly authority: Authority
}

/**
 * Two instances on `store`, each with its own cache and channel (B never hears A), one clock. B's
 * cache wraps `storeOfB` when given (the same store, with a hook that schedules a race).
 */
function twoInstances(
  store: TokenStore,
  config: Partial<AuthorityConfig>,
  storeOfB: TokenStore = store,
): [Instance, Instance] {
  const clock = manualClock(T0)
  const instance = (inner: TokenStore): Instance => {
    const cache = cachedStore(inner, { invalidation: localInvalidation() })
    const events: AuthorityEvent[] = []
    const authority = createAuthority({
      ...config,
      store: cache,
      pepper: PEPPER,
      clock,
      onEvent: (e) => events.push(e),
    })
    return { cache, handler: createHandler(authority), events, authority }
  }
  return [instance(store), instance(storeOfB)]
}

async function call(instance: Instance, path: string, secret: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers)
  headers.set('PRIVATE-TOKEN', secret)
  const response = await instance.handler(new Request(`${BASE}/${path}`, { ...init, headers }))
  return {
    status: response.status,
    replayed: response.headers.get('idempotent-replayed'),
    body: (await response.json()) as Record<string, unknown>,
  }
}

/** GitLab's answer to a revoked token (reuse detection answers it too). */
const REVOKED = {
  error: 'invalid_token',
  error_description: 'Token was revoked. You have to re-authorize from the user.',
}

export function describeStaleDecisions(options: StaleDecisionsOptions): void {
  describe(`decisions read the store, not another instance's stale cache: ${options.name}`, () => {
    let store: TokenStore
    let opened: Instance[] = []
    beforeEach(() => {
      store = options.store()
    })
    afterEach(async () => {
      await Promise.all(opened.map((i) => i.cache.close()))
      opened = []
    })

    /** A and B, ALICE stored, and a token of hers that both instances have served from memory. */
    async function warmed(config: Partial<AuthorityConfig> = {}) {
      const [a, b] = twoInstances(store, config)
      opened = [a, b]
      await okValue(a.cache.putUser(ALICE))
      const secret = `glpat-stale-${process.pid}-${serial++}-${options.name.length}`.replace(/[^\w-]/g, '')
      const authority = createAuthority({ ...config, store: a.cache, pepper: PEPPER, clock: manualClock(T0) })
      const issued = await okValue(
        authority.issueToken({ userId: ALICE.id, name: 'stale', scopes: ['api'], secret }),
      )
      for (const instance of [a, b]) {
        for (let i = 0; i < 2; i++) expect((await call(instance, 'self', secret)).status).toBe(200)
        expect(instance.cache.stats().hits).toBeGreaterThan(0)
      }
      return { a, b, secret, token: issued.token }
    }

    for (const path of ['self/rotate', 'id/rotate'] as const) {
      it(`a token rotated on A, presented on B to ${path}, is reuse: its successor is revoked, 401`, async () => {
        const { a, b, secret, token } = await warmed()
        const rotated = await call(a, 'self/rotate', secret, { method: 'POST' })
        expect(rotated.status).toBe(200)
        const successorId = rotated.body['id'] as number
        const route = path === 'self/rotate' ? path : `${token.id}/rotate`
        const stale = await call(b, route, secret, { method: 'POST' })
        expect(stale).toMatchObject({ status: 401, body: REVOKED })
        expect((await okValue(store.findById(successorId)))?.revoked).toBe(true)
        expect(b.events).toMatchObject([{ type: 'reuse_detected', revoked: [{ id: successorId }] }])
        // B learnt from the store that its row was stale: it no longer serves it.
        expect(await call(b, 'self', secret)).toMatchObject({ status: 401, body: REVOKED })
      })
    }

    it('a token revoked on A cannot revoke or create on B from its stale row: 401, nothing changed', async () => {
      const { a, b, secret } = await warmed()
      const second = await okValue(
        createAuthority({ store: a.cache, pepper: PEPPER, clock: manualClock(T0) }).issueToken({
          userId: ALICE.id,
          name: 'second',
          scopes: ['api'],
          secret: `${secret}-second`,
        }),
      )
      const revoked = await a.handler(
        new Request(`${BASE}/self`, { method: 'DELETE', headers: { 'PRIVATE-TOKEN': secret } }),
      )
      expect(revoked.status).toBe(204)
      // B still holds the token as active: reads may be served from it, writes may not.
      expect(await call(b, `${second.token.id}`, secret, { method: 'DELETE' })).toMatchObject({
        status: 401,
        body: REVOKED,
      })
      expect((await okValue(store.findById(second.token.id)))?.revoked).toBe(false)
      const created = await b.handler(
        new Request('http://gitlab.test/api/v4/user/personal_access_tokens', {
          method: 'POST',
          headers: { 'PRIVATE-TOKEN': secret, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'from-stale', scopes: ['self_rotate'] }),
        }),
      )
      expect(created.status).toBe(401)
      expect(b.events.filter((e) => e.type === 'created' || e.type === 'revoked')).toEqual([])
    })

    it('an Idempotency-Key retry on B gets the successor A answered', async () => {
      const { a, b, secret } = await warmed()
      const key = `retry-${serial++}`
      const first = await call(a, 'self/rotate', secret, {
        method: 'POST',
        headers: { 'Idempotency-Key': key },
      })
      expect(first.status).toBe(200)
      const retried = await call(b, 'self/rotate', secret, {
        method: 'POST',
        headers: { 'Idempotency-Key': key },
      })
      expect(retried).toMatchObject({ status: 200, replayed: 'true' })
      expect({ id: retried.body['id'], token: retried.body['token'] }).toEqual({
        id: first.body['id'],
        token: first.body['token'],
      })
      expect((await okValue(store.findById(first.body['id'] as number)))?.revoked).toBe(false)
    })

    it('with a grace window, a rotation replayed on B gets the successor A answered', async () => {
      const { a, b, secret } = await warmed({ rotationGraceMs: 30_000 })
      const first = await call(a, 'self/rotate', secret, { method: 'POST' })
      expect(first.status).toBe(200)
      const replayed = await call(b, 'self/rotate', secret, { method: 'POST' })
      expect(replayed.status).toBe(200)
      expect({ id: replayed.body['id'], token: replayed.body['token'] }).toEqual({
        id: first.body['id'],
        token: first.body['token'],
      })
    })

    // Issue 19, item 5: seeding decides from the store. B remembers a digest as unknown; A stores its
    // token meanwhile; B's own insert then fails on a unique key, and its re-check must see A's row.
    for (const how of ['insert', 'importToken'] as const) {
      it(`a digest B remembers as unknown, stored by A since: after B's ${how} fails, B finds the row`, async () => {
        const [a, b] = twoInstances(store, {})
        opened = [a, b]
        await okValue(a.cache.putUser(ALICE))
        const id = 900_000 + serial++
        const draft = draftFactory(`seed-${process.pid}-${id}`)({ userId: ALICE.id, expiresAt: null })
        for (let i = 0; i < 2; i++) expect(await okValue(b.cache.findByDigest(draft.digest))).toBeNull()
        expect(b.cache.stats().negativeHits).toBe(1)
        const stored =
          how === 'insert'
            ? await okValue(a.cache.insert(draft))
            : await okValue(a.cache.importToken({ ...draft, id, familyId: id }))
        const again =
          how === 'insert'
            ? await b.cache.insert(draft)
            : await b.cache.importToken({ ...draft, id, familyId: id })
        expect(again._unsafeUnwrapErr().type).toBe('store_failure')
        expect((await okValue(b.cache.findByDigest(draft.digest)))?.id).toBe(stored.id)
      })
    }

    // The flaky `patkit serve --cache --seed` start on MariaDB: B looked a digest up (unknown), A stored
    // its token, then B read that token by id. B has seen the row; its "unknown" must not outlive that
    // read until A's message arrives (polling: the next read of the change log, up to the lease).
    it('a digest B remembers as unknown, stored by A since: once B reads the row by id, B finds it', async () => {
      const [a, b] = twoInstances(store, {})
      opened = [a, b]
      await okValue(a.cache.putUser(ALICE))
      const id = 900_000 + serial++
      const draft = draftFactory(`byid-${process.pid}-${id}`)({ userId: ALICE.id, expiresAt: null })
      for (let i = 0; i < 2; i++) expect(await okValue(b.cache.findByDigest(draft.digest))).toBeNull()
      expect(b.cache.stats().negativeHits).toBe(1)
      const stored = await okValue(a.cache.importToken({ ...draft, id, familyId: id }))
      expect((await okValue(b.cache.findById(id)))?.digest).toBe(draft.digest)
      expect((await okValue(b.cache.findByDigest(draft.digest)))?.id).toBe(stored.id)
      expect((await okValue(b.cache.findByDigestWithUser?.(draft.digest) ?? okAsync(null)))?.token.id).toBe(
        stored.id,
      )
      expect(b.cache.stats().negativeHits).toBe(1)
    })

    it('a lookup of B that missed a row B then read by id is not kept as unknown', async () => {
      const id = 900_000 + serial++
      const draft = draftFactory(`inflight-${process.pid}-${id}`)({ userId: ALICE.id, expiresAt: null })
      // B's lookup reads the store before A's insert and answers after B's read by id.
      let release = () => {}
      const held = new Promise<void>((resolve) => {
        release = resolve
      })
      let missed = () => {}
      const read = new Promise<void>((resolve) => {
        missed = resolve
      })
      const slow: TokenStore = {
        ...store,
        findByDigest: (digest) =>
          new ResultAsync(
            (async () => {
              const found = await store.findByDigest(digest)
              if (digest !== draft.digest) return found
              missed()
              await held
              return found
            })(),
          ),
      }
      const [a, b] = twoInstances(store, {}, slow)
      opened = [a, b]
      await okValue(a.cache.putUser(ALICE))
      const lookup = b.cache.findByDigest(draft.digest)
      await read
      await okValue(a.cache.importToken({ ...draft, id, familyId: id }))
      expect((await okValue(b.cache.findById(id)))?.digest).toBe(draft.digest)
      release()
      expect(await okValue(lookup)).toBeNull()
      expect((await okValue(b.cache.findByDigest(draft.digest)))?.id).toBe(id)
    })

    /**
     * A one-token seed loaded by B, with A loading the same seed at the moment B's store is asked
     * `method` for the first time (for `findById`, for the seed's token): as two processes starting
     * at once do.
     */
    async function seedRace(method: 'findById' | 'importToken', tag: string) {
      const id = 900_000 + serial++
      const secret = `glpat-seeded-${tag}${process.pid}-${id}`
      const seed = seedSchema.parse({
        users: [{ id: ALICE.id, username: ALICE.username }],
        tokens: [{ id, user_id: ALICE.id, name: 'seeded', scopes: ['api'], token: secret }],
      })
      let a: Instance | undefined
      let raced = false
      const raceFirst = async () => {
        if (raced || a === undefined) return
        raced = true
        const first = await loadSeed(
          { authority: a.authority, store: a.cache, digest: createDigester(PEPPER) },
          seed,
        )
        expect(first._unsafeUnwrap().issued.map((t) => t.token.id)).toEqual([id])
      }
      const racing: TokenStore =
        method === 'findById'
          ? {
              ...store,
              findById: (tokenId) =>
                new ResultAsync(
                  (async () => {
                    if (tokenId === id) await raceFirst()
                    return store.findById(tokenId)
                  })(),
                ),
            }
          : {
              ...store,
              importToken: (token) =>
                new ResultAsync(
                  (async () => {
                    await raceFirst()
                    return store.importToken(token)
                  })(),
                ),
            }
      const [first, b] = twoInstances(store, {}, racing)
      a = first
      opened = [first, b]
      const second = await loadSeed(
        { authority: b.authority, store: b.cache, digest: createDigester(PEPPER) },
        seed,
      )
      expect(raced).toBe(true)
      expect(second._unsafeUnwrap()).toMatchObject({ issued: [], skipped: [0] })
      return { b, id, secret }
    }

    // The exact interleaving of the flaky start: B's seed check misses the token by digest, A loads
    // the seed, B's check then finds the token by its id (stored meanwhile: skipped). B has started;
    // the token must authenticate on B at once, not after A's message reaches it.
    it('B skips a seed token A stored between its two checks, and then authenticates it', async () => {
      const { b, id, secret } = await seedRace('findById', 'byid-')
      const answer = await call(b, 'self', secret)
      expect({ status: answer.status, id: answer.body['id'] }).toEqual({ status: 200, id })
    })

    // B's store lets A load the seed between B's checks (nothing stored yet) and B's own insert.
    it('two instances loading one seed at once both succeed (the second skips what the first stored)', async () => {
      await seedRace('importToken', '')
    })
  })
}
