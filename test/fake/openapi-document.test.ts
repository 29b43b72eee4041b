import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { afterEach, describe, expect, it } from 'vitest'
import { seededRandom } from '../../src/domain/random.js'
import { CONTROL_OPENAPI } from '../../src/fake/control/control-routes.js'
import { createFakeGitLab, type FakeGitLab, type FakeGitLabOptions } from '../../src/fake/fake-gitlab.js'
import { START_SNAPSHOT_LIMIT } from '../../src/fake/fake-state.js'
import {
  seedGroupSchema,
  seedMemberSchema,
  seedProjectSchema,
} from '../../src/fake/seed/seed-resource-schema.js'
import { seedTokenSchema, seedUserSchema } from '../../src/fake/seed/seed-schema.js'
import { memoryStore } from '../../src/memory/memory-store.js'
import { tokenFixture } from '../../src/testing/index.js'

// The control API's OpenAPI document is a valid OpenAPI 3.1 document (checked by an OpenAPI validator,
// and every schema in it compiled by ajv in strict mode), and it tells the truth: every documented
// route is driven to a success and to an error, and each answer's status must be declared for its
// operation and its body must match the declared schema (ajv, JSON Schema 2020-12).

type Json = Record<string, unknown>
const document = JSON.parse(JSON.stringify(CONTROL_OPENAPI)) as Json
const BASE = 'https://patkit.invalid/openapi.json'

// ajv-formats is CommonJS; its module object carries the plugin as `default` too.
const addFormats = addFormatsModule.default

function newAjv() {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true })
  addFormats(ajv)
  // The document's schemas, reachable under its own JSON pointers (#/components/schemas/X).
  ajv.addSchema({ $id: BASE, $defs: rebased((document['components'] as Json)['schemas']) as Json })
  return ajv
}

// `#/components/schemas/X` of the document, as the schema added above knows it.
function rebased(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebased)
  if (schema === null || typeof schema !== 'object') return schema
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string'
        ? value.replace('#/components/schemas/', `${BASE}#/$defs/`)
        : rebased(value),
    ]),
  )
}

function resolveResponse(response: Json): Json {
  const target = response['$ref']
  if (typeof target !== 'string') return response
  const name = target.replace('#/components/responses/', '')
  return ((document['components'] as Json)['responses'] as Json)[name] as Json
}

interface OperationRef {
  readonly path: string
  readonly method: string
  readonly operation: Json
}

const operations: OperationRef[] = Object.entries(document['paths'] as Json).flatMap(([path, methods]) =>
  Object.entries(methods as Json).map(([method, operation]) => ({
    path,
    method,
    operation: operation as Json,
  })),
)

function operationOf(method: string, pathname: string): OperationRef | undefined {
  return operations.find(
    (op) =>
      op.method === method.toLowerCase() &&
      new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(pathname),
  )
}

// The validator compiles the OpenAPI 3.1 meta-schema first: over a second of CPU alone.
const REAL_ANSWERS_TIMEOUT_MS = 30_000

describe('the document is valid OpenAPI 3.1', { timeout: 30_000 }, () => {
  it('passes an OpenAPI 3.1 validator; a broken copy does not', async () => {
    const validator = new Validator()
    const result = await validator.validate(document)
    expect(result.errors ?? []).toEqual([])
    expect([result.valid, validator.version]).toEqual([true, '3.1'])
    const broken = structuredClone(document)
    // A response without its description, an operation with a parameter nowhere.
    ;((broken['paths'] as Json)['/__patkit/clock'] as Json)['get'] = {
      responses: { '200': {} },
      parameters: [{ name: 'x' }],
    }
    expect((await new Validator().validate(broken)).valid).toBe(false)
  })

  it('every schema compiles in ajv strict mode, and every $ref resolves', () => {
    const ajv = newAjv()
    const schemas: unknown[] = []
    const collect = (node: unknown, key: string) => {
      if (node === null || typeof node !== 'object') return
      if (key === 'schema') schemas.push(node)
      for (const [k, v] of Object.entries(node)) collect(v, k)
    }
    collect(document['paths'], '')
    collect((document['components'] as Json)['responses'], '')
    expect(schemas.length).toBeGreaterThan(30)
    for (const schema of schemas) expect(() => ajv.compile(rebased(schema) as Json)).not.toThrow()
  })

  it('every operation has a unique operationId and a summary; servers are given', () => {
    const ids = operations.map(({ operation }) => operation['operationId'])
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true)
    expect(new Set(ids).size).toBe(ids.length)
    expect(operations.every(({ operation }) => typeof operation['summary'] === 'string')).toBe(true)
    expect(document['servers']).toEqual(expect.arrayContaining([expect.objectContaining({ url: '/' })]))
  })

  it("the seed schemas name the seed format's fields", () => {
    const schemas = (document['components'] as Json)['schemas'] as Record<string, { properties: Json }>
    expect(Object.keys(schemas['SeedUser']?.properties ?? {}).sort()).toEqual(
      Object.keys(seedUserSchema.shape).sort(),
    )
    expect(Object.keys(schemas['SeedToken']?.properties ?? {}).sort()).toEqual(
      Object.keys(seedTokenSchema.shape).sort(),
    )
    expect(Object.keys(schemas['SeedGroup']?.properties ?? {}).sort()).toEqual(
      Object.keys(seedGroupSchema.shape).sort(),
    )
    expect(Object.keys(schemas['SeedProject']?.properties ?? {}).sort()).toEqual(
      Object.keys(seedProjectSchema.shape).sort(),
    )
    expect(Object.keys(schemas['SeedMember']?.properties ?? {}).sort()).toEqual(
      Object.keys(seedMemberSchema.shape).sort(),
    )
  })
})

describe('real answers of the control API match the document', () => {
  const ALICE = 'glpat-openapi-alice-secret-1'
  const running: FakeGitLab[] = []
  afterEach(async () => {
    await Promise.all(running.splice(0).map((gitlab) => gitlab.close()))
  })

  async function start(options: FakeGitLabOptions = {}) {
    const gitlab = await createFakeGitLab({
      users: [
        { id: 1, username: 'root', admin: true },
        { id: 2, username: 'alice' },
      ],
      tokens: [{ id: 1, user_id: 2, name: 'ci', scopes: ['api'], token: ALICE, expires_at: '2026-02-01' }],
      random: () => seededRandom(1),
      ...options,
    })
    running.push(gitlab)
    return gitlab
  }

  // Every control route answered twice over HTTP, each body validated by ajv: about 1 s alone, 2.5 s
  // and more on a busy machine.
  it(
    'every route, a success and an error each: the status is declared and the body fits',
    async () => {
      const ajv = newAjv()
      const gitlab = await start()
      const guarded = await start({ controlToken: 'the-control-token' })
      // A store of the caller holding more tokens at start than a reset keeps: its reset is refused.
      const crowded = memoryStore()
      for (let id = 1; id <= START_SNAPSHOT_LIMIT + 1; id++)
        await crowded.importToken(tokenFixture(100_000 + id))
      const database = await start({ store: crowded })
      const seen = new Map<string, Set<string>>()
      const failures: string[] = []

      async function call(
        target: FakeGitLab,
        method: string,
        path: string,
        expected: number,
        init: { body?: string | object; headers?: Record<string, string> } = {},
      ) {
        const { body, headers = {} } = init
        const response = await fetch(`${target.url}/__patkit${path}`, {
          method,
          headers: { 'content-type': 'application/json', ...headers },
          ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
        })
        const pathname = `/__patkit${path.split('?')[0]}`
        // An event stream never ends by itself: its first chunk is read, then it is cancelled.
        const streaming = response.headers.get('content-type') === 'text/event-stream'
        const reader = streaming ? response.body?.getReader() : undefined
        const text = reader === undefined ? await response.text() : ''
        if (reader !== undefined) {
          if ((await reader.read()).done) failures.push(`${method} ${path}: the stream ended at once`)
          await reader.cancel()
        }
        const where = `${method} ${path} -> ${response.status}`
        if (response.status !== expected) failures.push(`${where}: expected ${expected}: ${text}`)
        const op = operationOf(method, pathname)
        if (op === undefined) {
          failures.push(`${where}: no such operation in the document`)
          return
        }
        const key = `${op.method} ${op.path}`
        seen.set(key, (seen.get(key) ?? new Set()).add(response.status < 300 ? 'success' : 'error'))
        const declared = (op.operation['responses'] as Json)[String(response.status)] as Json | undefined
        if (declared === undefined) {
          failures.push(`${where}: status not declared`)
          return
        }
        const content = resolveResponse(declared)['content'] as Json | undefined
        if (streaming) {
          if (content?.['text/event-stream'] === undefined)
            failures.push(`${where}: no event stream declared`)
          return
        }
        if (content === undefined) {
          if (text !== '') failures.push(`${where}: a body where none is declared: ${text}`)
          return
        }
        if (response.headers.get('content-type') !== 'application/json')
          failures.push(`${where}: content-type ${response.headers.get('content-type')}`)
        const schema = (content['application/json'] as Json)['schema']
        const validate = ajv.compile(rebased(schema) as Json)
        if (!validate(JSON.parse(text))) {
          failures.push(`${where}: ${ajv.errorsText(validate.errors)} in ${text.slice(0, 300)}`)
        }
      }

      // Requests to GitLab's API first, so the journal holds requests and events (rotated, used).
      const rotated = await fetch(`${gitlab.apiUrl}/personal_access_tokens/self/rotate`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': ALICE },
      })
      const { token } = (await rotated.json()) as { token: string }
      await fetch(`${gitlab.apiUrl}/personal_access_tokens/self`, { headers: { 'PRIVATE-TOKEN': token } })

      await call(gitlab, 'GET', '/tokens?state=active&per_page=2', 200)
      await call(gitlab, 'GET', '/tokens?state=gone', 400)
      await call(gitlab, 'GET', '/tokens?resource_type=project&resource_id=9', 404)
      await call(gitlab, 'GET', '/tokens/1/family', 200)
      await call(gitlab, 'GET', '/tokens/99/family', 404)
      await call(gitlab, 'GET', '/users?per_page=1', 200)
      await call(gitlab, 'GET', '/users?per_page=0', 400)
      await call(gitlab, 'GET', '/groups', 200)
      await call(gitlab, 'GET', '/groups?page=x', 400)
      await call(gitlab, 'GET', '/projects', 200)
      await call(gitlab, 'GET', '/projects?per_page=0', 400)
      await call(gitlab, 'GET', '/journal/stream?since=0', 200)
      await call(gitlab, 'GET', '/journal/stream?type=nope', 400)
      await call(gitlab, 'GET', '/openapi.json', 200)
      await call(gitlab, 'GET', '/openapi.json', 403, { headers: { origin: 'https://evil.example' } })
      await call(gitlab, 'GET', '/clock', 200)
      await call(gitlab, 'GET', '/deliveries?wait=true', 200)
      await call(gitlab, 'GET', '/deliveries?wait=maybe', 400)
      await call(gitlab, 'POST', '/deliveries/wait', 200)
      await call(gitlab, 'POST', '/deliveries/wait?wait=maybe', 400)
      await call(guarded, 'GET', '/clock', 401)
      await call(gitlab, 'POST', '/clock/set', 200, { body: { at: '2026-01-02T00:00:00Z' } })
      await call(gitlab, 'POST', '/clock/set', 400, { body: { at: '2026-02-30T00:00:00Z' } })
      await call(gitlab, 'POST', '/clock/advance', 200, { body: { hours: 1 } })
      await call(gitlab, 'POST', '/clock/advance', 400, { body: { weeks: 1 } })
      await call(gitlab, 'POST', '/clock/freeze', 200)
      await call(gitlab, 'POST', '/clock/freeze', 415, {
        headers: { 'content-type': 'text/plain' },
        body: 'x',
      })
      await call(gitlab, 'POST', '/clock/resume', 200)
      await call(gitlab, 'POST', '/clock/resume', 413, { body: ' '.repeat(65 * 1024) })
      await call(gitlab, 'GET', '/state', 200)
      await call(gitlab, 'GET', '/state', 415, { headers: { 'content-type': 'text/plain' } })
      await call(gitlab, 'GET', '/journal', 200)
      await call(gitlab, 'GET', '/journal?kind=event&limit=3', 200)
      await call(gitlab, 'GET', '/journal?limit=-1', 400)
      await call(gitlab, 'GET', '/faults', 200)
      await call(guarded, 'GET', '/faults', 401)
      await call(gitlab, 'POST', '/faults', 201, { body: { path: '/api/v4/version', status: 503, times: 1 } })
      await call(gitlab, 'POST', '/faults', 400, { body: { status: 99 } })
      await call(gitlab, 'GET', '/faults', 200)
      await call(gitlab, 'DELETE', '/faults/fault-1', 204)
      await call(gitlab, 'DELETE', '/faults/fault-1', 404)
      await call(gitlab, 'DELETE', '/faults', 204)
      await call(gitlab, 'DELETE', '/faults', 403, { headers: { origin: 'https://evil.example' } })
      await call(gitlab, 'POST', '/users', 201, { body: [{ id: 3, username: 'bob' }] })
      await call(gitlab, 'POST', '/users', 201, { body: { id: 4, username: 'carol', admin: true } })
      await call(gitlab, 'POST', '/users', 400, { body: { id: 0, username: 'x' } })
      await call(gitlab, 'POST', '/tokens', 201, { body: { user_id: 3, name: 'bob-ci', scopes: ['api'] } })
      await call(gitlab, 'POST', '/tokens', 400, { body: { user_id: 9, name: 'x', scopes: ['api'] } })
      await call(gitlab, 'POST', '/users', 400, { body: { id: 6, username: 'bot', bot: true } })
      await call(gitlab, 'POST', '/groups', 201, {
        body: { id: 1, path: 'acme', name: 'Acme', members: [{ user_id: 3, access_level: 50 }] },
      })
      await call(gitlab, 'POST', '/groups', 400, { body: [{ id: 2, path: 'x', name: 'X', parent_id: 9 }] })
      await call(gitlab, 'POST', '/projects', 201, {
        body: [{ id: 1, path: 'api', name: 'API', group_id: 1 }],
      })
      await call(gitlab, 'POST', '/projects', 400, { body: 'x' })
      await call(gitlab, 'GET', '/state', 200)
      const snapshot = (await (await fetch(`${gitlab.url}/__patkit/state`)).json()) as object
      await call(gitlab, 'PUT', '/state', 200, { body: snapshot })
      await call(gitlab, 'PUT', '/state', 200, {
        body: {
          users: [
            { id: 2, username: 'alice', name: 'Alice' },
            { id: 5, username: 'project_1_bot_a', bot: true, bot_namespace: { type: 'project', id: 1 } },
          ],
          groups: [{ id: 1, path: 'acme', name: 'Acme', members: [{ user_id: 2, access_level: 50 }] }],
          projects: [
            { id: 1, path: 'api', name: 'API', group_id: 1, members: [{ user_id: 5, access_level: 40 }] },
          ],
          tokens: [{ user_id: 5, name: 'deploy', scopes: ['api'], token: 'glpat-openapi-bot-secret' }],
        },
      })
      await call(gitlab, 'GET', '/state', 200)
      await call(gitlab, 'PUT', '/state', 400)
      await call(gitlab, 'PUT', '/state', 400, {
        body: { tokens: [{ user_id: 2, name: 'x', scopes: ['api'] }] },
      })
      await call(gitlab, 'POST', '/reset', 200)
      await call(database, 'POST', '/reset', 409)
      await call(gitlab, 'DELETE', '/journal', 204)
      await call(guarded, 'DELETE', '/journal', 401)

      expect(failures).toEqual([])
      const missing = operations
        .map(({ method, path }) => `${method} ${path}`)
        .filter((key) => seen.get(key)?.size !== 2)
      expect(missing, 'routes not driven to both a success and an error').toEqual([])
    },
    REAL_ANSWERS_TIMEOUT_MS,
  )
})
