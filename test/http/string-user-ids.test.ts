import { describe, expect, it } from 'vitest'
import { routableSecret } from '../../src/domain/routable-token.js'
import { STRING_USER_IDS_REFUSED } from '../../src/http/handler-core.js'
import { authenticateRequest, createHandler } from '../../src/http/index.js'
import { createAuthority } from '../../src/index.js'
import { memoryStore } from '../../src/memory/index.js'
import { createNodeListener } from '../../src/node/index.js'

describe("issue 13: GitLab's HTTP API over an authority with string user ids", () => {
  const stringIds = () =>
    createAuthority({ store: memoryStore({ userIdType: 'string' }), pepper: 'p', userIdType: 'string' })

  it('createHandler and createNodeListener refuse to start, saying why and what to use instead', () => {
    expect(() => createHandler(stringIds())).toThrow(new TypeError(STRING_USER_IDS_REFUSED))
    expect(() => createNodeListener(stringIds())).toThrow(new TypeError(STRING_USER_IDS_REFUSED))
    expect(STRING_USER_IDS_REFUSED).toContain("userIdType 'string'")
  })

  it("authenticateRequest guards an application's own routes with string-id tokens", async () => {
    const authority = stringIds()
    const id = '0b8f6c9e-5d2a-4f8e-9c1e-2f4a6b8d0e13'
    ;(await authority.users.put({ id, username: 'alice', admin: false, blocked: false }))._unsafeUnwrap()
    const { secret } = (
      await authority.issueToken({ userId: id, name: 'ci', scopes: ['api'] })
    )._unsafeUnwrap()
    const request = new Request('http://localhost/app', { headers: { authorization: `Bearer ${secret}` } })
    const principal = (await authenticateRequest(request, { authority, scopes: ['api'] }))._unsafeUnwrap()
    expect(principal.user.id).toBe(id)
    const refused = await authenticateRequest(new Request('http://localhost/app'), {
      authority,
      scopes: ['api'],
    })
    expect(refused._unsafeUnwrapErr().status).toBe(401)
  })

  it('an integer authority (the default) still serves GitLab integer user ids', async () => {
    const authority = createAuthority({ store: memoryStore(), pepper: 'p' })
    ;(await authority.users.put({ id: 2, username: 'alice', admin: false, blocked: false }))._unsafeUnwrap()
    const { secret } = (
      await authority.issueToken({ userId: 2, name: 'ci', scopes: ['api'] })
    )._unsafeUnwrap()
    const response = await createHandler(authority)(
      new Request('http://localhost/api/v4/personal_access_tokens/self', {
        headers: { 'PRIVATE-TOKEN': secret },
      }),
    )
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('"user_id":2,')
  })
})

describe('the routable payload of a string user id', () => {
  const bytes = new Uint8Array(16).fill(7)
  const payloadOf = (secret: string) => {
    const body = secret.slice('glpat-'.length, secret.indexOf('.'))
    const decoded = Buffer.from(body, 'base64url')
    return decoded.subarray(16, decoded.length - 1).toString('utf8')
  }

  it('keeps `u:` in base 36 for an integer id and leaves a string id out', () => {
    expect(payloadOf(routableSecret(bytes, 'glpat-', { userId: 1295 }))).toBe('o:1\nu:zz')
    for (const userId of ['0b8f6c9e-5d2a-4f8e-9c1e-2f4a6b8d0e13', 'x'.repeat(255), '42']) {
      expect(payloadOf(routableSecret(bytes, 'glpat-', { userId })), userId).toBe('o:1')
    }
  })
})
