import { describe, expect, it } from 'vitest'
import { ALICE } from '../support/authority-fixtures.js'
import { httpWorld } from '../support/http-fixtures.js'

// A fine-grained token created over the API has no legacy scopes (`scopes: []`): GitLab checks its
// permissions per route (app/services/authz/tokens/authorize_granular_scopes_service.rb) and not the
// route's legacy scopes (docs/reference/fine-grained-pats.md §0, §8.1). The token created here must work
// where its permissions reach and be refused, with GitLab's body, where they do not.
describe('a fine-grained token created over the API', () => {
  it('reads its own token with read_personal_access_token and is refused creating one without create_personal_access_token', async () => {
    const w = await httpWorld({ release: '19.6' })
    const me = await w.issue(ALICE.id, { name: 'ci', scopes: ['api'], expiresAt: '2026-04-01' })
    const created = await w.call('POST', '/user/personal_access_tokens', {
      token: me.secret,
      body: {
        name: 'fine',
        expires_at: '2026-04-01',
        granular_scopes: [{ access: 'user', permissions: ['read_personal_access_token'] }],
      },
    })
    expect(created.status).toBe(201)
    const secret = (created.json as { token: string }).token
    const self = await w.call('GET', '/personal_access_tokens/self', { token: secret })
    expect(self.status).toBe(200)
    expect(self.json).toMatchObject({ name: 'fine', scopes: [] })
    const list = await w.call('GET', '/personal_access_tokens', { token: secret })
    expect(list.status).toBe(200)
    const create = await w.call('POST', '/user/personal_access_tokens', {
      token: secret,
      body: {
        name: 'more',
        expires_at: '2026-04-01',
        granular_scopes: [{ access: 'user', permissions: ['read_user'] }],
      },
    })
    expect([create.status, create.json]).toEqual([
      403,
      {
        error: 'insufficient_granular_scope',
        error_description:
          'Access denied: This operation requires a fine-grained personal access token with the following user permissions: [Personal Access Token: Create].',
      },
    ])
  })
})
