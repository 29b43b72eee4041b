const json = (schema: Record<string, unknown>) => ({ content: { 'application/json': { schema } } })
const ok = (description: string, schema: Record<string, unknown> = { type: 'object' }) => ({
  '200': { description, ...json(schema) },
})
const clockState = {
  type: 'object',
  required: ['now', 'frozen'],
  properties: { now: { type: 'string', format: 'date-time' }, frozen: { type: 'boolean' } },
}
const seed = { $ref: '#/components/schemas/Seed' }
const errorBody = json({ $ref: '#/components/schemas/Error' })
const error = { '400': { description: 'invalid input', ...errorBody } }

// What the guard answers on every route before the route itself (control-guard.ts); 415 only where a
// body is taken, though a non-JSON Content-Type is refused on every route.
const refusals = (takesBody: boolean) => ({
  '401': { $ref: '#/components/responses/Unauthorized' },
  '403': { $ref: '#/components/responses/Forbidden' },
  ...(takesBody ? { '415': { $ref: '#/components/responses/UnsupportedMediaType' } } : {}),
})

interface Operation {
  readonly summary: string
  readonly parameters?: readonly unknown[]
  readonly requestBody?: unknown
  readonly responses: Readonly<Record<string, unknown>>
}

// Every operation with the guard's answers added to its own.
function withRefusals(
  paths: Readonly<Record<string, Readonly<Record<string, Operation>>>>,
): Readonly<Record<string, Readonly<Record<string, Operation>>>> {
  return Object.fromEntries(
    Object.entries(paths).map(([path, operations]) => [
      path,
      Object.fromEntries(
        Object.entries(operations).map(([method, operation]) => [
          method,
          {
            ...operation,
            responses: { ...operation.responses, ...refusals(operation.requestBody !== undefined) },
          },
        ]),
      ),
    ]),
  )
}

/**
 * The OpenAPI 3.1 document of the control API, served at `GET /__patkit/openapi.json`.
 *
 * @example
 * ```ts
 * import { CONTROL_OPENAPI } from './openapi.js'
 *
 * Object.keys(CONTROL_OPENAPI.paths) // ['/__patkit/clock', ...]
 * ```
 */
export const CONTROL_OPENAPI = Object.freeze({
  openapi: '3.1.0',
  info: {
    title: 'patkit fake GitLab: control API',
    version: '1',
    description:
      'Drives a fake GitLab token authority from a test in any language: its clock, its data, the journal of requests and events, and injected faults. Served beside /api/v4 by `patkit serve` and `createFakeGitLab`; never by the embeddable handler unless asked for. Every request must be addressed to a loopback host (localhost, 127.0.0.0/8, [::1]) or an allowed one, and must not come from a web page of another origin (403); a body must be sent as Content-Type: application/json (415); with a control token (--control-token-file, PATKIT_CONTROL_TOKEN, --control-token) every request needs the X-Patkit-Control-Token header (401). No CORS header is ever sent.',
  },
  components: {
    securitySchemes: { controlToken: { type: 'apiKey', in: 'header', name: 'X-Patkit-Control-Token' } },
    responses: {
      Unauthorized: {
        description: 'a control token is set and the X-Patkit-Control-Token header does not carry it',
        ...errorBody,
      },
      Forbidden: {
        description:
          'the Host is not a loopback or allowed host (DNS rebinding), or a web page of another origin sent the request (Origin, Sec-Fetch-Site)',
        ...errorBody,
      },
      UnsupportedMediaType: {
        description: 'a body (or a Content-Type) other than Content-Type: application/json',
        ...errorBody,
      },
    },
    schemas: {
      Error: { type: 'object', required: ['error'], properties: { error: { type: 'string' } } },
      Seed: {
        type: 'object',
        description:
          'The seed format of `patkit serve --seed` (docs/cli.md): users and tokens; a token has `token` (its secret) or `token_digest` with `id`.',
        properties: {
          users: { type: 'array', items: { type: 'object' } },
          tokens: { type: 'array', items: { type: 'object' } },
        },
      },
      FaultRule: {
        type: 'object',
        properties: {
          method: { type: 'string' },
          path: { type: 'string', description: 'exact, or a prefix ending in *' },
          tokenId: { type: 'integer' },
          times: { type: 'integer', minimum: 1 },
          probability: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
          status: { type: 'integer', minimum: 100, maximum: 599 },
          body: {},
          delayMs: { type: 'integer', minimum: 0, maximum: 600000 },
          drop: { type: 'boolean' },
        },
      },
    },
  },
  security: [{}, { controlToken: [] }],
  paths: withRefusals({
    '/__patkit/openapi.json': { get: { summary: 'This document', responses: ok('the document') } },
    '/__patkit/clock': { get: { summary: 'The clock', responses: ok('now and whether frozen', clockState) } },
    '/__patkit/clock/set': {
      post: {
        summary: 'Move the clock to an instant',
        requestBody: json({
          type: 'object',
          required: ['at'],
          properties: { at: { type: 'string', format: 'date-time' } },
        }),
        responses: { ...ok('the clock', clockState), ...error },
      },
    },
    '/__patkit/clock/advance': {
      post: {
        summary: 'Move the clock by a duration (negative: back)',
        requestBody: json({
          type: 'object',
          properties: Object.fromEntries(
            ['ms', 'seconds', 'minutes', 'hours', 'days'].map((u) => [u, { type: 'number' }]),
          ),
        }),
        responses: { ...ok('the clock', clockState), ...error },
      },
    },
    '/__patkit/clock/freeze': { post: { summary: 'Stop the clock', responses: ok('the clock', clockState) } },
    '/__patkit/clock/resume': {
      post: { summary: 'Let the clock run again', responses: ok('the clock', clockState) },
    },
    '/__patkit/reset': {
      post: {
        summary: 'Back to the start seed; clears the journal and the faults (the clock is left as it is)',
        responses: {
          ...ok('counts of what was loaded'),
          '409': { description: 'the data is in a database of its own' },
        },
      },
    },
    '/__patkit/state': {
      get: {
        summary: 'Snapshot of every user and token in the seed format',
        responses: ok('the snapshot', seed),
      },
      put: {
        summary: 'Replace the data with a snapshot',
        requestBody: json(seed),
        responses: {
          ...ok('counts of what was loaded'),
          ...error,
          '409': { description: 'the data is in a database of its own' },
        },
      },
    },
    '/__patkit/users': {
      post: {
        summary: 'Add (or replace by id) one user or an array of users',
        requestBody: json({ type: 'object' }),
        responses: { '201': { description: 'added' }, ...error },
      },
    },
    '/__patkit/tokens': {
      post: {
        summary: 'Add one token in the seed format; without `token` a fresh secret is made and returned',
        requestBody: json({ type: 'object', required: ['user_id', 'name', 'scopes'] }),
        responses: {
          '201': {
            description: 'the id and the secret',
            ...json({
              type: 'object',
              properties: {
                id: { type: 'integer' },
                user_id: { type: 'integer' },
                token: { type: 'string' },
              },
            }),
          },
          ...error,
        },
      },
    },
    '/__patkit/journal': {
      get: {
        summary: 'Recorded requests and authority events, oldest first, filtered',
        parameters: ['kind', 'method', 'path', 'status', 'token_id', 'user_id', 'type', 'after', 'limit'].map(
          (name) => ({
            name,
            in: 'query',
            required: false,
            schema: { type: 'string' },
          }),
        ),
        responses: { ...ok('{ count, dropped, entries }'), ...error },
      },
      delete: { summary: 'Forget every entry', responses: { '204': { description: 'cleared' } } },
    },
    '/__patkit/faults': {
      get: {
        summary: 'The fault rules',
        responses: ok('the rules', { type: 'array', items: { $ref: '#/components/schemas/FaultRule' } }),
      },
      post: {
        summary: 'Add a fault rule',
        requestBody: json({ $ref: '#/components/schemas/FaultRule' }),
        responses: { '201': { description: 'the stored rule with its id' }, ...error },
      },
      delete: { summary: 'Remove every rule', responses: { '204': { description: 'cleared' } } },
    },
    '/__patkit/faults/{id}': {
      delete: {
        summary: 'Remove one rule',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '204': { description: 'removed' }, '404': { description: 'no such rule' } },
      },
    },
  }),
})
