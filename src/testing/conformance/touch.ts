import type { ResultAsync } from 'neverthrow'
import { expect } from 'vitest'
import type { Token } from '../../domain/token.js'
import { tokenFixture } from '../fixtures.js'
import { type ConformanceContext, query, seeder } from './context.js'
import { contract } from './contracts.js'
import { callOf } from './described-store.js'
import { expectContract, okValue } from './results.js'
import { RACERS } from './rotation.js'

const THROTTLE = 600_000
const T = new Date('2026-06-15T12:00:00.000Z')
const plus = (ms: number): Date => new Date(T.getTime() + ms)

/**
 * Conformance tests of `touchLastUsed`: a write when never used or when `at` is at least `throttleMs`
 * after the stored `lastUsedAt` (exactly `throttleMs` later writes), none inside the window, and one
 * write for concurrent touches in one window.
 */
export function describeTouch(ctx: ConformanceContext): void {
  ctx.group('touchLastUsed', () => {
    ctx.test('touchLastUsed writes the first use of a never-used token', async (store) => {
      const token = await seeder(store).insert({ lastUsedAt: null })
      expect(await okValue(store.touchLastUsed(token.id, T, THROTTLE, null))).toBe(true)
      expect(await okValue(store.findById(token.id))).toEqual({ ...token, lastUsedAt: T })
    })

    ctx.test('touchLastUsed does not write inside the throttle window', async (store) => {
      const token = await seeder(store).insert({ lastUsedAt: T })
      for (const at of [plus(0), plus(1), plus(THROTTLE - 1)]) {
        expect(await okValue(store.touchLastUsed(token.id, at, THROTTLE, null)), at.toISOString()).toBe(false)
      }
      expect(await okValue(store.findById(token.id))).toEqual(token)
    })

    ctx.test('touchLastUsed writes exactly throttleMs after the last use, and later', async (store) => {
      const token = await seeder(store).insert({ lastUsedAt: T })
      expect(await okValue(store.touchLastUsed(token.id, plus(THROTTLE), THROTTLE, null))).toBe(true)
      expect(await okValue(store.findById(token.id))).toEqual({ ...token, lastUsedAt: plus(THROTTLE) })
      const much = plus(3 * THROTTLE + 12_345)
      expect(await okValue(store.touchLastUsed(token.id, much, THROTTLE, null))).toBe(true)
      expect(await okValue(store.findById(token.id))).toEqual({ ...token, lastUsedAt: much })
    })

    ctx.test('touchLastUsed never moves lastUsedAt back', async (store) => {
      const token = await seeder(store).insert({ lastUsedAt: T })
      expect(await okValue(store.touchLastUsed(token.id, plus(-THROTTLE * 2), THROTTLE, null))).toBe(false)
      expect(await okValue(store.touchLastUsed(token.id, plus(-1), 0, null))).toBe(false)
      expect(await okValue(store.findById(token.id))).toEqual(token)
    })

    ctx.test(
      `of ${RACERS} concurrent touchLastUsed calls in one window exactly one writes`,
      async (store) => {
        const token = await seeder(store).insert({ lastUsedAt: null })
        const instants = Array.from({ length: RACERS }, (_, i) => plus(i * 1000))
        const written = await Promise.all(
          instants.map(async (at) => okValue(store.touchLastUsed(token.id, at, THROTTLE, null))),
        )
        expect(written.filter(Boolean)).toHaveLength(1)
        const stored = await okValue(store.findById(token.id))
        expect(instants.map((i) => i.getTime())).toContain(stored?.lastUsedAt?.getTime())
      },
    )

    ctx.test('touchLastUsed of an unknown id writes nothing and returns false', async (store) => {
      const token = await seeder(store).insert()
      expect(await okValue(store.touchLastUsed(token.id + 1000, T, THROTTLE, null))).toBe(false)
      expect(await okValue(store.findById(token.id + 1000))).toBeNull()
      expect(await okValue(store.findById(token.id))).toEqual(token)
    })

    ctx.test('touchLastUsed with an ip records it with the first use', async (store) => {
      const token = await seeder(store).insert({ lastUsedAt: null })
      expect(await okValue(store.touchLastUsed(token.id, T, THROTTLE, '10.0.0.1'))).toBe(true)
      expect(await okValue(store.findById(token.id))).toEqual({
        ...token,
        lastUsedAt: T,
        lastUsedIps: ['10.0.0.1'],
      })
    })

    ctx.test(
      'touchLastUsed adds a new ip a minute after the last use, inside the throttle window, without moving lastUsedAt',
      async (store) => {
        const token = await seeder(store).insert({ lastUsedAt: T, lastUsedIps: ['10.0.0.1'] })
        // A new IP less than a minute after the last use is not recorded.
        expect(await okValue(store.touchLastUsed(token.id, plus(59_999), THROTTLE, '10.0.0.2'))).toBe(false)
        // A known IP is never recorded twice.
        expect(await okValue(store.touchLastUsed(token.id, plus(120_000), THROTTLE, '10.0.0.1'))).toBe(false)
        expect(await okValue(store.touchLastUsed(token.id, plus(60_000), THROTTLE, '2001:db8::1'))).toBe(true)
        expect(await okValue(store.findById(token.id))).toEqual({
          ...token,
          lastUsedIps: ['10.0.0.1', '2001:db8::1'],
        })
      },
    )

    ctx.test('touchLastUsed keeps the five newest ips, oldest first', async (store) => {
      const token = await seeder(store).insert({ lastUsedAt: null })
      const ips = ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4', '10.0.0.5', '10.0.0.6', '10.0.0.7']
      for (const [i, ip] of ips.entries()) {
        // Each use is a throttle window after the previous one: both the time and the IP are written.
        expect(await okValue(store.touchLastUsed(token.id, plus(i * THROTTLE), THROTTLE, ip)), ip).toBe(true)
      }
      const stored = await okValue(store.findById(token.id))
      expect(stored?.lastUsedIps, `findById after seven uses ${contract('no-empty-ips')}`).toEqual([
        '10.0.0.3',
        '10.0.0.4',
        '10.0.0.5',
        '10.0.0.6',
        '10.0.0.7',
      ])
      expect(stored?.lastUsedAt).toEqual(plus(6 * THROTTLE))
    })

    ctx.test(
      `${RACERS} concurrent touchLastUsed calls from one new ip record it once, and distinct ips at most five`,
      async (store) => {
        const seed = seeder(store)
        const token = await seed.insert({ lastUsedAt: plus(-THROTTLE / 2), lastUsedIps: ['10.0.0.1'] })
        const same = await Promise.all(
          Array.from({ length: RACERS }, async (_, i) =>
            okValue(store.touchLastUsed(token.id, plus(i * 100), THROTTLE, '10.1.0.1')),
          ),
        )
        expect(same.filter(Boolean)).toHaveLength(1)
        const stored = await okValue(store.findById(token.id))
        expect(stored?.lastUsedIps).toEqual(['10.0.0.1', '10.1.0.1'])
        // An IP-only write leaves lastUsedAt where it was, as GitLab's LastUsedService does.
        expect(stored?.lastUsedAt).toEqual(plus(-THROTTLE / 2))

        const other = await seed.insert({ lastUsedAt: plus(-THROTTLE / 2) })
        await Promise.all(
          Array.from({ length: RACERS }, async (_, i) =>
            okValue(store.touchLastUsed(other.id, plus(i * 100), THROTTLE, `10.2.0.${i + 1}`)),
          ),
        )
        const ips = (await okValue(store.findById(other.id)))?.lastUsedIps ?? []
        expect(ips.length).toBeGreaterThanOrEqual(1)
        expect(ips.length).toBeLessThanOrEqual(5)
        expect(new Set(ips).size).toBe(ips.length)
      },
    )

    ctx.test('a token imported with ips reads them back; a rotation successor has none', async (store) => {
      const token = await seeder(store).insert({ lastUsedAt: T, lastUsedIps: ['192.0.2.1', '::1'] })
      expect((await okValue(store.findById(token.id)))?.lastUsedIps).toEqual(['192.0.2.1', '::1'])
      const { id: _id, familyId, lastUsedIps: _ips, ...rest } = token
      const successor = await okValue(
        store.rotate(token.id, {
          ...rest,
          familyId,
          previousId: token.id,
          digest: `${token.digest}-next`,
          lastUsedAt: null,
        }),
      )
      expect(
        successor.lastUsedIps,
        `rotate(${token.id}): the successor ${contract('no-empty-ips')}`,
      ).toBeUndefined()
      expect(
        (await okValue(store.findById(successor.id)))?.lastUsedIps,
        `findById(${successor.id}) ${contract('no-empty-ips')}`,
      ).toBeUndefined()
    })

    ctx.test(
      'a token with no recorded address has no lastUsedIps (absent, not []) in any answer',
      async (store) => {
        const seed = seeder(store)
        await seed.user(1)
        // Each call with its own outcome, so that a failure names the call that answered the field.
        const answered = async <T>(
          outcome: ResultAsync<T, unknown>,
          tokensOf: (value: T) => readonly (Token | null | undefined)[],
        ): Promise<T> => {
          const value = await okValue(outcome)
          for (const token of tokensOf(value)) {
            expectContract(
              'no-empty-ips',
              callOf(outcome) ?? 'the call',
              token?.lastUsedIps === undefined,
              token,
            )
          }
          return value
        }
        const one = (token: Token | null) => [token]
        const token = await answered(store.insert(seed.draft({ lastUsedAt: null })), one)
        await answered(store.findById(token.id), one)
        await answered(store.findByDigest(token.digest), one)
        // A use without an address records none.
        await answered(store.touchLastUsed(token.id, T, THROTTLE, null), () => [])
        await answered(store.findById(token.id), one)
        await answered(store.list(query({})), (page) => page.items)
        await answered(store.importToken(tokenFixture(token.id + 100)), one)
        const successor = await answered(
          store.rotate(token.id, seed.draft({ previousId: token.id, familyId: token.familyId })),
          one,
        )
        await answered(store.findByDigest(successor.digest), one)
        await answered(store.revokeDescendants(token.id, T), (revoked) => revoked)
        await answered(store.findByDigestWithUser(successor.digest), (found) => [found?.token])
        await answered(store.findSuccessor(token.id), one)
      },
    )

    ctx.test('touchLastUsed changes lastUsedAt and nothing else', async (store) => {
      const seed = seeder(store)
      const token = await seed.insert({ impersonation: true, description: 'd', scopes: ['read_api'] })
      const other = await seed.insert()
      expect(await okValue(store.touchLastUsed(token.id, T, THROTTLE, null))).toBe(true)
      expect(await okValue(store.findById(token.id))).toEqual({ ...token, lastUsedAt: T })
      expect(await okValue(store.findById(other.id))).toEqual(other)
    })
  })
}
