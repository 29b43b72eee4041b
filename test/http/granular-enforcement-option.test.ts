import { describe, expect, it } from 'vitest'
import { ALICE } from '../support/authority-fixtures.js'
import { granularWorld, scope } from '../support/granular-world.js'

// The `granularEnforcement` option of createAuthority: GitLab.com's top-level group setting
// `enforce_granular_tokens` + `granular_tokens_enforced_after` (namespace_settings; shared/reference
// fine-grained-pats.md §6, §12), read by AuthorizeGranularScopesService#granular_token_required?
// (app/services/authz/tokens/authorize_granular_scopes_service.rb: `return false unless token.legacy?`;
// `root_namespace_ids = boundaries.filter_map { |b| b.namespace&.traversal_ids&.first }`), which
// then checks the legacy token as a fine-grained one. The world: acme (3) > platform (4) > api (7),
// public oss (5) with public lib (8), alice's personal project alice/notes (10); the clock is at
// 2026-03-10.

const DENIED = 'Access denied: This operation requires a fine-grained personal access token'
const acmeFrom = (day: string) => ({ enforcedFrom: (groupId: number) => (groupId === 3 ? day : null) })

describe('granularEnforcement', () => {
  it('refuses a legacy token on the enforcing group’s projects and subgroups from its day (the shared example’s message)', async () => {
    const w = await granularWorld({ granularEnforcement: acmeFrom('2026-03-10') })
    const t = await w.token(ALICE.id)
    for (const path of ['/projects/7', '/projects/acme%2Fplatform%2Fapi', '/groups/4', '/groups/3']) {
      const r = await w.call('GET', path, t.secret)
      expect(r.status).toBe(403)
      expect(r.json).toMatchObject({ error: 'insufficient_granular_scope' })
      expect((r.json as { error_description: string }).error_description).toContain(DENIED)
    }
  })

  it('leaves a legacy token alone before the day, elsewhere, and on personal projects (no root group)', async () => {
    const before = await granularWorld({ granularEnforcement: acmeFrom('2026-03-11') })
    expect((await before.call('GET', '/projects/7', (await before.token(ALICE.id)).secret)).status).toBe(200)
    const w = await granularWorld({ granularEnforcement: acmeFrom('2026-03-10') })
    const t = await w.token(ALICE.id)
    expect((await w.call('GET', '/projects/10', t.secret)).status).toBe(200)
    expect((await w.call('GET', '/personal_access_tokens/self', t.secret)).status).toBe(200)
  })

  it('leaves a fine-grained token to its own scopes', async () => {
    const w = await granularWorld({ granularEnforcement: acmeFrom('2026-03-10') })
    const t = await w.token(ALICE.id, [scope('selected_memberships', ['read_project'], { groupId: 3 })], [])
    expect((await w.call('GET', '/projects/7', t.secret)).status).toBe(200)
  })

  it('has no effect before the release that checks fine-grained tokens (granular_enforcement, 18.10)', async () => {
    const w = await granularWorld({ release: '18.9', granularEnforcement: acmeFrom('2026-03-10') })
    const t = await w.token(ALICE.id)
    expect((await w.call('GET', '/projects/7', t.secret)).status).toBe(200)
  })
})
