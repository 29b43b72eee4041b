import { afterEach, describe, expect, it } from 'vitest'
import type { FakeGitLab } from '../../src/fake/index.js'
import { type Receiver, receiver } from './hooks/expiry-world.js'
import { ALICE, closeAll, controlGet, startDashboardFake } from './support/dashboard-fake.js'

// Issue 33: a hook's secret token goes to its receiver as X-Gitlab-Token and nowhere the dashboard
// reads: none of its JSON routes (the deliveries, the journal and its stream, the tokens, the people,
// the clock, the faults, the snapshot) holds it once the hook has been heard, by an expiry notice and
// by its test trigger. The secret is given once in a JSON body and once in the query string (GitLab's
// API takes either): the journal records a request's query parameters, a credential's filtered.

const SECRET = 'dashboard-every-route-secret-5d1e'
const QUERY_SECRET = 'dashboard-query-string-secret-9c2b'
const receivers: Receiver[] = []

afterEach(async () => {
  await closeAll()
  for (const r of receivers.splice(0)) await r.close()
})

async function addHook(gitlab: FakeGitLab, path: string, url: string, secret: string, inQuery: boolean) {
  const params = { url, token: secret, resource_access_token_events: 'true' }
  const response = inQuery
    ? await fetch(`${gitlab.apiUrl}${path}/hooks?${new URLSearchParams(params)}`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': ALICE },
      })
    : await fetch(`${gitlab.apiUrl}${path}/hooks`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': ALICE, 'content-type': 'application/json' },
        body: JSON.stringify({ ...params, resource_access_token_events: true }),
      })
  expect(response.status, await response.clone().text()).toBe(201)
  return ((await response.json()) as { id: number }).id
}

async function controlSend(gitlab: FakeGitLab, path: string, body: unknown) {
  const response = await fetch(`${gitlab.url}/__patkit${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(response.status, await response.clone().text()).toBeLessThan(300)
}

// The journal stream from its start, until the entry `until` names has come (then it is let go).
async function streamed(gitlab: FakeGitLab, until: string): Promise<string> {
  const abort = new AbortController()
  const response = await fetch(`${gitlab.url}/__patkit/journal/stream?since=0`, { signal: abort.signal })
  expect(response.status).toBe(200)
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let text = ''
  while (!text.includes(until)) {
    const { value, done } = await reader.read()
    if (done) break
    text += decoder.decode(value, { stream: true })
  }
  abort.abort()
  return text
}

describe("the dashboard's JSON never holds a hook's secret", () => {
  it('in none of the routes it reads, once an expiry notice and a test trigger were delivered', async () => {
    const r = await receiver()
    receivers.push(r)
    const gitlab = await startDashboardFake({ clock: new Date('2026-01-10T09:00:00Z') })
    // Alice owns group 1 and so maintains its project 1, whose bot is user 5.
    const projectHook = await addHook(gitlab, '/projects/1', `${r.url}/project`, SECRET, false)
    await addHook(gitlab, '/groups/1', `${r.url}/group`, QUERY_SECRET, true)
    await controlSend(gitlab, '/tokens', {
      user_id: 5,
      name: 'deploy',
      scopes: ['api'],
      expires_at: '2026-01-15',
    })
    await controlSend(gitlab, '/clock/advance', { days: 1 })
    const tested = await fetch(
      `${gitlab.apiUrl}/projects/1/hooks/${projectHook}/test/resource_access_token_events`,
      { method: 'POST', headers: { 'PRIVATE-TOKEN': ALICE } },
    )
    expect(tested.status, await tested.clone().text()).toBe(201)

    const deliveries = await controlGet(gitlab, '/deliveries?wait=true')
    const read = [
      deliveries,
      await controlGet(gitlab, '/journal'),
      await controlGet(gitlab, '/tokens?per_page=100'),
      await controlGet(gitlab, '/tokens?per_page=100&resource_type=project&resource_id=1'),
      await controlGet(gitlab, '/tokens/42/family'),
      await controlGet(gitlab, '/users?per_page=100'),
      await controlGet(gitlab, '/groups'),
      await controlGet(gitlab, '/projects'),
      await controlGet(gitlab, '/clock'),
      await controlGet(gitlab, '/faults'),
      await controlGet(gitlab, '/state'),
    ]
    for (const { status } of read) expect(status).toBe(200)
    // Three deliveries heard, each with its hook's secret: what follows holds only because the
    // routes leave it out, not because none was sent.
    expect(r.received.map((got) => `${got.path} ${String(got.headers['x-gitlab-token'])}`).sort()).toEqual([
      `/group ${QUERY_SECRET}`,
      `/project ${SECRET}`,
      `/project ${SECRET}`,
    ])
    expect((deliveries.body as { deliveries: unknown[] }).deliveries).toHaveLength(3)
    const stream = await streamed(gitlab, '"cause":"test"')
    expect(stream).toContain('webhook_delivery')
    for (const text of [...read.map(({ body }) => JSON.stringify(body)), stream]) {
      expect(text).not.toContain(SECRET)
      expect(text).not.toContain(QUERY_SECRET)
    }
  })
})
