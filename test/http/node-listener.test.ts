import { createServer, type Server } from 'node:http'
import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createHandler, type Handler, toNodeListener } from '../../src/http/index.js'
import { ALICE, world } from '../support/authority-fixtures.js'

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))))
})

async function serve(handler: Handler): Promise<number> {
  const server = createServer(toNodeListener(handler))
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  return typeof address === 'object' && address !== null ? address.port : 0
}

/** Sends raw bytes and returns the raw answer without its Date header (the only varying part). */
function exchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(raw))
    const chunks: Buffer[] = []
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () =>
      resolve(
        Buffer.concat(chunks)
          .toString('latin1')
          .replace(/\r\nDate: [^\r]*/i, ''),
      ),
    )
  })
}

/** Two identical worlds: one served through createHandler's direct path, one through Request/Response. */
async function twins() {
  const direct = await world()
  const general = await world()
  const a = await direct.issue(ALICE.id, { secret: 'glpat-node-listener-alice-1' })
  const b = await general.issue(ALICE.id, { secret: 'glpat-node-listener-alice-1' })
  expect(a.token.id).toBe(b.token.id)
  const handler = createHandler(general.authority)
  return {
    direct: await serve(createHandler(direct.authority)),
    // A wrapper is not a handler createHandler made, so toNodeListener takes the general path.
    general: await serve((request) => handler(request)),
    secret: a.secret,
  }
}

function request(method: string, path: string, headers: Record<string, string> = {}, body = ''): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close']
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`)
  if (body !== '' || method === 'POST') lines.push(`Content-Length: ${Buffer.byteLength(body)}`)
  return `${lines.join('\r\n')}\r\n\r\n${body}`
}

describe('toNodeListener: the direct path writes the bytes the Request/Response path writes', () => {
  it('for every kind of answer', async () => {
    const { direct, general, secret } = await twins()
    const auth = { 'PRIVATE-TOKEN': secret }
    const json = { ...auth, 'Content-Type': 'application/json' }
    const cases = [
      request('GET', '/api/v4/personal_access_tokens/self', auth),
      request('HEAD', '/api/v4/personal_access_tokens/self', auth),
      request('GET', '/api/v4/personal_access_tokens?per_page=1&search=tok', auth),
      request('GET', `/api/v4/personal_access_tokens/self?private_token=${secret}`),
      request('GET', '/api/v4/personal_access_tokens/self', { Authorization: `Bearer ${secret}` }),
      request('GET', '/api/v4/personal_access_tokens/self'),
      request('GET', '/api/v4/personal_access_tokens/self', { 'PRIVATE-TOKEN': 'glpat-unknown' }),
      request('GET', '/api/v4/personal_access_tokens/abc', auth),
      request('GET', '/api/v4/nothing', auth),
      request('GET', '/elsewhere', auth),
      request('PUT', '/api/v4/personal_access_tokens/self', auth),
      request('TRACE', '/api/v4/personal_access_tokens/self', auth),
      request('POST', '/api/v4/personal_access_tokens/self/rotate', json, '{"expires_at":"2026-03-20"}'),
      request('POST', '/api/v4/personal_access_tokens/self/rotate', json, '{"nope":1}'),
      request('POST', '/api/v4/personal_access_tokens/self/rotate', json, '{broken'),
      request('POST', '/api/v4/user/personal_access_tokens', { ...auth, 'Content-Type': 'text/plain' }, 'x'),
      request('POST', '/api/v4/user/personal_access_tokens', json, 'x'.repeat(70_000)),
      request('DELETE', '/api/v4/personal_access_tokens/self', auth),
      request('GET', '/api/v4/personal_access_tokens/self', auth),
    ]
    for (const raw of cases) {
      const [d, g] = [await exchange(direct, raw), await exchange(general, raw)]
      expect(d, raw.split('\r\n')[0]).toBe(g)
    }
  })
})
