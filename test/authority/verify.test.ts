import { errAsync } from 'neverthrow'
import { describe, expect, it } from 'vitest'
import { storeFailure } from '../../src/domain/error-constructors.js'
import { createAuthority, VerifyCode } from '../../src/index.js'
import { memoryStore } from '../../src/memory/index.js'
import { ALICE, BLOCKED, T0, world } from '../support/authority-fixtures.js'

describe('issue 13: verify answers with a value and a stable code', () => {
  it('a valid token is valid, with its principal', async () => {
    const { authority, issue } = await world()
    const { token, secret } = await issue(ALICE.id)
    const checked = (await authority.verify(secret))._unsafeUnwrap()
    expect(checked.valid && checked.principal.token.id).toBe(token.id)
  })

  it('each refusal has its code', async () => {
    const { authority, issue } = await world()
    const revoked = await issue(ALICE.id, { revoked: true })
    const expired = await issue(ALICE.id, { expiresAt: '2026-03-01' })
    const blocked = await issue(BLOCKED.id)
    const reader = await issue(ALICE.id, { scopes: ['read_user'] })
    const minted = (
      await authority.issueToken({ userId: ALICE.id, name: 'x', scopes: ['api'] })
    )._unsafeUnwrap()
    const typo = `${minted.secret.slice(0, -1)}${minted.secret.at(-1) === 'a' ? 'b' : 'a'}`
    const cases: readonly [string | null | undefined, object][] = [
      [undefined, { valid: false, code: VerifyCode.Missing }],
      ['', { valid: false, code: 'missing' }],
      [typo, { valid: false, code: 'malformed' }],
      ['glpat-no-such-token', { valid: false, code: 'unknown' }],
      [blocked.secret, { valid: false, code: 'user_inactive' }],
      [expired.secret, { valid: false, code: 'expired', tokenId: expired.token.id }],
      [revoked.secret, { valid: false, code: 'revoked', tokenId: revoked.token.id }],
    ]
    for (const [secret, expected] of cases) {
      expect((await authority.verify(secret))._unsafeUnwrap()).toEqual(expected)
    }
    expect((await authority.verify(reader.secret, { scopes: ['api', 'read_api'] }))._unsafeUnwrap()).toEqual({
      valid: false,
      code: 'insufficient_scope',
      tokenId: reader.token.id,
    })
    expect((await authority.verify(reader.secret, { scopes: ['read_user'] }))._unsafeUnwrap().valid).toBe(
      true,
    )
  })

  it('is authenticate itself: a verification records last use', async () => {
    const { authority, issue, store } = await world()
    const { token, secret } = await issue(ALICE.id)
    ;(await authority.verify(secret))._unsafeUnwrap()
    expect((await store.findById(token.id))._unsafeUnwrap()?.lastUsedAt).toEqual(T0)
  })

  it('a store failure stays an error: it says nothing about the secret', async () => {
    const store = memoryStore()
    const cause = new Error('down')
    const broken = createAuthority({
      store: {
        ...store,
        findByDigest: () => errAsync(storeFailure('findByDigest', cause)),
        findByDigestWithUser: () => errAsync(storeFailure('findByDigestWithUser', cause)),
      },
      pepper: 'p',
    })
    expect((await broken.verify('glpat-anything'))._unsafeUnwrapErr()).toMatchObject({
      type: 'store_failure',
      cause,
    })
  })
})
