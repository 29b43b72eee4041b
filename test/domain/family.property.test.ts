import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createToken } from '../../src/domain/create-token.js'
import { tokensToRevokeOnReuse } from '../../src/domain/reuse-detection.js'
import { rotateToken } from '../../src/domain/rotate-token.js'
import { isActive, type Token } from '../../src/domain/token.js'
import { mintContext, stored } from '../support/domain-fixtures.js'

type Command =
  | { kind: 'rotate'; pick: number }
  | { kind: 'revoke'; pick: number }
  | { kind: 'reuse'; pick: number }
  | { kind: 'advance'; days: number }

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant('rotate' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('revoke' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('reuse' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('advance' as const), days: fc.integer({ min: 0, max: 10 }) }),
)

/** Applies commands to one family with the pure transitions, as an authority would, recording history. */
function run(commands: readonly Command[]) {
  let now = new Date('2026-01-01T00:00:00.000Z')
  const tokens = new Map<number, Token>()
  const first = createToken({ userId: 1, name: 'f', scopes: ['api'] }, mintContext(now))._unsafeUnwrap()
  tokens.set(1, stored(first.draft, 1))
  const activeCounts: number[] = []
  // After each command: which tokens are revoked, and which are active at that step's instant.
  const history: { revoked: Set<number>; active: Set<number> }[] = []
  for (const c of commands) {
    const all = [...tokens.values()]
    if (c.kind === 'advance') {
      now = new Date(now.getTime() + c.days * 86_400_000)
    } else {
      const target = all[c.pick % all.length] as Token
      if (c.kind === 'rotate') {
        const r = rotateToken(target, {}, mintContext(now))
        if (r.isOk()) {
          tokens.set(target.id, r.value.revoked)
          const id = tokens.size + 1
          tokens.set(id, stored(r.value.successor, id))
        } else {
          expect(target.revoked).toBe(true)
        }
      } else if (c.kind === 'revoke') {
        tokens.set(target.id, { ...target, revoked: true })
      } else {
        for (const t of tokensToRevokeOnReuse(target, all, now)._unsafeUnwrap()) {
          tokens.set(t.id, { ...t, revoked: true })
        }
      }
    }
    const current = [...tokens.values()]
    history.push({
      revoked: new Set(current.filter((t) => t.revoked).map((t) => t.id)),
      active: new Set(current.filter((t) => isActive(t, now)).map((t) => t.id)),
    })
    activeCounts.push(current.filter((t) => isActive(t, now)).length)
  }
  return { tokens: [...tokens.values()], activeCounts, history }
}

describe('token family properties', () => {
  it('at most one token of a family is active after any sequence of create/rotate/revoke/reuse', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 40 }), (commands) => {
        const { activeCounts } = run(commands)
        for (const n of activeCounts) expect(n).toBeLessThanOrEqual(1)
      }),
      { numRuns: 300 },
    )
  })

  it('a revoked token never becomes active again', () => {
    let revocations = 0
    fc.assert(
      fc.property(fc.array(command, { maxLength: 40 }), (commands) => {
        const { history } = run(commands)
        for (const [i, earlier] of history.entries()) {
          revocations += earlier.revoked.size
          for (const later of history.slice(i + 1)) {
            for (const id of earlier.revoked) {
              expect(later.revoked.has(id), `token ${id} un-revoked after step ${i}`).toBe(true)
              expect(later.active.has(id), `token ${id} active again after step ${i}`).toBe(false)
            }
          }
        }
      }),
      { numRuns: 300 },
    )
    // The runs did revoke tokens (by rotation, revocation and reuse), so the property was exercised.
    expect(revocations).toBeGreaterThan(100)
  })

  it('each token has at most one successor and each non-first token exactly one predecessor', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 40 }), (commands) => {
        const { tokens } = run(commands)
        const ids = new Set(tokens.map((t) => t.id))
        const successorCount = new Map<number, number>()
        for (const t of tokens) {
          expect(t.familyId).toBe(1)
          if (t.id === 1) {
            expect(t.previousId).toBeNull()
            continue
          }
          expect(t.previousId).not.toBeNull()
          expect(ids.has(t.previousId as number)).toBe(true)
          expect(t.previousId as number).toBeLessThan(t.id)
          successorCount.set(t.previousId as number, (successorCount.get(t.previousId as number) ?? 0) + 1)
        }
        for (const count of successorCount.values()) expect(count).toBe(1)
      }),
      { numRuns: 300 },
    )
  })
})
