import { describe, expect, it } from 'vitest'
import { createAuthority } from '../../src/authority/create-authority.js'
import type { PatkitError } from '../../src/domain/errors.js'
import { createHandler } from '../../src/http/index.js'
import { memoryStore } from '../../src/memory/memory-store.js'

// Issue 32: the handler hands the typed error of each refusal to `HandlerOptions.onRefusal` (the fake's
// journal explains its refusals with it); the answer is the same with or without it.

const BASE = 'http://gitlab.test/api/v4'

async function world() {
  const authority = createAuthority({ store: memoryStore(), pepper: 'on-refusal', release: '15.0' })
  await authority.users.put({ id: 2, username: 'alice', admin: false, blocked: false })
  const issued = await authority.issueToken({
    userId: 2,
    name: 'ci',
    scopes: ['read_user'],
    expiresAt: '2030-01-01',
  })
  return { authority, secret: issued._unsafeUnwrap().secret }
}

describe('HandlerOptions.onRefusal', () => {
  it('receives the typed error of each refusal, and nothing for an answered request', async () => {
    const { authority, secret } = await world()
    const seen: PatkitError[] = []
    const handler = createHandler(authority, { onRefusal: (error) => seen.push(error) })
    const get = (path: string, token?: string) =>
      handler(
        new Request(`${BASE}${path}`, token === undefined ? {} : { headers: { 'PRIVATE-TOKEN': token } }),
      )
    expect((await get('/personal_access_tokens/self', secret)).status).toBe(200)
    expect((await get('/personal_access_tokens/self')).status).toBe(401)
    expect((await get('/personal_access_tokens/self', 'glpat-nobody-has-this-one')).status).toBe(401)
    expect((await get('/personal_access_tokens', secret)).status).toBe(403)
    expect((await get('/metadata', secret)).status).toBe(404)
    expect(seen).toEqual([
      { type: 'unauthenticated', reason: 'missing' },
      { type: 'unauthenticated', reason: 'unknown' },
      { type: 'insufficient_scope', required: expect.any(Array) },
      { type: 'feature_unavailable', feature: 'metadata', release: '15.0' },
    ])
    expect(JSON.stringify(seen)).not.toContain(secret)
  })

  it('a hook that throws changes no answer', async () => {
    const { authority } = await world()
    const quiet = createHandler(authority)
    const loud = createHandler(authority, {
      onRefusal: () => {
        throw new Error('the hook failed')
      },
    })
    const request = () => new Request(`${BASE}/personal_access_tokens/self`)
    const [a, b] = await Promise.all([quiet(request()), loud(request())])
    expect([b.status, await b.text()]).toEqual([a.status, await a.text()])
  })
})
