import { afterEach, expect, it } from 'vitest'
import { seededRandom } from '../../src/domain/random.js'
import { accessTokenPayload } from '../../src/webhooks/access-token-payload.js'
import { deliver } from '../../src/webhooks/deliver.js'
import { deliveryQueue } from '../../src/webhooks/delivery-queue.js'
import { hookHeaders, uuidFrom } from '../../src/webhooks/hook-headers.js'
import { receiver } from './receiver.js'

// The pieces together, as the fake's worker will use them: one expiring group token, one hook with a
// secret token, a real receiver. The receiver sees GitLab's JSON and headers (web_hook_service.rb
// #build_headers); the record keeps the token redacted (web_hook_log.rb#request_headers).

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

it('an expiring group access token notice reaches a hook as GitLab sends it', async () => {
  const r = await receiver((_req, res) => res.end('{"ok":true}'))
  closers.push(r.close)
  const uuid = uuidFrom(seededRandom(11))
  const payload = accessTokenPayload({
    baseUrl: 'http://127.0.0.1:8080',
    resource: { kind: 'group', id: 4, name: 'Acme', path: 'acme', fullPath: 'acme' },
    token: {
      id: 12,
      name: 'deploy',
      userId: 30,
      createdAt: new Date('2030-01-01T08:00:00Z'),
      expiresAt: '2030-03-01',
      lastUsedAt: null,
    },
    interval: 'thirty_days',
  })
  const headers = hookHeaders({
    gitlabVersion: '18.11.0',
    instanceUrl: 'http://127.0.0.1:8080',
    token: 'hook-token',
    uuid,
  })
  const queue = deliveryQueue()
  const pending = queue.enqueue((signal) =>
    deliver({ url: `${r.url}/gitlab`, headers, body: JSON.stringify(payload) }, { signal }),
  )
  await queue.idle()
  const record = await pending
  expect(record?.status).toBe(200)
  expect(record?.requestHeaders['X-Gitlab-Token']).toBe('[REDACTED]')
  const [seen] = r.seen
  expect(JSON.parse(seen?.body ?? '')).toMatchObject({
    object_kind: 'access_token',
    event_name: 'expiring_access_token',
    group: { group_id: 4, full_path: 'acme' },
    object_attributes: { id: 12, expires_at: '2030-03-01', created_at: '2030-01-01 08:00:00 UTC' },
    interval: 'thirty_days',
  })
  expect(seen?.headers['x-gitlab-event']).toBe('Resource Access Token Hook')
  expect(seen?.headers['x-gitlab-token']).toBe('hook-token')
  expect(seen?.headers['x-gitlab-instance']).toBe('http://127.0.0.1:8080')
  expect(seen?.headers['idempotency-key']).toBe(headers['Idempotency-Key'])
  expect(seen?.headers['x-gitlab-webhook-uuid']).toMatch(/^[0-9a-f-]{36}$/)
  expect(seen?.headers['content-type']).toBe('application/json')
})
