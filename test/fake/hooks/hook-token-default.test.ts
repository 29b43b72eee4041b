import { describe, expect, it } from 'vitest'
import { createAuthority } from '../../../src/authority/create-authority.js'
import { createFakeGitLab } from '../../../src/fake/index.js'
import { createHandler } from '../../../src/http/create-handler.js'
import { memoryStore } from '../../../src/memory/index.js'

// Without a sealer (an authority built outside the fake), a hook's token is kept as its peppered
// digest: never in plain text, never opened (docs/webhooks.md).

describe('a hook token without the fake’s key', () => {
  it('is stored as a digest, never in plain text', async () => {
    const store = memoryStore()
    await store.putUser({ id: 1, username: 'root', admin: true, blocked: false })
    await store.resources?.putProject({
      id: 7,
      path: 'api',
      name: 'API',
      fullPath: 'api',
      groupId: null,
      visibility: 'private',
      members: [],
    })
    const authority = createAuthority({ store, pepper: 'test-pepper' })
    const { secret } = (
      await authority.issueToken({ userId: 1, name: 'root', scopes: ['api'], expiresAt: null })
    )._unsafeUnwrap()
    const handler = createHandler(authority)
    const created = await handler(
      new Request('http://gitlab.test/api/v4/projects/7/hooks', {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': secret, 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'http://127.0.0.1:9/hook', token: 'plain-hook-token' }),
      }),
    )
    expect(created.status).toBe(201)
    const sealed = (await store.resources?.hooks.findHook(1))?._unsafeUnwrap()?.sealedToken ?? ''
    expect(sealed.startsWith('digest:')).toBe(true)
    expect(sealed).not.toContain('plain-hook-token')
  })

  it('createFakeGitLab refuses a hookSecretKey that is not 32 bytes', async () => {
    await expect(createFakeGitLab({ hookSecretKey: new Uint8Array(16) })).rejects.toThrow(
      'createFakeGitLab: hookSecretKey must be 32 bytes, got 16',
    )
  })
})
