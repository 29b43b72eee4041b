import { type Kysely, sql } from 'kysely'
import type { Result } from 'neverthrow'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Token, TokenDraft } from '../../src/domain/token.js'
import { sqlStore } from '../../src/sql/index.js'
import type { TokenStore } from '../../src/store/token-store.js'
import { draftFactory } from '../../src/testing/index.js'
import { raceRounds } from '../support/race-rounds.js'
import { migratedStore } from './support/conformance.js'
import {
  type DatabaseTarget,
  mariadb,
  mariadbSerializable,
  POOL_SIZE,
  postgres,
  postgresSerializable,
  uniquePrefix,
} from './support/databases.js'
import { describeDatabase } from './support/describe-database.js'

// Real races need real connections: every operation below runs on a pool of POOL_SIZE (>= 8).
// `npm test` runs each race a fifth of its rounds; `npm run test:slow` (and CI) the full count.
const REPEAT = raceRounds(50, 10)
const RACE_ROUNDS = raceRounds(100, 20)
// 64 transactions queue on one row's lock every round: a second a round on a busy machine whose
// database and other test files share its cores (50 rounds took 34 s on a busy 2-core machine).
const RACE_TIMEOUT = raceRounds(180_000, 60_000)
const ROTATORS = 64
const NOW = new Date('2026-06-15T12:00:00.000Z')

/** An error's type, and for a store failure its operation and the driver's code: what a failed assertion shows. */
function describeError(error: { type: string; operation?: string; cause?: unknown }): string {
  if (error.type !== 'store_failure') return error.type
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined
  return `store_failure in ${error.operation}: ${String(cause?.code)} ${String(cause?.message)}`
}

function successorOf(old: Token, draft: (o: Partial<TokenDraft>) => TokenDraft): TokenDraft {
  return draft({
    userId: old.userId,
    name: old.name,
    previousId: old.id,
    familyId: old.familyId,
    expiresAt: null,
  })
}

async function unwrap<T, E>(result: PromiseLike<Result<T, E>>): Promise<T> {
  return (await result)._unsafeUnwrap()
}

/** Counts straight from the table, not through the store under test. */
async function familyCounts(db: Kysely<unknown>, prefix: string, familyId: number) {
  const { rows } = await sql<{ total: unknown; active: unknown; successors: unknown }>`
    select count(*) as total,
           sum(case when revoked then 0 else 1 end) as active,
           count(distinct previous_id) as successors,
           count(previous_id) as linked
    from ${sql.table(`${prefix}tokens`)} where family_id = ${familyId}`.execute(db)
  const row = rows[0] as Record<string, unknown>
  return {
    total: Number(row['total']),
    active: Number(row['active']),
    distinctPredecessors: Number(row['successors']),
    linked: Number(row['linked']),
  }
}

function describeRaces(target: DatabaseTarget, tag: string): Promise<void> {
  const prefix = uniquePrefix(tag)
  return describeDatabase(target, prefix, (db) => {
    let store: TokenStore
    // A second pool on the same database, as a second process would have.
    let otherDb: Kysely<unknown>
    let other: TokenStore
    beforeAll(async () => {
      store = await migratedStore(db, prefix)
      await unwrap(store.putUser({ id: 1, username: 'racer', admin: false, blocked: false }))
      otherDb = target.open()
      other = sqlStore(otherDb, { tablePrefix: prefix })
    })
    afterAll(async () => {
      await otherDb.destroy()
    })

    it(`a rotation racing reuse detection of its predecessor on two pools, ${RACE_ROUNDS} rounds: nothing of the family stays active`, {
      timeout: RACE_TIMEOUT,
    }, async () => {
      const draft = draftFactory(`${tag}-reuse-race`)
      const outcomes = { rotatedFirst: 0, detectedFirst: 0 }
      for (let round = 0; round < RACE_ROUNDS; round++) {
        const first = await unwrap(store.insert(draft({ expiresAt: null })))
        const current = await unwrap(store.rotate(first.id, successorOf(first, draft)))
        // The pools swap roles between rounds, so the rotation and the detection start on different
        // connections at the same moment.
        const rotating = () =>
          (round % 2 === 0 ? store : other).rotate(current.id, successorOf(current, draft))
        const detecting = () => (round % 2 === 0 ? other : store).revokeDescendants(first.id, NOW)
        // Which call is issued first alternates too; the databases decide who wins.
        const [rotated, detected] =
          round % 4 < 2
            ? await Promise.all([rotating(), detecting()])
            : await Promise.all([detecting(), rotating()]).then(([d, r]) => [r, d] as const)
        if (detected.isErr()) throw new Error(`round ${round}: ${describeError(detected.error)}`)
        if (rotated.isErr()) {
          expect(rotated.error, `round ${round}`).toEqual({ type: 'already_revoked', tokenId: current.id })
          outcomes.detectedFirst++
        } else {
          expect(
            detected.value.map((t) => t.id),
            `round ${round}: detection missed the new successor`,
          ).toEqual([rotated.value.id])
          outcomes.rotatedFirst++
        }
        const counts = await familyCounts(db, prefix, first.familyId)
        expect(
          counts.active,
          `round ${round}: a token of the family is active after reuse was detected`,
        ).toBe(0)
      }
      // Every round ended in one of the two orders (which ones occur is the databases' choice).
      expect(outcomes.rotatedFirst + outcomes.detectedFirst).toBe(RACE_ROUNDS)
    })

    it(`replays of one rotation racing its first use, a rotation of the successor and reuse detection on two pools, ${RACE_ROUNDS} rounds: one replay at most, no failure`, {
      timeout: RACE_TIMEOUT,
    }, async () => {
      const draft = draftFactory(`${tag}-replay-race`)
      const keyDigest = 'replay-race-key-digest'
      let replays = 0
      for (let round = 0; round < RACE_ROUNDS; round++) {
        const first = await unwrap(store.insert(draft({ expiresAt: null })))
        const receipt = {
          keyDigest,
          sealedSecret: `v1.sealed-${round}`,
          expiresAt: new Date(NOW.getTime() + 600_000),
        }
        const successor = await unwrap(store.rotateWithReceipt(first.id, successorOf(first, draft), receipt))
        const pool = (k: number) => ((round + k) % 2 === 0 ? store : other)
        // Each round a different rival of the replays: the successor's first use, its rotation, or
        // reuse detection (the old token presented without the key). The store decides the order.
        const rival = (): Promise<unknown> => {
          switch (round % 3) {
            case 0:
              return unwrap(pool(1).touchLastUsed(successor.id, NOW, 600_000, null))
            case 1:
              return unwrap(pool(1).rotate(successor.id, successorOf(successor, draft)))
            default:
              return unwrap(pool(1).revokeDescendants(first.id, NOW))
          }
        }
        const consumers = Array.from({ length: 4 }, (_, k) =>
          unwrap(pool(k).consumeRotationReceipt(first.id, keyDigest, NOW)),
        )
        const [, ...consumed] = await Promise.all([rival(), ...consumers])
        const winners = consumed.filter((c) => c !== null)
        expect(winners.length, `round ${round}`).toBeLessThanOrEqual(1)
        if (winners[0] !== undefined) {
          replays++
          expect(winners[0], `round ${round}`).toEqual({ successor, sealedSecret: receipt.sealedSecret })
        }
        const counts = await familyCounts(db, prefix, first.familyId)
        expect(counts.active, `round ${round}`).toBe(round % 3 === 2 ? 0 : 1)
      }
      // Some rounds the replay came first (which ones is the databases' choice).
      expect(replays).toBeGreaterThan(0)
    })

    it(`${ROTATORS} concurrent rotations of one token, ${REPEAT} times: one successor, one active token`, {
      timeout: RACE_TIMEOUT,
    }, async () => {
      expect(POOL_SIZE).toBeGreaterThanOrEqual(8)
      const draft = draftFactory(`${tag}-rotate`)
      for (let round = 0; round < REPEAT; round++) {
        const old = await unwrap(store.insert(draft({ expiresAt: null })))
        const results = await Promise.all(
          Array.from({ length: ROTATORS }, () => store.rotate(old.id, successorOf(old, draft))),
        )
        const winners = results.filter((r) => r.isOk())
        const losers = results.filter((r) => r.isErr()).map((r) => r._unsafeUnwrapErr())
        expect(winners, `round ${round}`).toHaveLength(1)
        expect(new Set(losers.map((e) => JSON.stringify(e)))).toEqual(
          new Set(losers.length === 0 ? [] : [JSON.stringify({ type: 'already_revoked', tokenId: old.id })]),
        )
        const counts = await familyCounts(db, prefix, old.familyId)
        expect(counts, `round ${round}`).toEqual({ total: 2, active: 1, distinctPredecessors: 1, linked: 1 })
      }
    })

    it(`rotations interleaved with reuse detection, ${REPEAT} times: never two active tokens in a family`, {
      timeout: RACE_TIMEOUT,
    }, async () => {
      const draft = draftFactory(`${tag}-reuse`)
      const errors = new Set<string>()
      let detections = 0
      let lostRotations = 0
      for (let round = 0; round < REPEAT; round++) {
        const first = await unwrap(store.insert(draft({ expiresAt: null })))
        const second = await unwrap(store.rotate(first.id, successorOf(first, draft)))
        // Rotators chase the family's active token while reuse detections (the revoked first token
        // presented again) revoke whatever is active.
        const rotator = async (): Promise<void> => {
          for (let step = 0; step < 4; step++) {
            const { items } = await unwrap(
              store.list({
                filter: { userId: 1, state: 'active', search: first.name },
                sort: 'id_desc',
                page: { page: 1, perPage: 5 },
                now: NOW,
              }),
            )
            const current = items.find((t) => t.familyId === first.familyId)
            if (current === undefined) return
            const result = await store.rotate(current.id, successorOf(current, draft))
            if (result.isErr()) {
              errors.add(describeError(result.error))
              lostRotations++
            }
          }
        }
        const detector = async (): Promise<void> => {
          const result = await store.revokeDescendants(first.id, NOW)
          if (result.isErr()) errors.add(describeError(result.error))
          else if (result.value.length > 0) detections++
        }
        await Promise.all([...Array.from({ length: 6 }, rotator), ...Array.from({ length: 6 }, detector)])
        const counts = await familyCounts(db, prefix, first.familyId)
        expect(counts.active, `round ${round}`).toBeLessThanOrEqual(1)
        expect(counts.linked, `round ${round}: a token with two successors`).toBe(counts.distinctPredecessors)
        expect(counts.total).toBeGreaterThanOrEqual(2)
        expect(second.familyId).toBe(first.id)
      }
      // The races did happen: detections revoked live tokens, and rotations lost to one another or to them.
      expect(detections).toBeGreaterThan(0)
      expect(lostRotations).toBeGreaterThan(0)
      // Losing a race is `already_revoked`; a deadlock must have been retried, never surfaced.
      expect([...errors].filter((type) => type !== 'already_revoked')).toEqual([])
    })

    it(`createUser on two pools, ${ROTATORS} calls at once, ${REPEAT} rounds: every id new, none shared, none skipped`, {
      timeout: RACE_TIMEOUT,
    }, async () => {
      const [mine, theirs] = [store.resources, other.resources]
      if (mine === undefined || theirs === undefined) throw new Error('the SQL store holds no resources')
      for (let round = 0; round < REPEAT; round++) {
        const before = await unwrap(mine.listUsers({}))
        const highest = Math.max(...before.map((user) => Number(user.id)))
        const created = await Promise.all(
          Array.from({ length: ROTATORS }, (_, k) =>
            (k % 2 === 0 ? mine : theirs).createUser({
              username: `bot_${round}_${k}`,
              admin: false,
              blocked: false,
              bot: true,
            }),
          ),
        )
        const failures = created.filter((result) => result.isErr())
        expect(
          failures.map((result) => (result.isErr() ? describeError(result.error) : '')),
          `round ${round}`,
        ).toEqual([])
        const ids = created.map((result) => Number(result._unsafeUnwrap().id)).sort((a, b) => a - b)
        expect(ids, `round ${round}`).toEqual(Array.from({ length: ROTATORS }, (_, k) => highest + 1 + k))
      }
    })
  })
}

await describeRaces(postgres, 'pgrace')
await describeRaces(postgresSerializable, 'pgser')
await describeRaces(mariadb, 'myrace')
await describeRaces(mariadbSerializable, 'myser')
