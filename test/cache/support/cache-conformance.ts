import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { CachedStore } from '../../../src/cache/index.js'
import type { Token } from '../../../src/domain/token.js'
import { okValue as ok } from '../../../src/testing/conformance/results.js'
import { draftFactory, userFixture } from '../../../src/testing/index.js'

/** Several instances of one deployment: each its own cache (and pool), all on one database. */
export interface Deployment {
  readonly instances: readonly CachedStore[]
  close(): Promise<void>
}

export interface CacheConformanceOptions {
  readonly name: string
  /** Opens the instances; `strict` turns strict mode on for every one. */
  readonly deploy: (strict: boolean) => Promise<Deployment>
}

const NOW = new Date('2026-06-15T12:00:00.000Z')

/** Whether an instance would let the token in: found by digest, not revoked, owner not blocked. */
async function accepts(store: CachedStore, token: Token): Promise<boolean> {
  const found = await ok(store.findByDigestWithUser(token.digest))
  return found !== null && !found.token.revoked && found.user !== null && !found.user.blocked
}

async function acceptedBy(instances: readonly CachedStore[], token: Token): Promise<boolean[]> {
  return Promise.all(instances.map((store) => accepts(store, token)))
}

let run = 0

const each = (d: Deployment) => d.instances
const first = (d: Deployment) => d.instances[0] as CachedStore
const last = (d: Deployment) => d.instances[d.instances.length - 1] as CachedStore

/**
 * The cache conformance suite: what every deployment of `cachedStore` must guarantee, whatever the
 * channel. In strict mode a write that stops a token returns only when every instance refuses it; in
 * the default mode every instance refuses it within the channel's bound.
 */
export function describeCacheConformance(options: CacheConformanceOptions): void {
  describe(`cache conformance: ${options.name}`, () => {
    let strict: Deployment
    let relaxed: Deployment
    let draft: ReturnType<typeof draftFactory>
    beforeAll(async () => {
      strict = await options.deploy(true)
      relaxed = await options.deploy(false)
      await Promise.all([...strict.instances, ...relaxed.instances].map((store) => store.ready()))
      draft = draftFactory(`cache-${process.pid}-${run++}`)
      for (const d of [strict, relaxed]) await ok(first(d).putUser(userFixture(2)))
    })
    afterAll(async () => {
      await strict?.close()
      await relaxed?.close()
    })

    const issue = async (store: CachedStore, overrides = {}) =>
      ok(store.insert(draft({ userId: 2, expiresAt: null, ...overrides })))

    it('has at least two instances, each serving from memory after a first lookup', async () => {
      expect(each(strict).length).toBeGreaterThanOrEqual(2)
      const token = await issue(first(strict))
      for (const store of each(strict)) {
        const before = store.stats().hits
        // A lookup racing any invalidation (another test's write arriving) is answered but not kept,
        // so the second or third lookup is the first hit.
        for (let i = 0; i < 3; i++) expect(await accepts(store, token)).toBe(true)
        expect(store.stats().hits).toBeGreaterThan(before)
      }
    })

    it('strict: a revoked token is refused by every instance as soon as revoke returns', async () => {
      const token = await issue(first(strict))
      expect(await acceptedBy(each(strict), token)).toEqual(each(strict).map(() => true))
      expect(await ok(last(strict).revoke(token.id))).toBe('revoked')
      expect(await acceptedBy(each(strict), token)).toEqual(each(strict).map(() => false))
    })

    it('strict: a rotated token is refused by every instance and its successor accepted', async () => {
      const token = await issue(first(strict))
      await acceptedBy(each(strict), token)
      const successor = await ok(
        last(strict).rotate(
          token.id,
          draft({ userId: 2, expiresAt: null, previousId: token.id, familyId: token.familyId }),
        ),
      )
      expect(await acceptedBy(each(strict), token)).toEqual(each(strict).map(() => false))
      expect(await acceptedBy(each(strict), successor)).toEqual(each(strict).map(() => true))
    })

    it('strict: reuse detection revokes the descendants on every instance', async () => {
      const root = await issue(first(strict))
      const child = await ok(
        first(strict).rotate(
          root.id,
          draft({ userId: 2, expiresAt: null, previousId: root.id, familyId: root.familyId }),
        ),
      )
      expect(await acceptedBy(each(strict), child)).toEqual(each(strict).map(() => true))
      const revoked = await ok(last(strict).revokeDescendants(root.id, NOW))
      expect(revoked.map((t) => t.id)).toEqual([child.id])
      expect(await acceptedBy(each(strict), child)).toEqual(each(strict).map(() => false))
    })

    it('strict: blocking the owner is seen by every instance', async () => {
      await ok(first(strict).putUser(userFixture(3)))
      const token = await issue(first(strict), { userId: 3 })
      expect(await acceptedBy(each(strict), token)).toEqual(each(strict).map(() => true))
      for (const store of each(strict)) expect((await ok(store.findUser(3)))?.blocked).toBe(false)
      await ok(last(strict).putUser(userFixture(3, { blocked: true })))
      expect(await acceptedBy(each(strict), token)).toEqual(each(strict).map(() => false))
      // Users found by `findUser` (the authority's lookup when the store's joined one is hidden) too.
      for (const store of each(strict)) expect((await ok(store.findUser(3)))?.blocked).toBe(true)
      for (const store of each(strict)) expect((await ok(store.findUser('user-3')))?.blocked).toBe(true)
    })

    it('a digest remembered as unknown is found once another instance inserts its token', async () => {
      const token = { ...draft({ userId: 2, expiresAt: null }) }
      for (const store of each(strict)) expect(await ok(store.findByDigest(token.digest))).toBeNull()
      const stored = await ok(first(strict).insert(token))
      // Inserting is not a revocation, so it never waits: every instance sees it within the bound.
      await vi.waitFor(
        async () => expect(await acceptedBy(each(strict), stored)).toEqual(each(strict).map(() => true)),
        { timeout: 10_000, interval: 20 },
      )
    })

    it('a revocation racing lookups on every instance is never lost', { timeout: 30_000 }, async () => {
      for (let round = 0; round < 10; round++) {
        const token = await issue(first(strict))
        // Lookups (some reading the row before the revocation commits) race the revocation: whatever
        // they cached must not outlive it.
        const lookups = each(strict).flatMap((store) => [accepts(store, token), accepts(store, token)])
        const revoked = last(strict).revoke(token.id)
        await Promise.all(lookups)
        expect(await ok(revoked)).toBe('revoked')
        expect(await acceptedBy(each(strict), token)).toEqual(each(strict).map(() => false))
      }
    })

    it('default mode: a revoked token is refused by every instance within the channel bound', async () => {
      const token = await issue(first(relaxed))
      expect(await acceptedBy(each(relaxed), token)).toEqual(each(relaxed).map(() => true))
      expect(await ok(last(relaxed).revoke(token.id))).toBe('revoked')
      // The writing instance drops it before revoke returns; the others within the bound.
      expect(await accepts(last(relaxed), token)).toBe(false)
      await vi.waitFor(
        async () => expect(await acceptedBy(each(relaxed), token)).toEqual(each(relaxed).map(() => false)),
        { timeout: 10_000, interval: 5 },
      )
    })

    it('default mode: racing revocations and rotations are never lost', { timeout: 30_000 }, async () => {
      const tokens = await Promise.all(Array.from({ length: 10 }, () => issue(first(relaxed))))
      const work = tokens.flatMap((token, i) => [
        ...each(relaxed).map((store) => accepts(store, token)),
        i % 2 === 0
          ? (each(relaxed)[i % each(relaxed).length] as CachedStore).revoke(token.id)
          : (each(relaxed)[i % each(relaxed).length] as CachedStore).rotate(
              token.id,
              draft({ userId: 2, expiresAt: null, previousId: token.id, familyId: token.familyId }),
            ),
      ])
      await Promise.all(work)
      await vi.waitFor(
        async () => {
          for (const token of tokens)
            expect(await acceptedBy(each(relaxed), token)).toEqual(each(relaxed).map(() => false))
        },
        { timeout: 10_000, interval: 20 },
      )
    })

    it('last-used times are buffered, and written on flush and on close', async () => {
      const token = await issue(first(relaxed))
      const store = first(relaxed)
      const at1 = new Date('2026-06-15T12:00:00.000Z')
      const at2 = new Date('2026-06-15T13:00:00.000Z')
      // A first use is written at once.
      expect(await ok(store.touchLastUsed(token.id, at1, 60_000, null))).toBe(true)
      expect((await ok(store.findById(token.id)))?.lastUsedAt).toEqual(at1)
      await accepts(store, token)
      // Later ones wait for the flush; one inside the throttle window is not even queued.
      expect(await ok(store.touchLastUsed(token.id, at2, 60_000, null))).toBe(true)
      expect(await ok(store.touchLastUsed(token.id, new Date(at2.getTime() + 1000), 60_000, null))).toBe(
        false,
      )
      await store.flush()
      expect((await ok(store.findById(token.id)))?.lastUsedAt).toEqual(at2)
    })
  })
}
