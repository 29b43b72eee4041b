import { afterEach, expect, it } from 'vitest'
import type { FakeGitLab } from '../../../src/fake/index.js'
import { type Receiver, receiver, world } from './expiry-world.js'

// GitLab clears a hook's secret token when its URL changes and no new token is given, so the secret
// never goes to the new address: WebHooks::Hook `before_validation :reset_token`,
// `self.token = nil if url_changed? && !encrypted_token_changed?` (app/models/concerns/web_hooks/hook.rb,
// gitlabhq index id 983788408; the same in the older app/models/hooks/web_hook.rb, index id 5347137184).

const open: { gitlab: FakeGitLab; r: Receiver }[] = []
afterEach(async () => {
  for (const { gitlab, r } of open.splice(0)) {
    await gitlab.close()
    await r.close()
  }
})

async function setUp() {
  const r = await receiver()
  const gitlab = await world()
  open.push({ gitlab, r })
  const root = (await gitlab.issueToken({ userId: 1, name: 'admin', scopes: ['api'] })).secret
  const call = async (method: string, path: string, body?: unknown) =>
    fetch(`${gitlab.apiUrl}${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': root, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
  const created = await call('POST', '/projects/7/hooks', {
    url: `${r.url}/a`,
    token: 'secret-one',
    resource_access_token_events: true,
  })
  expect(created.status).toBe(201)
  const { id } = (await created.json()) as { id: number }
  // The X-Gitlab-Token the hook's next delivery carries (the test trigger sends one at once).
  const tokenSent = async (): Promise<string | undefined> => {
    const before = r.received.length
    expect((await call('POST', `/projects/7/hooks/${id}/test/resource_access_token_events`)).status).toBe(201)
    const header = r.received[before]?.headers['x-gitlab-token']
    return Array.isArray(header) ? header[0] : header
  }
  return { r, id, call, tokenSent }
}

it('a PUT that changes the URL without a token clears the secret', async () => {
  const { r, id, call, tokenSent } = await setUp()
  expect(await tokenSent()).toBe('secret-one')
  expect((await call('PUT', `/projects/7/hooks/${id}`, { url: `${r.url}/b` })).status).toBe(200)
  expect(await tokenSent()).toBeUndefined()
})

it('a PUT that keeps the URL, or gives a new token with the new URL, keeps or sets the secret', async () => {
  const { r, id, call, tokenSent } = await setUp()
  expect(
    (await call('PUT', `/projects/7/hooks/${id}`, { url: `${r.url}/a`, push_events: false })).status,
  ).toBe(200)
  expect(await tokenSent()).toBe('secret-one')
  expect((await call('PUT', `/projects/7/hooks/${id}`, { name: 'renamed' })).status).toBe(200)
  expect(await tokenSent()).toBe('secret-one')
  expect(
    (await call('PUT', `/projects/7/hooks/${id}`, { url: `${r.url}/c`, token: 'secret-two' })).status,
  ).toBe(200)
  expect(await tokenSent()).toBe('secret-two')
})
