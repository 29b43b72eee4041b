import { expect } from 'vitest'
import type { CalendarDate } from '../../domain/calendar.js'
import type { RotationReceiptDraft } from '../../domain/rotation-receipt.js'
import type { Token, TokenDraft } from '../../domain/token.js'
import type { TokenStore } from '../../store/token-store.js'
import { type ConformanceContext, type Seeder, seeder } from './context.js'
import { contract } from './contracts.js'
import { errValue, okValue } from './results.js'
import { RACERS } from './rotation.js'

type ReceiptStore = TokenStore

const ROTATED_AT = new Date('2026-06-15T12:00:00.000Z')
const WINDOW_MS = 10 * 60 * 1000
const EXPIRES_AT = new Date(ROTATED_AT.getTime() + WINDOW_MS)
const DURING = new Date(ROTATED_AT.getTime() + 60_000)
const KEY_DIGEST = 'Rk3yD1gestOfTheIdempotencyKeyAndSecret0000a'
// A sealed text as the authority writes it (`v1.` + base64url): the store keeps it opaque.
const SEALED = `v1.${'A1b2_C3d4-'.repeat(10)}`

function receipt(overrides: Partial<RotationReceiptDraft> = {}): RotationReceiptDraft {
  return { keyDigest: KEY_DIGEST, sealedSecret: SEALED, expiresAt: EXPIRES_AT, ...overrides }
}

/** The successor draft an authority would build for `old`, created at the rotation's instant. */
function successorOf(seed: Seeder, old: Token, overrides: Partial<TokenDraft> = {}): TokenDraft {
  return seed.draft({
    userId: old.userId,
    name: old.name,
    createdAt: ROTATED_AT,
    expiresAt: '2026-06-22' as CalendarDate,
    previousId: old.id,
    familyId: old.familyId,
    ...overrides,
  })
}

/** A token rotated with a receipt: the old token (now revoked) and its successor. */
async function rotatedWithReceipt(
  store: ReceiptStore,
  { seed = seeder(store), userId = 3 }: { seed?: Seeder; userId?: number } = {},
): Promise<{ seed: Seeder; old: Token; successor: Token }> {
  const old = await seed.insert({ userId, name: 'ci' })
  const successor = await okValue(store.rotateWithReceipt(old.id, successorOf(seed, old), receipt()))
  return { seed, old, successor }
}

/**
 * Conformance tests of the rotation receipts (`rotateWithReceipt` and
 * `consumeRotationReceipt`), which backs the `Idempotency-Key` header on rotate: the receipt is
 * written atomically with the rotation, found only by its token and key digest, redeemable only in
 * its window while the successor is active and unused, and handed out at most once, also to
 * concurrent callers. Skipped, with the reason, for a store without it.
 */
export function describeRotationReceipts(ctx: ConformanceContext): void {
  ctx.group('rotation receipts', () => {
    ctx.test('rotateWithReceipt rotates as rotate does, and its receipt is consumed once', async (store) => {
      const seed = seeder(store)
      const old = await seed.insert({ name: 'ci', userId: 3 })
      const bystander = await seed.insert({ name: 'other', userId: 3 })
      const draft = successorOf(seed, old)
      const successor = await okValue(store.rotateWithReceipt(old.id, draft, receipt()))
      expect(successor).toEqual({ ...draft, id: successor.id, familyId: old.id })
      expect(await okValue(store.findById(old.id))).toEqual({ ...old, revoked: true })
      expect(await okValue(store.findByDigest(draft.digest))).toEqual(successor)
      expect(await okValue(store.findById(bystander.id))).toEqual(bystander)
      expect(await okValue(store.consumeRotationReceipt(old.id, KEY_DIGEST, DURING))).toEqual({
        successor,
        sealedSecret: SEALED,
      })
      expect(await okValue(store.consumeRotationReceipt(old.id, KEY_DIGEST, DURING))).toBeNull()
      // Consuming changes no token.
      expect(await okValue(store.findById(successor.id))).toEqual(successor)
    })

    ctx.test(
      'rotateWithReceipt of a revoked or unknown token stores neither successor nor receipt',
      async (store) => {
        const seed = seeder(store)
        const revoked = await seed.insert({ revoked: true })
        const draft = successorOf(seed, revoked)
        const refusal = await errValue(
          store.rotateWithReceipt(revoked.id, draft, receipt()),
          'failed-rotation-stores-nothing',
          `token ${revoked.id} is revoked`,
        )
        expect(refusal, contract('failed-rotation-stores-nothing')).toEqual({
          type: 'already_revoked',
          tokenId: revoked.id,
        })
        const unknown = revoked.id + 1000
        expect(
          await errValue(
            store.rotateWithReceipt(unknown, successorOf(seed, revoked), receipt()),
            'failed-rotation-stores-nothing',
            `no token ${unknown}`,
          ),
          contract('failed-rotation-stores-nothing'),
        ).toEqual({ type: 'not_found', entity: 'token' })
        expect(
          await okValue(store.findByDigest(draft.digest)),
          `findByDigest(the refused successor's digest) ${contract('failed-rotation-stores-nothing')}`,
        ).toBeNull()
        expect(await okValue(store.consumeRotationReceipt(revoked.id, KEY_DIGEST, DURING))).toBeNull()
        expect(await okValue(store.consumeRotationReceipt(unknown, KEY_DIGEST, DURING))).toBeNull()
      },
    )

    ctx.test(
      `of ${RACERS} concurrent rotateWithReceipt calls on one token exactly one succeeds, with its receipt`,
      async (store) => {
        const seed = seeder(store)
        const old = await seed.insert({ userId: 5 })
        const calls = Array.from({ length: RACERS }, (_, i) => ({
          draft: successorOf(seed, old, { digest: `receipt-racer-${i}` }),
          receipt: receipt({ keyDigest: `digest-of-racer-${i}` }),
        }))
        const results = await Promise.all(
          calls.map((c) => store.rotateWithReceipt(old.id, c.draft, c.receipt)),
        )
        const winners = results.flatMap((r, i) => (r.isOk() ? [{ token: r.value, call: calls[i] }] : []))
        expect(winners).toHaveLength(1)
        for (const r of results) {
          if (r.isErr()) expect(r.error).toEqual({ type: 'already_revoked', tokenId: old.id })
        }
        const consumed = await Promise.all(
          calls.map((c) => okValue(store.consumeRotationReceipt(old.id, c.receipt.keyDigest, DURING))),
        )
        // Only the winner's receipt exists: the losers' rolled back with their successors.
        expect(consumed.filter((c) => c !== null)).toEqual([
          { successor: winners[0]?.token, sealedSecret: SEALED },
        ])
      },
    )

    ctx.test('consumeRotationReceipt finds a receipt only by its own token and key digest', async (store) => {
      const { old, successor } = await rotatedWithReceipt(store)
      expect(await okValue(store.consumeRotationReceipt(successor.id, KEY_DIGEST, DURING))).toBeNull()
      expect(await okValue(store.consumeRotationReceipt(old.id, `${KEY_DIGEST}x`, DURING))).toBeNull()
      expect(await okValue(store.consumeRotationReceipt(old.id, KEY_DIGEST.toLowerCase(), DURING))).toBeNull()
      // The misses consumed nothing.
      expect(await okValue(store.consumeRotationReceipt(old.id, KEY_DIGEST, DURING))).toEqual({
        successor,
        sealedSecret: SEALED,
      })
    })

    ctx.test('a receipt is redeemable before its expiresAt only', async (store) => {
      const { old, successor } = await rotatedWithReceipt(store)
      expect(await okValue(store.consumeRotationReceipt(old.id, KEY_DIGEST, EXPIRES_AT))).toBeNull()
      const later = new Date(EXPIRES_AT.getTime() + 1)
      expect(await okValue(store.consumeRotationReceipt(old.id, KEY_DIGEST, later))).toBeNull()
      // A miss deletes nothing: one millisecond before the end it is still there.
      const lastMoment = new Date(EXPIRES_AT.getTime() - 1)
      expect(await okValue(store.consumeRotationReceipt(old.id, KEY_DIGEST, lastMoment))).toEqual({
        successor,
        sealedSecret: SEALED,
      })
    })

    ctx.test('a receipt is not redeemable once its successor was used', async (store) => {
      const { old, successor } = await rotatedWithReceipt(store)
      expect(await okValue(store.touchLastUsed(successor.id, DURING, 600_000, null))).toBe(true)
      expect(await okValue(store.consumeRotationReceipt(old.id, KEY_DIGEST, DURING))).toBeNull()
    })

    ctx.test(
      'a receipt is not redeemable once its successor was rotated, revoked or revoked by reuse detection',
      async (store) => {
        const seed = seeder(store)
        const rotated = await rotatedWithReceipt(store, { seed, userId: 3 })
        await okValue(store.rotate(rotated.successor.id, successorOf(seed, rotated.successor)))
        expect(await okValue(store.consumeRotationReceipt(rotated.old.id, KEY_DIGEST, DURING))).toBeNull()

        const revoked = await rotatedWithReceipt(store, { seed, userId: 4 })
        expect(await okValue(store.revoke(revoked.successor.id))).toBe('revoked')
        expect(await okValue(store.consumeRotationReceipt(revoked.old.id, KEY_DIGEST, DURING))).toBeNull()

        const detected = await rotatedWithReceipt(store, { seed, userId: 5 })
        await okValue(store.revokeDescendants(detected.old.id, DURING))
        expect(await okValue(store.consumeRotationReceipt(detected.old.id, KEY_DIGEST, DURING))).toBeNull()
      },
    )

    ctx.test('a receipt is not redeemable once its successor expired', async (store) => {
      const seed = seeder(store)
      const old = await seed.insert({ userId: 3 })
      // A successor expiring the day after the rotation, and a window reaching into that day.
      const draft = successorOf(seed, old, { expiresAt: '2026-06-16' as CalendarDate })
      const longWindow = new Date('2026-06-17T00:00:00.000Z')
      await okValue(store.rotateWithReceipt(old.id, draft, receipt({ expiresAt: longWindow })))
      const expired = new Date('2026-06-16T00:00:00.000Z')
      expect(await okValue(store.consumeRotationReceipt(old.id, KEY_DIGEST, expired))).toBeNull()
    })

    ctx.test(
      `of ${RACERS} concurrent consumptions of one receipt exactly one gets the successor`,
      async (store) => {
        const { old, successor } = await rotatedWithReceipt(store)
        // Half present the right digest, half a wrong one: only a right one may win, and only once.
        const digests = Array.from({ length: RACERS }, (_, i) => (i % 2 === 0 ? KEY_DIGEST : `wrong-${i}`))
        const results = await Promise.all(
          digests.map((digest) => okValue(store.consumeRotationReceipt(old.id, digest, DURING))),
        )
        const winners = results.flatMap((r, i) => (r === null ? [] : [{ r, digest: digests[i] }]))
        expect(winners).toEqual([{ r: { successor, sealedSecret: SEALED }, digest: KEY_DIGEST }])
        expect(await okValue(store.findById(successor.id))).toEqual(successor)
      },
    )

    ctx.test(
      'rotate without a receipt leaves none, and each rotated token has its own receipt',
      async (store) => {
        const seed = seeder(store)
        const plain = await seed.insert({ userId: 3 })
        await okValue(store.rotate(plain.id, successorOf(seed, plain)))
        expect(await okValue(store.consumeRotationReceipt(plain.id, KEY_DIGEST, DURING))).toBeNull()
        const a = await seed.insert({ userId: 3 })
        const b = await seed.insert({ userId: 4 })
        const aNext = await okValue(store.rotateWithReceipt(a.id, successorOf(seed, a), receipt()))
        const bNext = await okValue(
          store.rotateWithReceipt(b.id, successorOf(seed, b), receipt({ sealedSecret: `${SEALED}b` })),
        )
        expect(await okValue(store.consumeRotationReceipt(b.id, KEY_DIGEST, DURING))).toEqual({
          successor: bNext,
          sealedSecret: `${SEALED}b`,
        })
        expect(await okValue(store.consumeRotationReceipt(a.id, KEY_DIGEST, DURING))).toEqual({
          successor: aNext,
          sealedSecret: SEALED,
        })
      },
    )

    ctx.test('rotateWithReceipt deletes the receipts expired at its rotation instant', async (store) => {
      const seed = seeder(store)
      const early = await seed.insert({ userId: 3 })
      const earlyEnd = new Date(ROTATED_AT.getTime() - 1)
      await okValue(
        store.rotateWithReceipt(
          early.id,
          successorOf(seed, early, { createdAt: new Date(ROTATED_AT.getTime() - WINDOW_MS) }),
          receipt({ expiresAt: earlyEnd }),
        ),
      )
      const open = await seed.insert({ userId: 4 })
      const openNext = await okValue(
        store.rotateWithReceipt(
          open.id,
          successorOf(seed, open, { createdAt: new Date(ROTATED_AT.getTime() - 2) }),
          receipt(),
        ),
      )
      const late = await seed.insert({ userId: 5 })
      // This rotation happens at ROTATED_AT: the first receipt expired before it, the second did not.
      await okValue(store.rotateWithReceipt(late.id, successorOf(seed, late), receipt()))
      // Asked as if at an instant inside the first receipt's window: it is gone all the same.
      const before = new Date(earlyEnd.getTime() - 1)
      expect(await okValue(store.consumeRotationReceipt(early.id, KEY_DIGEST, before))).toBeNull()
      expect(await okValue(store.consumeRotationReceipt(open.id, KEY_DIGEST, DURING))).toEqual({
        successor: openNext,
        sealedSecret: SEALED,
      })
    })
  })
}
