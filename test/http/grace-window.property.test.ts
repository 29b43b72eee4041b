import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { memoryStore } from '../../src/memory/index.js'
import { T0 } from '../support/authority-fixtures.js'
import { BASE, type RotationWorld, rotatedSecret, rotationWorld, send } from '../support/rotation-harness.js'

// The rotation grace window (issue 13), against an independent model of the rules over random
// sequences of rotations, uses and clock steps, sent through the HTTP handler:
// 1. With the window off (the default), every answer is today's: a revoked token is refused (401),
//    and presented to a rotation it is reuse detection (the tokens rotated from it are revoked).
// 2. With a window, the immediate predecessor of an active successor rotated to less than the window
//    ago still works; a rotation replayed with it gets the same successor once while the successor is
//    unused, else 400 (already revoked), never reuse detection; older generations are as today.
// After every step the store agrees with the model on every token, and no family has two active tokens.

const SEEDED: readonly [string, string, string] = [
  'glpat-grace-alice-00000001',
  'glpat-grace-alice-00000002',
  'glpat-grace-root-000000003',
]
const WINDOW_MS = 30_000

function setup(windowMs: number | undefined): Promise<RotationWorld> {
  return rotationWorld(
    memoryStore(),
    SEEDED,
    { pepper: 'grace-pepper', ...(windowMs === undefined ? {} : { rotationGraceMs: windowMs }) },
    9,
  )
}

type Command =
  | { readonly kind: 'rotate'; readonly who: number; readonly byId: boolean }
  | { readonly kind: 'use'; readonly who: number }
  | { readonly kind: 'advance'; readonly ms: number }

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('rotate' as const), who: fc.nat(15), byId: fc.boolean() }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('use' as const), who: fc.nat(15) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      ms: fc.constantFrom(1, 10_000, WINDOW_MS - 1, WINDOW_MS),
    }),
  },
)

interface ModelToken {
  readonly id: number
  readonly secret: string
  readonly previousId: number | null
  readonly createdAt: number
  revoked: boolean
  used: boolean
}

type Expected =
  | { readonly kind: 'rotated' }
  | { readonly kind: 'replayed'; readonly of: ModelToken }
  | { readonly kind: 'already_revoked' }
  | { readonly kind: 'reuse' }

/** The rules, written from the documentation, independently of the implementation. */
class Model {
  readonly tokens: ModelToken[] = SEEDED.map((secret, i) => ({
    id: i + 1,
    secret,
    previousId: null,
    createdAt: T0.getTime(),
    revoked: false,
    used: false,
  }))
  /** The grace receipts still unspent, by the rotated token's id: the successor and the deadline. */
  readonly receipts = new Map<number, { readonly successorId: number; readonly expiresAt: number }>()
  now = T0.getTime()

  constructor(readonly windowMs: number) {}

  successorOf(token: ModelToken): ModelToken | undefined {
    return this.tokens.find((t) => t.previousId === token.id)
  }

  /** Whether a revoked token still works: inside the window after its successor, which is active. */
  graced(token: ModelToken): boolean {
    const successor = this.successorOf(token)
    return (
      this.windowMs > 0 &&
      successor !== undefined &&
      !successor.revoked &&
      this.now < successor.createdAt + this.windowMs
    )
  }

  works(token: ModelToken): boolean {
    return !token.revoked || this.graced(token)
  }

  revokeDescendants(token: ModelToken): void {
    for (const next of this.tokens.filter((t) => t.previousId === token.id)) {
      next.revoked = true
      this.revokeDescendants(next)
    }
  }

  rotate(token: ModelToken): Expected {
    if (!token.revoked) return { kind: 'rotated' }
    const receipt = this.receipts.get(token.id)
    const successor =
      receipt === undefined ? undefined : this.tokens.find((t) => t.id === receipt.successorId)
    if (
      receipt !== undefined &&
      successor !== undefined &&
      this.now < receipt.expiresAt &&
      !successor.revoked &&
      !successor.used
    ) {
      this.receipts.delete(token.id)
      return { kind: 'replayed', of: successor }
    }
    if (this.graced(token)) return { kind: 'already_revoked' }
    this.revokeDescendants(token)
    return { kind: 'reuse' }
  }

  addSuccessor(old: ModelToken, id: number, secret: string): void {
    old.revoked = true
    this.tokens.push({ id, secret, previousId: old.id, createdAt: this.now, revoked: false, used: false })
    if (this.windowMs > 0) this.receipts.set(old.id, { successorId: id, expiresAt: this.now + this.windowMs })
  }
}

async function run(windowMs: number | undefined, commands: readonly Command[], seen: Record<string, number>) {
  const { handler, clock, store } = await setup(windowMs)
  const model = new Model(windowMs ?? 0)
  for (const [step, c] of commands.entries()) {
    const at = `step ${step}: ${JSON.stringify(c)}`
    if (c.kind === 'advance') {
      clock.advance(c.ms)
      model.now += c.ms
      continue
    }
    const token = model.tokens[c.who % model.tokens.length]
    if (token === undefined) throw new Error('the model has no tokens')
    const headers = { 'PRIVATE-TOKEN': token.secret }
    if (c.kind === 'use') {
      const answer = await send(handler, new Request(`${BASE}/self`, { headers }))
      const works = model.works(token)
      seen[works ? (token.revoked ? 'graced use' : 'use') : 'refused use'] =
        (seen[works ? (token.revoked ? 'graced use' : 'use') : 'refused use'] ?? 0) + 1
      expect(answer.status, at).toBe(works ? 200 : 401)
      if (works) token.used = true
    } else {
      const path = c.byId ? `${token.id}/rotate` : 'self/rotate'
      const answer = await send(handler, new Request(`${BASE}/${path}`, { method: 'POST', headers }))
      const expected = model.rotate(token)
      seen[expected.kind] = (seen[expected.kind] ?? 0) + 1
      const rotated = rotatedSecret(answer)
      expect(
        answer.headers.some(([name]) => name === 'idempotent-replayed'),
        at,
      ).toBe(false)
      switch (expected.kind) {
        case 'rotated':
          expect(answer.status, at).toBe(200)
          if (rotated === null) throw new Error(`${at}: no token in ${answer.body}`)
          token.used = true
          model.addSuccessor(token, rotated.id, rotated.token)
          break
        case 'replayed':
          expect(answer.status, at).toBe(200)
          expect(rotated, at).toEqual({ id: expected.of.id, token: expected.of.secret })
          break
        case 'already_revoked':
          expect(answer, at).toMatchObject({
            status: 400,
            body: '{"message":"400 Bad request - Token already revoked"}',
          })
          break
        case 'reuse':
          expect(answer.status, at).toBe(401)
          break
      }
    }
    for (const t of model.tokens) {
      expect((await store.findById(t.id))._unsafeUnwrap()?.revoked, `${at}: token ${t.id}`).toBe(t.revoked)
    }
    const { items } = (
      await store.list({
        filter: { state: 'active' },
        sort: 'id_asc',
        page: { page: 1, perPage: 100 },
        now: clock.now(),
      })
    )._unsafeUnwrap()
    const families = items.map((t) => t.familyId)
    expect(new Set(families).size, at).toBe(families.length)
  }
}

// Up to 200 runs of 30 commands through the HTTP handler each: seconds of CPU, more on a busy machine.
describe('the rotation grace window, properties', { timeout: 30_000 }, () => {
  it('off (the default), every answer follows today’s rules: refusal, reuse detection', async () => {
    const seen: Record<string, number> = {}
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 30 }), (commands) =>
        run(undefined, commands, seen),
      ),
      { numRuns: 150 },
    )
    for (const kind of ['rotated', 'reuse', 'use', 'refused use']) expect(seen[kind], kind).toBeGreaterThan(0)
    expect(seen['replayed'] ?? 0).toBe(0)
    expect(seen['graced use'] ?? 0).toBe(0)
  })

  it('on, the previous generation works inside the window and a replay gets the same successor once', async () => {
    const seen: Record<string, number> = {}
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 30 }), (commands) =>
        run(WINDOW_MS, commands, seen),
      ),
      { numRuns: 200 },
    )
    // Every outcome was reached, so the comparison above was exercised.
    for (const kind of [
      'rotated',
      'replayed',
      'already_revoked',
      'reuse',
      'use',
      'graced use',
      'refused use',
    ]) {
      expect(seen[kind], kind).toBeGreaterThan(0)
    }
  })
})
