import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Actor } from '../../src/index.js'
import { ALICE, BOB, DAY, world } from '../support/authority-fixtures.js'

// A session principal (asUser) acts on ids exactly as a token principal of the same non-administrator
// user with the `api` scope: over random sequences of list, get, rotate, revoke and createOwn on
// Alice's and Bob's tokens (impersonation tokens included), both worlds answer the same and end in
// the same state. The login token of the token world exists in both and is never a target.

type Op =
  | { readonly kind: 'list' }
  | { readonly kind: 'get' | 'rotate' | 'revoke'; readonly target: number }
  | { readonly kind: 'createOwn'; readonly scopes: readonly string[]; readonly expiresAt: string | undefined }
  | { readonly kind: 'advance' }

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.constant({ kind: 'list' as const }),
  fc.record({
    kind: fc.constantFrom('get' as const, 'rotate' as const, 'revoke' as const),
    target: fc.nat(14),
  }),
  fc.record({
    kind: fc.constant('createOwn' as const),
    scopes: fc.constantFrom(['api'], ['read_api', 'read_user'], ['sudo'], ['nope'], []),
    expiresAt: fc.constantFrom(undefined, '2026-04-01', '2020-01-01', '2030-01-01'),
  }),
  fc.constant({ kind: 'advance' as const }),
)

async function build(kind: 'session' | 'token') {
  const w = await world()
  // The same tokens in both worlds, in the same order (seeded randomness gives the same secrets).
  const login = await w.issue(ALICE.id, { name: 'login', scopes: ['api'] })
  await w.issue(ALICE.id, { name: 'a1', scopes: ['read_api'] })
  await w.issue(ALICE.id, { name: 'a-imp', impersonation: true })
  await w.issue(BOB.id, { name: 'b1' })
  await w.issue(ALICE.id, { name: 'a-revoked', revoked: true })
  const principal = async (): Promise<Actor> => {
    // Both worlds authenticate the login token, so its lastUsedAt moves alike.
    const token = (await w.authority.authenticate(login.secret))._unsafeUnwrap()
    return kind === 'token' ? token : (await w.authority.asUser(ALICE.id))._unsafeUnwrap()
  }
  return { ...w, loginId: login.token.id, principal }
}

async function apply(w: Awaited<ReturnType<typeof build>>, o: Op): Promise<unknown> {
  if (o.kind === 'advance') {
    w.clock.advance(DAY)
    return null
  }
  const p = await w.principal()
  const strip = (r: { isOk(): boolean; _unsafeUnwrap(): unknown; _unsafeUnwrapErr(): unknown }) =>
    r.isOk() ? { ok: r._unsafeUnwrap() } : { err: r._unsafeUnwrapErr() }
  switch (o.kind) {
    case 'list':
      return strip(await w.authority.list(p, { page: { perPage: 100 } }))
    case 'get':
      return strip(await w.authority.get(p, o.target))
    case 'rotate':
      return strip(await w.authority.rotate(p, o.target))
    case 'revoke':
      return strip(await w.authority.revoke(p, o.target))
    case 'createOwn':
      return strip(
        await w.authority.createOwn(p, {
          name: 'own',
          scopes: o.scopes,
          ...(o.expiresAt === undefined ? {} : { expiresAt: o.expiresAt }),
        }),
      )
  }
}

describe('issue 13: a session principal and an api token of the same user, properties', () => {
  it('answer every operation on ids alike and leave the same state', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 15 }), async (ops) => {
        const [session, token] = await Promise.all([build('session'), build('token')])
        for (const [step, o] of ops.entries()) {
          if ('target' in o && o.target === session.loginId) continue
          const a = await apply(session, o)
          const b = await apply(token, o)
          expect(a, `step ${step}: ${JSON.stringify(o)}`).toEqual(b)
        }
        const all = async (w: typeof session) =>
          (
            await w.store.list({
              filter: {},
              sort: 'id_asc',
              page: { page: 1, perPage: 100 },
              now: w.clock.now(),
            })
          )._unsafeUnwrap().items
        expect(await all(session)).toEqual(await all(token))
      }),
      { numRuns: 100 },
    )
  })
})
