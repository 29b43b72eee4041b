import { Ajv2020 } from 'ajv/dist/2020.js'
import { afterEach, describe, expect, it } from 'vitest'
import { DELIVERY_SCHEMA } from '../../src/fake/control/delivery-routes.js'
import type { FakeGitLab } from '../../src/fake/index.js'
import { type Receiver, receiver } from './hooks/expiry-world.js'
import { ALICE, closeAll, controlGet, startDashboardFake } from './support/dashboard-fake.js'

// What the dashboard's Deliveries view reads (issue 33): each delivery names its hook's project or
// group, matches its OpenAPI schema, and the hook's secret token, sent to the receiver as
// X-Gitlab-Token, is in none of the JSON the dashboard reads (the deliveries, the journal).

const SECRET = 'dashboard-hook-secret-7f3a'
const receivers: Receiver[] = []

afterEach(async () => {
  await closeAll()
  for (const r of receivers.splice(0)) await r.close()
})

async function addHook(gitlab: FakeGitLab, path: string, url: string) {
  const response = await fetch(`${gitlab.apiUrl}${path}/hooks`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': ALICE, 'content-type': 'application/json' },
    body: JSON.stringify({ url, token: SECRET, resource_access_token_events: true }),
  })
  expect(response.status, await response.clone().text()).toBe(201)
  return ((await response.json()) as { id: number }).id
}

async function controlPost(gitlab: FakeGitLab, path: string, body: unknown) {
  const response = await fetch(`${gitlab.url}/__patkit${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(response.status, await response.clone().text()).toBeLessThan(300)
}

interface Listed {
  deliveries: { hook_id: number; resource: { type: string; id: number }; status: number | null }[]
}

describe('GET /__patkit/deliveries for the dashboard', () => {
  it("names each hook's project or group, matches its schema, and never holds the hook's secret", async () => {
    const r = await receiver()
    receivers.push(r)
    const gitlab = await startDashboardFake({ clock: new Date('2026-01-10T09:00:00Z') })
    // Alice owns group 1 and so maintains its project 1, whose bot is user 5.
    const projectHook = await addHook(gitlab, '/projects/1', `${r.url}/project`)
    const groupHook = await addHook(gitlab, '/groups/1', `${r.url}/group`)
    await controlPost(gitlab, '/tokens', {
      user_id: 5,
      name: 'deploy',
      scopes: ['api'],
      expires_at: '2026-01-15',
    })
    await controlPost(gitlab, '/clock/advance', { days: 1 })

    const { status, body } = await controlGet(gitlab, '/deliveries?wait=true')
    expect(status).toBe(200)
    const listed = body as Listed
    expect(
      listed.deliveries
        .map((d) => [d.hook_id, d.resource, d.status])
        .sort((a, b) => Number(a[0]) - Number(b[0])),
    ).toEqual([
      [projectHook, { type: 'project', id: 1 }, 200],
      [groupHook, { type: 'group', id: 1 }, 200],
    ])
    const validate = new Ajv2020({ strict: true, allowUnionTypes: true }).compile(
      // The date-time format is checked elsewhere (openapi-document.test.ts): only the shape here.
      JSON.parse(JSON.stringify(DELIVERY_SCHEMA), (key, value) => (key === 'format' ? undefined : value)),
    )
    for (const delivery of listed.deliveries)
      expect(validate(delivery), JSON.stringify(validate.errors)).toBe(true)

    // The receiver got the secret: what follows is not true only because none was sent.
    expect(r.received.map((got) => got.headers['x-gitlab-token'])).toEqual([SECRET, SECRET])
    expect(JSON.stringify(body)).not.toContain(SECRET)
    const journal = await controlGet(gitlab, '/journal')
    expect(JSON.stringify(journal.body)).toContain('webhook_delivery')
    expect(JSON.stringify(journal.body)).not.toContain(SECRET)
  })

  it("names a test trigger's group too", async () => {
    const r = await receiver()
    receivers.push(r)
    const gitlab = await startDashboardFake()
    const hook = await addHook(gitlab, '/groups/1', `${r.url}/group`)
    const tested = await fetch(`${gitlab.apiUrl}/groups/1/hooks/${hook}/test/resource_access_token_events`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': ALICE },
    })
    expect(tested.status, await tested.clone().text()).toBe(201)
    const listed = (await controlGet(gitlab, '/deliveries')).body as {
      deliveries: (Listed['deliveries'][number] & { cause: string })[]
    }
    expect(listed.deliveries.map((d) => [d.cause, d.hook_id, d.resource])).toEqual([
      ['test', hook, { type: 'group', id: 1 }],
    ])
    expect(r.received[0]?.headers['x-gitlab-token']).toBe(SECRET)
    expect(JSON.stringify(listed)).not.toContain(SECRET)
  })
})
