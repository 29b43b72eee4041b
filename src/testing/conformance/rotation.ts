import { expect } from 'vitest'
import type { Token, TokenDraft } from '../../domain/token.js'
import type { TokenStore } from '../../store/token-store.js'
import { type ConformanceContext, query, seeder } from './context.js'
import { contract } from './contracts.js'
import { errValue, okValue } from './results.js'

/** How many callers race in the concurrency tests. */
export const RACERS = 32

/** Rounds of the rotation-versus-reuse-detection race (each round is one fresh family). */
export const RACE_ROUNDS = 40

const ROTATED_AT = new Date('2026-06-15T12:00:00.000Z')

/** The successor draft an authority would build for `old`. */
function successorOf(old: Token, draft: (o: Partial<TokenDraft>) => TokenDraft, digest?: string): TokenDraft {
  return draft({
    userId: old.userId,
    name: old.name,
    createdAt: ROTATED_AT,
    expiresAt: old.expiresAt,
    previousId: old.id,
    familyId: old.familyId,
    ...(digest === undefined ? {} : { digest }),
  })
}

async function familyOf(store: TokenStore, token: Token): Promise<Token[]> {
  const { items } = await okValue(store.list(query({ userId: token.userId })))
  return items.filter((t) => t.familyId === token.familyId)
}

/**
 * Conformance tests of `rotate`, including its race contract: of N concurrent rotations of one token
 * exactly one succeeds, and a token never has two successors.
 */
export function describeRotation(ctx: ConformanceContext): void {
  ctx.group('rotate', () => {
    ctx.test('rotate revokes the old token and stores the successor', async (store) => {
      const seed = seeder(store)
      const old = await seed.insert({ name: 'ci' })
      const bystander = await seed.insert({ name: 'other' })
      const draft = successorOf(old, seed.draft)
      const successor = await okValue(store.rotate(old.id, draft))
      expect(successor, `rotate(${old.id}, draft) ${contract('exact-copy')}`).toEqual({
        ...draft,
        id: successor.id,
        familyId: old.id,
      })
      expect(successor.id, `rotate(${old.id}, draft) ${contract('increasing-ids')}`).toBeGreaterThan(
        bystander.id,
      )
      expect(await okValue(store.findById(old.id))).toEqual({ ...old, revoked: true })
      expect(await okValue(store.findById(successor.id))).toEqual(successor)
      expect(await okValue(store.findByDigest(draft.digest))).toEqual(successor)
      expect(await okValue(store.findById(bystander.id))).toEqual(bystander)
    })

    ctx.test('rotate of an unknown token fails with not_found and stores nothing', async (store) => {
      const seed = seeder(store)
      const token = await seed.insert()
      const draft = successorOf(token, seed.draft)
      const unknown = token.id + 1000
      const error = await errValue(
        store.rotate(unknown, draft),
        'failed-rotation-stores-nothing',
        `no token ${unknown}`,
      )
      expect(error, `rotate(${unknown}) ${contract('failed-rotation-stores-nothing')}`).toEqual({
        type: 'not_found',
        entity: 'token',
      })
      expect(
        await okValue(store.findByDigest(draft.digest)),
        `findByDigest(the refused successor's digest) ${contract('failed-rotation-stores-nothing')}`,
      ).toBeNull()
      expect(await okValue(store.findById(token.id))).toEqual(token)
    })

    ctx.test('rotate of a revoked token fails with already_revoked and stores nothing', async (store) => {
      const seed = seeder(store)
      const token = await seed.insert({ revoked: true })
      const draft = successorOf(token, seed.draft)
      const error = await errValue(
        store.rotate(token.id, draft),
        'failed-rotation-stores-nothing',
        `token ${token.id} is revoked`,
      )
      expect(error, `rotate(${token.id}) ${contract('failed-rotation-stores-nothing')}`).toEqual({
        type: 'already_revoked',
        tokenId: token.id,
      })
      expect(
        await okValue(store.findByDigest(draft.digest)),
        `findByDigest(the refused successor's digest) ${contract('failed-rotation-stores-nothing')}`,
      ).toBeNull()
      expect(await okValue(store.findById(token.id))).toEqual(token)
    })

    ctx.test(`of ${RACERS} concurrent rotations of one token exactly one succeeds`, async (store) => {
      const seed = seeder(store)
      const old = await seed.insert({ userId: 5 })
      const drafts = Array.from({ length: RACERS }, (_, i) => successorOf(old, seed.draft, `racer-${i}`))
      const results = await Promise.all(drafts.map((d) => store.rotate(old.id, d)))
      const winners = results.filter((r) => r.isOk())
      expect(winners).toHaveLength(1)
      for (const r of results) {
        if (r.isErr()) expect(r.error).toEqual({ type: 'already_revoked', tokenId: old.id })
      }
      const stored = await Promise.all(drafts.map(async (d) => okValue(store.findByDigest(d.digest))))
      const successors = stored.filter((t) => t !== null)
      expect(successors).toHaveLength(1)
      expect(successors[0]).toEqual(winners[0]?.unwrapOr(null))
      const active = (await familyOf(store, old)).filter((t) => !t.revoked)
      expect(active.map((t) => t.id)).toEqual([successors[0]?.id])
      expect(await okValue(store.findById(old.id))).toMatchObject({ revoked: true })
    })

    ctx.test(
      `a rotation racing reuse detection of its predecessor leaves no active token, ${RACE_ROUNDS} rounds`,
      async (store) => {
        const seed = seeder(store)
        for (let round = 0; round < RACE_ROUNDS; round++) {
          const first = await seed.insert({ userId: 6 })
          const current = await okValue(store.rotate(first.id, successorOf(first, seed.draft)))
          // The predecessor is presented again (reuse) while its successor is being rotated: whichever
          // commits first, once both are done no token of the family may be active. Detection first:
          // the rotation finds its token revoked. Rotation first: detection revokes the new successor.
          const [rotated, detected] = await Promise.all([
            store.rotate(current.id, successorOf(current, seed.draft, `race-${round}`)),
            store.revokeDescendants(first.id, ROTATED_AT),
          ])
          expect(detected.isOk(), `round ${round}: ${JSON.stringify(detected)}`).toBe(true)
          if (rotated.isErr()) expect(rotated.error).toEqual({ type: 'already_revoked', tokenId: current.id })
          // The family is exactly these tokens (a store holds no others for it).
          const ids = [first.id, current.id, ...(rotated.isOk() ? [rotated.value.id] : [])]
          const family = await Promise.all(ids.map((id) => okValue(store.findById(id))))
          const active = family.filter((t) => t !== null && !t.revoked).map((t) => t?.id)
          expect(active, `round ${round}: active after reuse was detected`).toEqual([])
        }
      },
    )

    ctx.test('a token never gets a second successor', async (store) => {
      const seed = seeder(store)
      const old = await seed.insert()
      const first = await okValue(store.rotate(old.id, successorOf(old, seed.draft)))
      const taken = `token ${old.id} already has successor ${first.id}`
      // Again through rotate: the old token is revoked now.
      const again = await errValue(store.rotate(old.id, successorOf(old, seed.draft)), 'one-successor', taken)
      expect(again, `rotate(${old.id}) ${contract('one-successor')}`).toEqual({
        type: 'already_revoked',
        tokenId: old.id,
      })
      // Around rotate: a SQL store's UNIQUE(previous_id) is the backstop.
      const inserted = successorOf(old, seed.draft)
      expect(
        await errValue(store.insert(inserted), 'one-successor', taken),
        `insert(a second successor of ${old.id}) ${contract('one-successor')}`,
      ).toMatchObject({ type: 'store_failure' })
      const imported = { ...successorOf(old, seed.draft), id: first.id + 100, familyId: old.familyId }
      expect(
        await errValue(store.importToken(imported), 'one-successor', taken),
        `importToken(a second successor of ${old.id}) ${contract('one-successor')}`,
      ).toMatchObject({ type: 'store_failure' })
      const family = await familyOf(store, old)
      expect(
        family.filter((t) => t.previousId === old.id),
        contract('one-successor'),
      ).toEqual([first])
      expect(await okValue(store.findByDigest(inserted.digest))).toBeNull()
      expect(await okValue(store.findById(imported.id))).toBeNull()
    })

    ctx.test('rotate of a successor continues the family', async (store) => {
      const seed = seeder(store)
      const first = await seed.insert()
      const second = await okValue(store.rotate(first.id, successorOf(first, seed.draft)))
      const third = await okValue(store.rotate(second.id, successorOf(second, seed.draft)))
      expect(third).toMatchObject({ familyId: first.id, previousId: second.id, revoked: false })
      const family = await familyOf(store, first)
      expect(family.map((t) => [t.id, t.revoked])).toEqual([
        [first.id, true],
        [second.id, true],
        [third.id, false],
      ])
    })
  })
}
