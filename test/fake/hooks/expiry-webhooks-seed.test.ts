import { describe, expect, it } from 'vitest'
import { validateSeed } from '../../../src/fake/seed/seed-schema.js'
import { startWorld } from './world.js'

// GitLab's opt-ins to the 60- and 30-day expiry webhooks: project_settings.extended_prat_expiry_webhooks_execute
// and namespace_settings.extended_grat_expiry_webhooks_execute (boolean, default false, migrations of
// 17.9: index ids 4807784272 and 4738036176), in the seed as `extendedExpiryWebhooks`.

const GROUPS = [{ id: 1, path: 'acme', name: 'Acme', extended_grat_expiry_webhooks_execute: true }]
const PROJECTS = [
  { id: 7, path: 'api', name: 'API', group_id: 1, extended_prat_expiry_webhooks_execute: true },
  { id: 8, path: 'web', name: 'Web', group_id: 1, extended_prat_expiry_webhooks_execute: false },
]

describe('the expiry webhook opt-ins in the seed and the control API', () => {
  it('are stored as extendedExpiryWebhooks (absent is false) and snapshot back', async () => {
    const gitlab = await startWorld({ groups: GROUPS, projects: PROJECTS })
    const resources = gitlab.store.resources
    expect((await resources?.findGroup(1))?._unsafeUnwrap()?.extendedExpiryWebhooks).toBe(true)
    expect((await resources?.findProject(7))?._unsafeUnwrap()?.extendedExpiryWebhooks).toBe(true)
    expect((await resources?.findProject(8))?._unsafeUnwrap()?.extendedExpiryWebhooks).toBeUndefined()
    const snapshot = await gitlab.snapshot()
    expect(snapshot.groups?.[0]).toMatchObject({ extended_grat_expiry_webhooks_execute: true })
    expect(snapshot.projects?.[0]).toMatchObject({ extended_prat_expiry_webhooks_execute: true })
    expect(snapshot.projects?.[1]).not.toHaveProperty('extended_prat_expiry_webhooks_execute')
  })

  it('are taken by PUT /__patkit/state and shown by GET /__patkit/state', async () => {
    const gitlab = await startWorld()
    const put = await fetch(`${gitlab.url}/__patkit/state`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        users: [{ id: 1, username: 'root', admin: true }],
        groups: GROUPS,
        projects: PROJECTS,
      }),
    })
    expect(put.status).toBeLessThan(300)
    expect((await gitlab.store.resources?.findProject(7))?._unsafeUnwrap()?.extendedExpiryWebhooks).toBe(true)
    const state = await (await fetch(`${gitlab.url}/__patkit/state`)).json()
    expect(state.groups[0].extended_grat_expiry_webhooks_execute).toBe(true)
  })

  it('must be booleans, each on its own kind of resource', () => {
    const wrong = validateSeed({
      groups: [{ id: 1, path: 'acme', name: 'Acme', extended_grat_expiry_webhooks_execute: 'yes' }],
      projects: [{ id: 7, path: 'api', name: 'API', extended_grat_expiry_webhooks_execute: true }],
    } as never)
    expect(wrong.success).toBe(false)
    if (!wrong.success) {
      expect(wrong.problems.map((p) => p.path)).toEqual(
        expect.arrayContaining(['groups[0].extended_grat_expiry_webhooks_execute']),
      )
      expect(wrong.problems.some((p) => p.path.startsWith('projects[0]'))).toBe(true)
    }
  })
})
