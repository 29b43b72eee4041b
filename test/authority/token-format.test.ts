import { describe, expect, it } from 'vitest'
import type { TokenFormat } from '../../src/domain/mint-secret.js'
import { checkRoutableSecret } from '../../src/domain/routable-token.js'
import { AuthorityConfigError, createAuthority } from '../../src/index.js'
import { memoryStore } from '../../src/memory/index.js'
import type { TokenStore } from '../../src/store/token-store.js'
import { ALICE, world } from '../support/authority-fixtures.js'

const ROUTABLE = /^glpat-[A-Za-z0-9_-]{32,}\.01\.[0-9a-z]{9}$/
const LEGACY = /^glpat-[A-Za-z0-9_-]{20}$/

// The routing payload of a routable secret: `o:<org>\nu:<user>` in base 36, after 16 random bytes.
function payloadOf(secret: string): string {
  const body = secret.slice('glpat-'.length, secret.indexOf('.'))
  const bytes = Buffer.from(body, 'base64url')
  return bytes.subarray(16, bytes.length - 1).toString('utf8')
}

describe('token format', () => {
  it('new secrets are routable by default, with the owner in the payload, and they authenticate', async () => {
    const { authority, login } = await world()
    const rotated = (await authority.rotate(await login(ALICE.id), 'self'))._unsafeUnwrap()
    expect(rotated.secret).toMatch(ROUTABLE)
    expect(checkRoutableSecret(rotated.secret, 'glpat-')).toBe('valid')
    expect(payloadOf(rotated.secret)).toBe(`o:1\nu:${ALICE.id.toString(36)}`)
    expect((await authority.authenticate(rotated.secret)).isOk()).toBe(true)
  })

  it.each([
    [{ release: '18.2' as const }, LEGACY],
    [{ release: '16.9' as const }, LEGACY],
    [{ release: '18.3' as const }, ROUTABLE],
    [{ tokenFormat: 'legacy' as TokenFormat }, LEGACY],
    [{ release: '16.9' as const, tokenFormat: 'routable' as TokenFormat }, ROUTABLE],
  ])('%j makes secrets like %s', async (options, pattern) => {
    const { authority, login } = await world(options)
    const issued = (
      await authority.issueToken({ userId: ALICE.id, name: 'ci', scopes: ['api'] })
    )._unsafeUnwrap()
    expect(issued.secret).toMatch(pattern)
    expect((await authority.authenticate(issued.secret)).isOk()).toBe(true)
    expect(await login(ALICE.id)).toBeDefined()
  })

  it('a routable secret with a wrong checksum is refused without any store lookup', async () => {
    const store = memoryStore()
    let lookups = 0
    const counting: TokenStore = {
      ...store,
      findByDigest: (digest) => {
        lookups++
        return store.findByDigest(digest)
      },
      findByDigestWithUser: (digest) => {
        lookups++
        return store.findByDigest(digest).map((token) => (token === null ? null : { token, user: ALICE }))
      },
    }
    await store.putUser(ALICE)
    const authority = createAuthority({ store: counting, pepper: 'p' })
    const { secret } = (
      await authority.issueToken({ userId: ALICE.id, name: 'ci', scopes: ['api'] })
    )._unsafeUnwrap()
    lookups = 0
    const last = secret.at(-1) === 'a' ? 'b' : 'a'
    const typo = `${secret.slice(0, -1)}${last}`
    expect((await authority.authenticate(typo))._unsafeUnwrapErr()).toEqual({
      type: 'unauthenticated',
      reason: 'malformed',
    })
    expect(lookups).toBe(0)
    // A secret of another shape is looked up as before (seeds may hold any string).
    expect((await authority.authenticate('glpat-any-seeded-secret'))._unsafeUnwrapErr()).toEqual({
      type: 'unauthenticated',
      reason: 'unknown',
    })
    expect(lookups).toBe(1)
  })

  it('seeded secrets of any format keep working', async () => {
    const { authority } = await world()
    for (const secret of ['glpat-any-secret-string', 'glpat-0123456789abcdefghij', 'custom-prefix.secret']) {
      await authority.issueToken({ userId: ALICE.id, name: 'seeded', scopes: ['api'], secret })
      expect((await authority.authenticate(secret)).isOk(), secret).toBe(true)
    }
  })

  it('an unknown format names the option', () => {
    expect(() =>
      createAuthority({ store: memoryStore(), pepper: 'p', tokenFormat: 'jwt' as TokenFormat }),
    ).toThrow(AuthorityConfigError)
  })
})
