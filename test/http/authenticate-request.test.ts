import fc from 'fast-check'
import { errAsync } from 'neverthrow'
import { describe, expect, it } from 'vitest'
import { storeFailure } from '../../src/domain/error-constructors.js'
import { SCOPES, type Scope } from '../../src/domain/scopes.js'
import { authenticateRequest, createHandler, type GuardOptions } from '../../src/http/index.js'
import { createAuthority } from '../../src/index.js'
import { memoryStore } from '../../src/memory/index.js'
import { ALICE, BLOCKED, world } from '../support/authority-fixtures.js'

const ORIGIN = 'http://app.test'
const GITLAB_CHALLENGE = 'Bearer realm="Protected by OAuth 2.0"'
const EXPIRED =
  '{"error":"invalid_token","error_description":"Token is expired. You can either do re-authorization or token refresh."}'
const REVOKED =
  '{"error":"invalid_token","error_description":"Token was revoked. You have to re-authorize from the user."}'

function get(path: string, headers: Record<string, string> = {}): Request {
  return new Request(`${ORIGIN}${path}`, { headers })
}

async function refused(request: Request, options: GuardOptions) {
  const outcome = await authenticateRequest(request, options)
  expect(outcome.isErr()).toBe(true)
  const response = outcome._unsafeUnwrapErr()
  return { status: response.status, headers: response.headers, text: await response.text() }
}

describe('authenticateRequest: the principal of a token with an allowed scope', () => {
  it('reads the token from PRIVATE-TOKEN and Authorization: Bearer', async () => {
    const { authority, issue } = await world()
    const { secret, token } = await issue(ALICE.id, { scopes: ['read_api'] })
    const options = { authority, scopes: ['read_api'] } as const
    for (const request of [
      get('/me', { 'PRIVATE-TOKEN': secret }),
      get('/me', { authorization: `Bearer ${secret}` }),
    ]) {
      const principal = (await authenticateRequest(request, options))._unsafeUnwrap()
      expect(principal.user.username).toBe(ALICE.username)
      expect(principal.token.id).toBe(token.id)
    }
  })

  it("credentials: 'headers_or_query' reads the private_token query parameter too, as GitLab's API", async () => {
    const { authority, issue } = await world()
    const { secret, token } = await issue(ALICE.id, { scopes: ['read_api'] })
    const options = { authority, scopes: ['read_api'], credentials: 'headers_or_query' } as const
    for (const request of [
      get(`/me?private_token=${encodeURIComponent(secret)}`),
      get('/me', { 'PRIVATE-TOKEN': secret }),
      get('/me', { authorization: `Bearer ${secret}` }),
    ]) {
      expect((await authenticateRequest(request, options))._unsafeUnwrap().token.id).toBe(token.id)
    }
  })

  it('never reads the body: a private_token in a form body is not a token, and the body is left unread', async () => {
    const { authority, issue } = await world()
    const { secret } = await issue(ALICE.id)
    const request = new Request(`${ORIGIN}/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `private_token=${secret}`,
    })
    const r = await refused(request, { authority, scopes: ['api'] })
    expect(r.status).toBe(401)
    expect(request.bodyUsed).toBe(false)
    expect(await request.text()).toBe(`private_token=${secret}`)
  })

  it("scopes: 'any' lets every valid token in, whatever its scopes", async () => {
    const { authority, issue } = await world()
    const { secret } = await issue(ALICE.id, { scopes: ['k8s_proxy'] })
    const outcome = await authenticateRequest(get('/me', { 'PRIVATE-TOKEN': secret }), {
      authority,
      scopes: 'any',
    })
    expect(outcome._unsafeUnwrap().token.scopes).toEqual(['k8s_proxy'])
  })
})

describe('authenticateRequest: headers only by default', () => {
  /** The authority, with a count of the lookups its guard makes. */
  async function counted() {
    const w = await world()
    let lookups = 0
    const authority: typeof w.authority = {
      ...w.authority,
      authenticate: (secret, options) => {
        lookups += 1
        return w.authority.authenticate(secret, options)
      },
    }
    return { ...w, authority, lookups: () => lookups }
  }

  it('a private_token query parameter is refused with a bare 401 challenge, unread, even beside a valid header', async () => {
    const { authority, issue, lookups, events } = await counted()
    const { secret } = await issue(ALICE.id)
    events.length = 0
    const query = `private_token=${encodeURIComponent(secret)}`
    for (const request of [
      get(`/me?${query}`),
      get(`/me?${query}`, { 'PRIVATE-TOKEN': secret }),
      get(`/me?page=2&${query}`, { authorization: `Bearer ${secret}` }),
    ]) {
      const r = await refused(request, { authority, scopes: 'any' })
      expect(r.status).toBe(401)
      expect(r.text).toBe('{"message":"401 Unauthorized"}')
      expect(r.headers.get('www-authenticate')).toBe(GITLAB_CHALLENGE)
    }
    for (const credentials of ['headers', undefined] as const) {
      const r = await refused(get(`/me?${query}`), {
        authority,
        scopes: 'any',
        realm: 'app',
        ...(credentials === undefined ? {} : { credentials }),
      })
      expect(r.headers.get('www-authenticate')).toBe('Bearer realm="app"')
    }
    // Not looked up: no store read, and the token's use is not recorded.
    expect(lookups()).toBe(0)
    expect(events).toEqual([])
  })

  it('an empty private_token parameter is no token: the header decides', async () => {
    const { authority, issue } = await counted()
    const { secret, token } = await issue(ALICE.id)
    const outcome = await authenticateRequest(get('/me?private_token=', { 'PRIVATE-TOKEN': secret }), {
      authority,
      scopes: 'any',
    })
    expect(outcome._unsafeUnwrap().token.id).toBe(token.id)
  })
})

describe('authenticateRequest: an application’s own scope vocabulary', () => {
  it('guards with the authority’s configured scopes as with GitLab’s', async () => {
    const { authority, issue } = await world({ scopes: ['notes:read', 'notes:write', 'billing'] })
    const { secret } = await issue(ALICE.id, { scopes: ['notes:read'] })
    const request = () => get('/notes', { 'PRIVATE-TOKEN': secret })
    const reader = await authenticateRequest(request(), { authority, scopes: ['notes:read', 'notes:write'] })
    expect(reader._unsafeUnwrap().token.scopes).toEqual(['notes:read'])
    const r = await refused(request(), { authority, scopes: ['billing'] })
    expect(r.status).toBe(403)
    expect(r.headers.get('www-authenticate')).toContain('error="insufficient_scope", ')
    expect(r.headers.get('www-authenticate')).toMatch(/, scope="billing"$/)
  })
})

describe('authenticateRequest: refusals with GitLab’s bodies and an RFC 6750 challenge', () => {
  it('401 without a token: GitLab’s body and a bare challenge (no error code, RFC 6750 3.1)', async () => {
    const { authority } = await world()
    const r = await refused(get('/me'), { authority, scopes: ['api'] })
    expect(r.status).toBe(401)
    expect(r.text).toBe('{"message":"401 Unauthorized"}')
    expect(r.headers.get('content-type')).toBe('application/json')
    expect(r.headers.get('www-authenticate')).toBe(GITLAB_CHALLENGE)
  })

  it('401 for an unknown token: error="invalid_token"', async () => {
    const { authority } = await world()
    const r = await refused(get('/me', { 'PRIVATE-TOKEN': 'glpat-no-such-token' }), {
      authority,
      scopes: ['api'],
    })
    expect(r.status).toBe(401)
    expect(r.text).toBe('{"message":"401 Unauthorized"}')
    expect(r.headers.get('www-authenticate')).toBe(`${GITLAB_CHALLENGE}, error="invalid_token"`)
  })

  it('403 for a blocked user’s valid token: GitLab’s body and, as GitLab, no challenge (not a token error)', async () => {
    const { authority, issue } = await world()
    const blocked = await issue(BLOCKED.id)
    const api = createHandler(authority)
    const r = await refused(get('/me', { 'PRIVATE-TOKEN': blocked.secret }), { authority, scopes: ['api'] })
    const gitlab = await api(
      new Request(`${ORIGIN}/api/v4/personal_access_tokens/self`, {
        headers: { 'PRIVATE-TOKEN': blocked.secret },
      }),
    )
    expect(r.status).toBe(403)
    expect(r.text).toBe('{"message":"403 Forbidden - Your account has been blocked."}')
    expect(r.text).toBe(await gitlab.text())
    expect(r.headers.get('www-authenticate')).toBeNull()
  })

  it('401 for an expired or a revoked token: byte for byte what GitLab’s API answers (the handler’s answer)', async () => {
    const { authority, issue } = await world()
    const expired = await issue(ALICE.id, { expiresAt: '2026-03-01' })
    const revoked = await issue(ALICE.id, { revoked: true })
    const api = createHandler(authority)
    for (const [secret, body] of [
      [expired.secret, EXPIRED],
      [revoked.secret, REVOKED],
    ] as const) {
      const r = await refused(get('/me', { 'PRIVATE-TOKEN': secret }), { authority, scopes: ['api'] })
      const gitlab = await api(
        new Request(`${ORIGIN}/api/v4/personal_access_tokens/self`, { headers: { 'PRIVATE-TOKEN': secret } }),
      )
      expect(r.status).toBe(401)
      expect(r.text).toBe(body)
      expect(r.text).toBe(await gitlab.text())
      expect(r.headers.get('www-authenticate')).toBe(gitlab.headers.get('www-authenticate'))
      expect(r.headers.get('www-authenticate')).toMatch(
        /^Bearer realm="Protected by OAuth 2\.0", error="invalid_token", error_description="/,
      )
    }
  })

  it('403 insufficient_scope: GitLab’s body, and the challenge GitLab omits, with the allowed scopes', async () => {
    const { authority, issue } = await world()
    const { secret } = await issue(ALICE.id, { scopes: ['read_user'] })
    const r = await refused(get('/me', { 'PRIVATE-TOKEN': secret }), {
      authority,
      scopes: ['read_api', 'api'],
    })
    expect(r.status).toBe(403)
    expect(r.text).toBe(
      '{"error":"insufficient_scope","error_description":"The request requires higher privileges than provided by the access token.","scope":"read_api api"}',
    )
    expect(r.headers.get('www-authenticate')).toBe(
      `${GITLAB_CHALLENGE}, error="insufficient_scope", error_description="The request requires higher privileges than provided by the access token.", scope="read_api api"`,
    )
  })

  it('the realm is configurable, and quoted: `"` and `\\` are escaped', async () => {
    const { authority } = await world()
    const plain = await refused(get('/me'), { authority, scopes: ['api'], realm: 'my-app' })
    expect(plain.headers.get('www-authenticate')).toBe('Bearer realm="my-app"')
    const odd = await refused(get('/me'), { authority, scopes: ['api'], realm: 'say "hi" \\o/' })
    expect(odd.headers.get('www-authenticate')).toBe('Bearer realm="say \\"hi\\" \\\\o/"')
  })

  it('a realm no header can carry is a programming error, thrown at once', async () => {
    const { authority } = await world()
    expect(() => authenticateRequest(get('/me'), { authority, scopes: ['api'], realm: 'a\r\nb' })).toThrow(
      TypeError,
    )
  })

  it('a store failure is GitLab’s 500, without a challenge (not the token’s fault)', async () => {
    const store = memoryStore({ users: [ALICE] })
    const down = () => errAsync(storeFailure('findByDigest', new Error('down')))
    const failing = { ...store, findByDigest: down, findByDigestWithUser: down }
    const authority = createAuthority({ store: failing, pepper: 'test-pepper' })
    const r = await refused(get('/me', { 'PRIVATE-TOKEN': 'glpat-anything' }), { authority, scopes: ['api'] })
    expect(r.status).toBe(500)
    expect(r.text).toBe('{"message":"500 Internal Server Error"}')
    expect(r.headers.get('www-authenticate')).toBeNull()
  })
})

describe('authenticateRequest: scopes (property)', () => {
  const scope = fc.constantFrom(...SCOPES)
  const scopes = fc.uniqueArray(scope, { minLength: 1, maxLength: 4 })

  it('ok exactly when the token has one of the allowed scopes; else 403 naming the allowed ones', async () => {
    const { authority, issue } = await world()
    await fc.assert(
      fc.asyncProperty(scopes, scopes, async (granted, allowed) => {
        const { secret } = await issue(ALICE.id, { scopes: granted as Scope[] })
        const outcome = await authenticateRequest(get('/me', { 'PRIVATE-TOKEN': secret }), {
          authority,
          scopes: allowed,
        })
        const expected = granted.some((s) => allowed.includes(s))
        expect(outcome.isOk()).toBe(expected)
        if (outcome.isErr()) {
          expect(outcome.error.status).toBe(403)
          const body = (await outcome.error.json()) as { scope: string }
          expect(body.scope).toBe(allowed.join(' '))
          expect(outcome.error.headers.get('www-authenticate')).toContain(`scope="${allowed.join(' ')}"`)
        }
      }),
      { numRuns: 60 },
    )
  })
})
