import { Ajv2020 } from 'ajv/dist/2020.js'
import { afterEach, describe, expect, it } from 'vitest'
import { DASHBOARD_SCHEMAS } from '../../src/fake/control/dashboard-schemas.js'
import { ALICE, closeAll, controlGet, startDashboardFake } from './support/dashboard-fake.js'

// GET /__patkit/tokens shows a fine-grained token's scopes in GitLab's entity shape (access,
// permissions, project_id, group_id), and only on such a token, as GitLab's entity does; the row
// matches its OpenAPI schema.

afterEach(closeAll)

describe('GET /__patkit/tokens: fine-grained tokens', () => {
  it('carries granular_scopes on a fine-grained token only, as its schema says', async () => {
    const gitlab = await startDashboardFake()
    const created = await fetch(`${gitlab.apiUrl}/user/personal_access_tokens`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': ALICE, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'fg',
        granular_scopes: [
          { access: 'user', permissions: ['read_user'] },
          { access: 'selected_memberships', permissions: ['read_project'], project_ids: [1] },
        ],
      }),
    })
    expect(created.status, await created.clone().text()).toBe(201)
    const id = ((await created.json()) as { id: number }).id
    const { body } = await controlGet(gitlab, '/tokens?sort=id_desc&per_page=2')
    const [granular, legacy] = body as Record<string, unknown>[]
    expect(granular).toMatchObject({
      id,
      scopes: [],
      granular_scopes: [
        { access: 'user', permissions: ['read_user'], project_id: null, group_id: null },
        { access: 'selected_memberships', permissions: ['read_project'], project_id: 1, group_id: null },
      ],
    })
    expect(legacy).not.toHaveProperty('granular_scopes')
    const validate = new Ajv2020({ strict: true, allowUnionTypes: true }).compile(
      // The date formats are checked elsewhere (openapi-document.test.ts): only the shape here.
      JSON.parse(JSON.stringify(DASHBOARD_SCHEMAS.DashboardToken), (key, value) =>
        key === 'format' ? undefined : value,
      ),
    )
    for (const row of [granular, legacy]) expect(validate(row), JSON.stringify(validate.errors)).toBe(true)
    const broken = { ...granular, granular_scopes: [{ access: 'everything', permissions: [] }] }
    expect(validate(broken)).toBe(false)
  })
})
