import { createServer, type Server } from 'node:http'
import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createHandler, type HandlerOptions } from '../../src/http/index.js'
import { createNodeListener, type NodeListener, toNodeListener } from '../../src/node/index.js'
import { ALICE, world } from '../support/authority-fixtures.js'

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))))
})

async function serve(listener: NodeListener): Promise<number> {
  const server = createServer(listener)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  return typeof address === 'object' && address !== null ? address.port : 0
}

/** Sends raw bytes and returns the raw answer without its Date header (the only varying part). */
function exchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    // write, not end: node's server ends a connection the client half-closed (its httpAllowHalfOpen is
    // off) before an answer still being computed is written; `Connection: close` ends it after the answer.
    const socket = connect(port, '127.0.0.1', () => socket.write(raw))
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

/**
 * Two identical worlds: one served by createNodeListener (no Request or Response built), one through
 * Request/Response by toNodeListener(createHandler(...)), with the same handler options.
 */
async function twins(options: HandlerOptions = {}) {
  const direct = await world()
  const general = await world()
  const a = await direct.issue(ALICE.id, { secret: 'glpat-node-listener-alice-1' })
  const b = await general.issue(ALICE.id, { secret: 'glpat-node-listener-alice-1' })
  expect(a.token.id).toBe(b.token.id)
  return {
    direct: await serve(createNodeListener(direct.authority, options)),
    // A web Request has no socket: the general twin is told the address the direct one reads from
    // its socket (both serve on 127.0.0.1), so last_used_ips agree.
    general: await serve(
      toNodeListener(createHandler(general.authority, { ...options, clientIp: () => '127.0.0.1' })),
    ),
    secret: a.secret,
  }
}

function request(method: string, path: string, headers: Record<string, string> = {}, body = ''): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close']
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`)
  if (body !== '' || method === 'POST') lines.push(`Content-Length: ${Buffer.byteLength(body)}`)
  return `${lines.join('\r\n')}\r\n\r\n${body}`
}

describe('createNodeListener writes the bytes toNodeListener(createHandler(...)) writes', () => {
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
      request('GET', '/api/v4/personal_access_tokens?search=%00', auth),
      request('OPTIONS', '*', auth),
      request('GET', 'http://gitlab.test/api/v4/personal_access_tokens?per_page=1', auth),
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

  it("with createHandler's options: basePath, publicUrl and bodyLimit", async () => {
    const options = {
      basePath: '/gitlab/api/v4',
      publicUrl: 'https://gitlab.example.com',
      bodyLimit: 16,
    }
    const { direct, general, secret } = await twins(options)
    const auth = { 'PRIVATE-TOKEN': secret }
    const json = { ...auth, 'Content-Type': 'application/json' }
    const cases: [string, string][] = [
      [request('GET', '/gitlab/api/v4/personal_access_tokens?per_page=1', auth), 'HTTP/1.1 200 OK'],
      [request('GET', '/api/v4/personal_access_tokens/self', auth), 'HTTP/1.1 404 Not Found'],
      [
        request(
          'POST',
          '/gitlab/api/v4/personal_access_tokens/self/rotate',
          json,
          `{"x":"${'y'.repeat(32)}"}`,
        ),
        'HTTP/1.1 413 Payload Too Large',
      ],
    ]
    for (const [raw, status] of cases) {
      const [d, g] = [await exchange(direct, raw), await exchange(general, raw)]
      expect(d, raw.split('\r\n')[0]).toBe(g)
      expect(d.split('\r\n')[0], raw.split('\r\n')[0]).toBe(status)
    }
    const list = await exchange(direct, cases[0]?.[0] ?? '')
    expect(list).toMatch(
      /\r\nlink: <https:\/\/gitlab\.example\.com\/gitlab\/api\/v4\/personal_access_tokens\?/i,
    )
  })
})

describe('toNodeListener: a plain Request/Response translator for any handler', () => {
  it("writes the handler's status, headers and body", async () => {
    const port = await serve(
      toNodeListener(async (request) =>
        Response.json(
          { method: request.method, path: new URL(request.url).pathname, body: await request.text() },
          {
            status: 201,
            headers: { 'x-seen': request.headers.get('x-test') ?? '' },
          },
        ),
      ),
    )
    const answer = await exchange(port, request('POST', '/anywhere', { 'X-Test': 'yes' }, 'hello'))
    expect(statusAndBody(answer)).toEqual([
      'HTTP/1.1 201 Created',
      '{"method":"POST","path":"/anywhere","body":"hello"}',
    ])
    expect(answer).toMatch(/\r\nx-seen: yes\r\n/i)
  })

  it('answers 500 when the handler throws', async () => {
    const port = await serve(
      toNodeListener(async () => {
        throw new Error('a bug')
      }),
    )
    const answer = await exchange(port, request('GET', '/x'))
    expect(statusAndBody(answer)).toEqual([
      'HTTP/1.1 500 Internal Server Error',
      '{"message":"500 Internal Server Error"}',
    ])
  })
})

/** A request line and headers exactly as given (no Host added), then an empty body. */
function raw(requestLine: string, headers: Record<string, string>): string {
  const lines = [requestLine, 'Connection: close']
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`)
  return `${lines.join('\r\n')}\r\n\r\n`
}

/** The status line and body of a raw answer. */
function statusAndBody(answer: string): [string, string] {
  const [head = '', body = ''] = answer.split('\r\n\r\n')
  return [head.split('\r\n')[0] ?? '', body]
}

describe('createNodeListener and toNodeListener: malformed requests get 400/405 as GitLab behind nginx, never a 500 (issue 9, item 7)', () => {
  const SELF = '/api/v4/personal_access_tokens/self'

  it('an invalid Host is 400 Bad Request, on both paths', async () => {
    const { direct, general, secret } = await twins()
    for (const host of ['a b', '[::1', 'user:pw@h', 'h:99999', '', 'h/x', 'h?x', 'h#x', '[zz]', 'h\\x']) {
      const request = raw(`GET ${SELF} HTTP/1.1`, { Host: host, 'PRIVATE-TOKEN': secret })
      for (const port of [direct, general]) {
        const answer = await exchange(port, request)
        expect(statusAndBody(answer), `Host: ${host}`).toEqual(['HTTP/1.1 400 Bad Request', 'Bad Request'])
        expect(answer, `Host: ${host}`).toMatch(/\r\ncontent-type: text\/plain\r\n/i)
      }
    }
  })

  it('a valid Host is served: a name, an IPv4 or IPv6 address, with or without a port', async () => {
    const { direct, general, secret } = await twins()
    for (const host of ['gitlab.example.com', '127.0.0.1:3000', '[::1]', '[::1]:8080', 'h:']) {
      const request = raw(`GET ${SELF} HTTP/1.1`, { Host: host, 'PRIVATE-TOKEN': secret })
      for (const port of [direct, general]) {
        expect(statusAndBody(await exchange(port, request))[0], `Host: ${host}`).toBe('HTTP/1.1 200 OK')
      }
    }
  })

  it('TRACE is 405, as nginx answers it, on every path', async () => {
    const { direct, general, secret } = await twins()
    for (const path of [SELF, '/elsewhere', '*']) {
      const request = raw(`TRACE ${path} HTTP/1.1`, { Host: '127.0.0.1', 'PRIVATE-TOKEN': secret })
      for (const port of [direct, general]) {
        expect(statusAndBody(await exchange(port, request)), `TRACE ${path}`).toEqual([
          'HTTP/1.1 405 Method Not Allowed',
          '{"error":"405 Method Not Allowed"}',
        ])
      }
    }
  })

  it('OPTIONS * and any target neither a path nor an http(s) URL is 400, as nginx answers', async () => {
    const { direct, general } = await twins()
    const reaching = ['OPTIONS * HTTP/1.1', 'GET * HTTP/1.1', 'GET ftp://x/ HTTP/1.1', 'GET ws://x/ HTTP/1.1']
    for (const line of reaching) {
      for (const port of [direct, general]) {
        const answer = await exchange(port, raw(line, { Host: '127.0.0.1' }))
        expect(statusAndBody(answer), line).toEqual(['HTTP/1.1 400 Bad Request', 'Bad Request'])
      }
    }
    // node's parser answers these itself (400, no body): they never reach patkit.
    for (const line of ['GET api/v4/personal_access_tokens HTTP/1.1', 'GET mailto:x HTTP/1.1']) {
      const answer = await exchange(direct, raw(line, { Host: '127.0.0.1' }))
      expect(statusAndBody(answer)[0], line).toBe('HTTP/1.1 400 Bad Request')
    }
  })

  it('an absolute-form target is served, with the host of the target (RFC 9112), not of Host', async () => {
    const { direct, general, secret } = await twins()
    const line = 'GET http://gitlab.example.com:8080/api/v4/personal_access_tokens?per_page=1 HTTP/1.1'
    for (const port of [direct, general]) {
      const answer = await exchange(port, raw(line, { Host: '127.0.0.1', 'PRIVATE-TOKEN': secret }))
      expect(statusAndBody(answer)[0]).toBe('HTTP/1.1 200 OK')
      expect(answer).toMatch(
        /\r\nlink: <http:\/\/gitlab\.example\.com:8080\/api\/v4\/personal_access_tokens\?/i,
      )
    }
  })

  it('an absolute-form target with credentials or a bad host is 400', async () => {
    const { direct, general, secret } = await twins()
    for (const target of [
      'http://u:p@x/api/v4/personal_access_tokens/self',
      'http://a%20b/x',
      'http://h:99999/x',
    ]) {
      for (const port of [direct, general]) {
        const answer = await exchange(
          port,
          raw(`GET ${target} HTTP/1.1`, { Host: '127.0.0.1', 'PRIVATE-TOKEN': secret }),
        )
        expect(statusAndBody(answer), target).toEqual(['HTTP/1.1 400 Bad Request', 'Bad Request'])
      }
    }
  })

  it('HEAD with an invalid Host gets the 400 without a body', async () => {
    const { direct, general } = await twins()
    for (const port of [direct, general]) {
      const answer = await exchange(port, raw(`HEAD ${SELF} HTTP/1.1`, { Host: 'a b' }))
      expect(statusAndBody(answer)).toEqual(['HTTP/1.1 400 Bad Request', ''])
    }
  })

  it('the server answers normally after every malformed request', async () => {
    const { direct, general, secret } = await twins()
    for (const port of [direct, general]) {
      await exchange(port, raw(`GET ${SELF} HTTP/1.1`, { Host: '[::1' }))
      await exchange(port, raw('OPTIONS * HTTP/1.1', { Host: '127.0.0.1' }))
      await exchange(port, raw(`TRACE ${SELF} HTTP/1.1`, { Host: '127.0.0.1' }))
      const answer = await exchange(
        port,
        raw(`GET ${SELF} HTTP/1.1`, { Host: '127.0.0.1', 'PRIVATE-TOKEN': secret }),
      )
      expect(statusAndBody(answer)[0]).toBe('HTTP/1.1 200 OK')
    }
  })
})
