import { describe, expect, it } from 'vitest'
import { ALICE } from '../support/authority-fixtures.js'
import { granularWorld, scope } from '../support/granular-world.js'

// GitLab's request-time check of fine-grained tokens: Authz::Tokens::AuthorizeGranularScopesService
// (app/services/authz/tokens/authorize_granular_scopes_service.rb, newest commit 276ecd5b), each route's
// `route_setting :authorization` (doc/auth/tokens/fine_grained_access_tokens_rest.md, 0739b8bf) and the
// shared example 'authorizing granular token permissions' (spec/support, #56354685971); read in
// shared/reference fine-grained-pats.md §0, §2, §4, §8.1.

const DOESNT_SUPPORT = "Access denied: This operation doesn't support fine-grained personal access tokens."
const requires = (boundary: string, labels: string) =>
  `Access denied: This operation requires a fine-grained personal access token with the following ${boundary} permissions: [${labels}].`

describe('fine-grained tokens at request time', () => {
  it('a user scope with read_personal_access_token reads GET /personal_access_tokens/self (§8.1: user boundary)', async () => {
    const w = await granularWorld()
    const t = await w.token(ALICE.id, [scope('user', ['read_personal_access_token'])])
    const r = await w.call('GET', '/personal_access_tokens/self', t.secret)
    expect(r.status).toBe(200)
    expect(r.json).toMatchObject({ id: t.id })
  })

  it('without the permission: 403 insufficient_granular_scope naming the label (§0 newest text, §4 body)', async () => {
    const w = await granularWorld()
    const t = await w.token(ALICE.id, [scope('user', ['read_user'])])
    const r = await w.call('GET', '/personal_access_tokens/self', t.secret)
    expect(r.status).toBe(403)
    expect(r.json).toEqual({
      error: 'insufficient_granular_scope',
      error_description: requires('user', 'Personal Access Token: Read'),
    })
  })

  it('the permission in a scope of another boundary does not count (for_standalone: access must be user)', async () => {
    const w = await granularWorld()
    const t = await w.token(ALICE.id, [scope('instance', ['read_personal_access_token'])])
    const r = await w.call('GET', '/personal_access_tokens', t.secret)
    expect(r.status).toBe(403)
  })

  it('a route GitLab declares no permission for refuses any fine-grained token (§0; DELETE /service_accounts/:id is not served, GET /users/:id/impersonation_tokens is instance)', async () => {
    const w = await granularWorld()
    // Every permission at every standalone boundary still cannot reach a route that declares none:
    // patkit's table declares a permission on every row GitLab does, so the check runs on the pipeline's
    // `null` requirement only through authorizeGranular directly.
    const t = await w.token(ALICE.id, [scope('user', ['read_personal_access_token'])])
    const principal = (await w.authority.requests.requestPrincipal({ secret: t.secret }))._unsafeUnwrap()
    if (principal === null) throw new Error('authenticated')
    const verdict = await w.authority.requests.authorizeGranular(principal, null)
    expect(verdict._unsafeUnwrapErr()).toEqual({
      type: 'insufficient_granular_scope',
      boundary: null,
      missing: [],
    })
  })

  it("the route without a declaration answers GitLab's doesn't-support text over HTTP", async () => {
    const { errorReply } = await import('../../src/http/error-response.js')
    const reply = errorReply({ type: 'insufficient_granular_scope', boundary: null, missing: [] })
    expect(reply.status).toBe(403)
    expect(JSON.parse(reply.body ?? '')).toEqual({
      error: 'insufficient_granular_scope',
      error_description: DOESNT_SUPPORT,
    })
  })

  it('a legacy token keeps its scope rules: read_api reads, the route permission is ignored', async () => {
    const w = await granularWorld()
    const t = await w.token(ALICE.id, undefined, ['read_api'])
    expect((await w.call('GET', '/personal_access_tokens/self', t.secret)).status).toBe(200)
    expect((await w.call('GET', '/projects/7', t.secret)).status).toBe(200)
    // and its scope refusal is still the legacy one
    const r = await w.call('POST', '/user/personal_access_tokens', t.secret, {
      name: 'x',
      scopes: ['self_rotate'],
      expires_at: '2026-04-01',
    })
    expect(r.status).toBe(403)
    expect(r.json).toMatchObject({ error: 'insufficient_scope' })
  })

  it('POST /users/:id/personal_access_tokens is an instance boundary: a user scope does not reach it (§8.1 note)', async () => {
    const w = await granularWorld()
    const t = await w.token(ALICE.id, [scope('user', ['create_personal_access_token'])])
    const r = await w.call('POST', `/users/${ALICE.id}/personal_access_tokens`, t.secret, {
      name: 'x',
      scopes: ['api'],
    })
    expect(r.status).toBe(403)
    expect(r.json).toMatchObject({ error_description: requires('instance', 'Personal Access Token: Create') })
  })

  it('GET /version and /metadata need Metadata: Read at the instance (§8.1, §9 read_metadata)', async () => {
    const w = await granularWorld()
    const without = await w.token(ALICE.id, [scope('user', ['read_user'])])
    const r = await w.call('GET', '/version', without.secret)
    expect(r.status).toBe(403)
    expect(r.json).toMatchObject({ error_description: requires('instance', 'Metadata: Read') })
    const withIt = await w.token(ALICE.id, [scope('instance', ['read_metadata'])])
    expect((await w.call('GET', '/metadata', withIt.secret)).status).toBe(200)
  })

  describe('project and group boundaries (for_namespaces, §2)', () => {
    it('selected_memberships on the project, or on a group above it, reaches it', async () => {
      const w = await granularWorld()
      const onProject = await w.token(ALICE.id, [
        scope('selected_memberships', ['read_project'], { projectId: 7 }),
      ])
      const onAncestor = await w.token(ALICE.id, [
        scope('selected_memberships', ['read_project'], { groupId: 3 }),
      ])
      expect((await w.call('GET', '/projects/7', onProject.secret)).status).toBe(200)
      expect((await w.call('GET', '/projects/acme%2Fplatform%2Fapi', onAncestor.secret)).status).toBe(200)
    })

    it('a scope on another resource: 403 naming the project boundary and label', async () => {
      const w = await granularWorld()
      const t = await w.token(ALICE.id, [scope('selected_memberships', ['read_project'], { projectId: 10 })])
      const r = await w.call('GET', '/projects/7', t.secret)
      expect(r.status).toBe(403)
      expect(r.json).toEqual({
        error: 'insufficient_granular_scope',
        error_description: requires('project', 'Project: Read'),
      })
    })

    it('a group scope does not reach its parent group', async () => {
      const w = await granularWorld()
      const t = await w.token(ALICE.id, [scope('selected_memberships', ['read_group'], { groupId: 4 })])
      expect((await w.call('GET', '/groups/4', t.secret)).status).toBe(200)
      expect((await w.call('GET', '/groups/3', t.secret)).status).toBe(403)
    })

    it("all_memberships reaches every project and group; personal_projects only the owner's personal namespace", async () => {
      const w = await granularWorld()
      const all = await w.token(ALICE.id, [scope('all_memberships', ['read_project', 'read_group'])])
      expect((await w.call('GET', '/projects/7', all.secret)).status).toBe(200)
      expect((await w.call('GET', '/groups/4', all.secret)).status).toBe(200)
      const personal = await w.token(ALICE.id, [scope('personal_projects', ['read_project'])])
      expect((await w.call('GET', '/projects/10', personal.secret)).status).toBe(200)
      expect((await w.call('GET', '/projects/7', personal.secret)).status).toBe(403)
    })

    it('a hidden or unknown project is 404 Not Found, not 403 (§0: resource_not_found)', async () => {
      const w = await granularWorld()
      const t = await w.token(ALICE.id, [scope('user', ['read_user'])])
      for (const path of ['/projects/9', '/projects/999', '/groups/6']) {
        const r = await w.call('GET', path, t.secret)
        expect(r.status, path).toBe(404)
        expect(r.json, path).toEqual({ message: '404 Not Found' })
      }
    })

    it('a public project or group is read without the permission (publicly accessible endpoints, §8.1, §4)', async () => {
      const w = await granularWorld()
      const t = await w.token(ALICE.id, [scope('user', ['read_user'])])
      expect((await w.call('GET', '/projects/8', t.secret)).status).toBe(200)
      expect((await w.call('GET', '/groups/5', t.secret)).status).toBe(200)
      // writes are never granted by visibility
      const r = await w.call('POST', '/projects/8/access_tokens', t.secret, { name: 'x', scopes: ['api'] })
      expect(r.status).toBe(403)
      expect(r.json).toMatchObject({
        error_description: requires('project', 'Resource Access Token: Create'),
      })
    })
  })

  it('rotation checks rotate_personal_access_token after authentication (§8.1 self_rotation.rb)', async () => {
    const w = await granularWorld()
    const reader = await w.token(ALICE.id, [scope('user', ['read_personal_access_token'])])
    const r = await w.call('POST', '/personal_access_tokens/self/rotate', reader.secret)
    expect(r.status).toBe(403)
    expect(r.json).toMatchObject({ error_description: requires('user', 'Personal Access Token: Rotate') })
    const rotator = await w.token(ALICE.id, [scope('user', ['rotate_personal_access_token'])])
    expect((await w.call('POST', '/personal_access_tokens/self/rotate', rotator.secret)).status).toBe(200)
  })

  it("before the release with fine-grained tokens, a token's granular scopes are not checked", async () => {
    const w = await granularWorld({ release: '18.9' })
    const t = await w.token(ALICE.id, [scope('user', ['read_user'])])
    expect((await w.call('GET', '/personal_access_tokens/self', t.secret)).status).toBe(200)
  })

  it('the refusal goes to onRefusal with the missing permissions and boundary', async () => {
    const w = await granularWorld()
    const t = await w.token(ALICE.id, [scope('user', ['read_user'])])
    await w.call('DELETE', '/personal_access_tokens/self', t.secret)
    expect(w.refusals).toContainEqual({
      type: 'insufficient_granular_scope',
      boundary: 'user',
      missing: ['revoke_personal_access_token'],
    })
  })
})
