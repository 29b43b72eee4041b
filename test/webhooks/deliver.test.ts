import { afterEach, describe, expect, it } from 'vitest'
import { deliver, RESPONSE_BODY_LIMIT } from '../../src/webhooks/deliver.js'
import { hookHeaders } from '../../src/webhooks/hook-headers.js'
import { closedPort, receiver } from './receiver.js'

// Real receivers on 127.0.0.1, no mocked network. GitLab's WebHookService (app/services/web_hook_service.rb)
// posts once, logs the answer (response_body truncated to 8 KB) or the error, and does not retry.

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

async function start(handler: Parameters<typeof receiver>[0]) {
  const r = await receiver(handler)
  closers.push(r.close)
  return r
}

let n = 0
const headers = hookHeaders({
  gitlabVersion: '18.11.0',
  instanceUrl: 'http://127.0.0.1:8080',
  token: 'hook-secret',
  uuid: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
})

// A monotonic timer that moves 5 ms per read, so the duration is exact without timing the test.
function ticking(): () => number {
  let t = 0
  return () => (t += 5)
}

describe('deliver', () => {
  it('posts the body with the headers, records the answer and redacts the token in the record', async () => {
    const r = await start((_req, res) => {
      res.setHeader('X-Answer', 'yes')
      res.end('thanks')
    })
    const record = await deliver(
      { url: `${r.url}/hook?x=1`, headers, body: '{"a":1}' },
      { monotonic: ticking() },
    )
    expect(record.status).toBe(200)
    expect(record.error).toBeNull()
    expect(record.responseBody).toBe('thanks')
    expect(record.responseHeaders['x-answer']).toBe('yes')
    expect(record.durationMs).toBe(5)
    expect(record.requestHeaders['X-Gitlab-Token']).toBe('[REDACTED]')
    expect(record.requestBody).toBe('{"a":1}')
    const [seen] = r.seen
    expect(seen?.method).toBe('POST')
    expect(seen?.url).toBe('/hook?x=1')
    expect(seen?.body).toBe('{"a":1}')
    expect(seen?.headers['x-gitlab-token']).toBe('hook-secret')
    expect(seen?.headers['x-gitlab-event']).toBe('Resource Access Token Hook')
    expect(seen?.headers['user-agent']).toBe('GitLab/18.11.0')
  })

  it('records a 500 as the answer, not an error', async () => {
    const r = await start((_req, res) => {
      res.statusCode = 500
      res.end('boom')
    })
    const record = await deliver({ url: r.url, headers, body: '{}' })
    expect(record.status).toBe(500)
    expect(record.responseBody).toBe('boom')
    expect(record.error).toBeNull()
  })

  it('keeps 8 KB of a larger answer', async () => {
    const r = await start((_req, res) => res.end('x'.repeat(RESPONSE_BODY_LIMIT * 4)))
    const record = await deliver({ url: r.url, headers, body: '{}' })
    expect(record.status).toBe(200)
    expect(record.responseBody.length).toBe(RESPONSE_BODY_LIMIT)
  })

  it('a receiver that never answers is a timeout', async () => {
    const r = await start(() => undefined)
    const record = await deliver({ url: r.url, headers, body: '{}' }, { timeoutMs: 200 })
    expect(record.status).toBeNull()
    expect(record.error?.kind).toBe('timeout')
    expect(r.seen).toHaveLength(1)
  })

  it('a closed port is refused', async () => {
    const record = await deliver({ url: `http://127.0.0.1:${await closedPort()}/`, headers, body: '{}' })
    expect(record.status).toBeNull()
    expect(record.error?.kind).toBe('refused')
  })

  it('a 302 to a refused address is the answer: never followed', async () => {
    const r = await start((_req, res) => {
      res.statusCode = 302
      res.setHeader('Location', 'http://10.0.0.1/steal')
      res.end('moved')
    })
    const record = await deliver({ url: r.url, headers, body: '{}' })
    expect(record.status).toBe(302)
    expect(record.responseHeaders['location']).toContain('10.0.0.1')
    expect(record.responseBody).toBe('moved')
    expect(record.error).toBeNull()
    expect(r.seen).toHaveLength(1)
  })

  it('a blocked destination is recorded without a connection', async () => {
    const record = await deliver({ url: 'http://10.0.0.1/hook', headers, body: '{}' })
    expect(record.error?.kind).toBe('blocked')
    expect(record.error?.message).toContain('Requests to the local network are not allowed')
    expect(record.status).toBeNull()
  })

  it('connects to the checked address with the URL host in the Host header (no second lookup)', async () => {
    const r = await start((_req, res) => res.end('ok'))
    let lookups = 0
    const record = await deliver(
      { url: `http://hooks.test:${r.port}/h`, headers, body: '{}' },
      {
        resolve: async () => {
          lookups++
          return [{ address: '127.0.0.1', family: 4 }]
        },
      },
    )
    expect(record.status).toBe(200)
    expect(lookups).toBe(1)
    expect(r.seen[0]?.headers.host).toBe(`hooks.test:${r.port}`)
  })

  it('sends URL credentials as basic auth and masks them in the record', async () => {
    const r = await start((_req, res) => res.end('ok'))
    const record = await deliver({ url: `http://hook:p%40ss@127.0.0.1:${r.port}/h`, headers, body: '{}' })
    expect(record.status).toBe(200)
    expect(r.seen[0]?.headers.authorization).toBe(`Basic ${Buffer.from('hook:p@ss').toString('base64')}`)
    expect(record.url).toBe(`http://*****:*****@127.0.0.1:${r.port}/h`)
  })

  it('an aborted signal ends the attempt as a timeout', async () => {
    const r = await start(() => undefined)
    const controller = new AbortController()
    const pending = deliver({ url: r.url, headers, body: '{}' }, { signal: controller.signal })
    controller.abort()
    const record = await pending
    expect(record.error?.kind).toBe('timeout')
  })
})
