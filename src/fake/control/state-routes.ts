import type { SeedReport } from '../seed/load-seed.js'
import { granularScopesJson } from '../seed/seed-granular.js'
import type { ControlParts } from './control-parts.js'
import { problem, reply } from './control-reply.js'
import { type ControlRow, controlRoute } from './control-row.js'
import { answer, closed, failure, INVALID, integer, json, ref } from './openapi-schema.js'

// What a reset or restore loaded, as `Counts` in the OpenAPI document.
function counted(report: SeedReport) {
  const { users, groups, projects } = report
  return { users, tokens: report.issued.length + report.restored.length, groups, projects }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

const COUNTS = { '200': answer('counts of what was loaded', ref('Counts')) }

// `POST /__patkit/groups` and `/projects`: one in the seed format, or an array of them.
function resourceRoute(kind: 'groups' | 'projects', noun: 'group' | 'project', schema: string): ControlRow {
  const capital = `${noun[0]?.toUpperCase() ?? ''}${noun.slice(1)}`
  return controlRoute({
    method: 'POST',
    path: `/${kind}`,
    body: 'json',
    doc: {
      operationId: `add${capital}s`,
      summary: `Add (or replace by id, members included) one ${noun} or an array of ${kind}`,
      requestBody: {
        required: true,
        ...json({ oneOf: [ref(schema), { type: 'array', items: ref(schema) }] }),
      },
      responses: {
        '201': answer(`the ${kind} given, as an array`, { type: 'array', items: ref(schema) }),
        ...INVALID,
      },
    },
    serve: async ({ parts, body }) => {
      if (!isObject(body) && !Array.isArray(body))
        return problem(
          400,
          `the body must be a JSON object or array: a ${noun} or ${kind} in the seed format`,
        )
      const entries: unknown[] = Array.isArray(body) ? body : [body]
      const added = await parts.state.add({ [kind]: entries })
      if (added.isErr()) return reply(400, { error: `invalid ${noun}`, problems: added.error })
      return reply(201, entries)
    },
  })
}

// A token without a secret gets a fresh one, returned here and kept for snapshots like a given one.
async function addToken(parts: ControlParts, body: unknown): Promise<Response> {
  if (!isObject(body)) return problem(400, 'the body must be a JSON object: a token in the seed format')
  const userId = body['user_id']
  const token = { token: parts.mint(typeof userId === 'number' ? userId : 0), ...body }
  const added = await parts.state.add({ tokens: [token] })
  if (added.isErr()) return reply(400, { error: 'invalid token', problems: added.error })
  const issued = added.value.issued[0]
  if (issued === undefined) return problem(409, 'this secret is already stored')
  const { id, granularScopes } = issued.token
  return reply(201, {
    id,
    user_id: issued.token.userId,
    token: issued.secret,
    ...(granularScopes === undefined ? {} : { granular_scopes: granularScopesJson(granularScopes) }),
  })
}

/** The data: back to the start, a snapshot, a restore, and users, tokens, groups and projects added. */
export const STATE_ROUTES: readonly ControlRow[] = [
  controlRoute({
    method: 'POST',
    path: '/reset',
    doc: {
      operationId: 'reset',
      summary:
        'Back to the start: the start data as the start wrote it (with a database, all it held once the start was done), the clock at its start; clears the journal and the faults',
      responses: {
        ...COUNTS,
        '409': failure('the data held over 10 000 tokens at start (no start snapshot was kept)'),
        '500': failure('the seed no longer loads (problems lists why)'),
      },
    },
    serve: async ({ parts: { state, journal, faults } }) => {
      const refusal = state.resetRefusal()
      if (refusal !== null) return problem(409, refusal)
      const reset = await state.reset()
      if (reset.isErr()) return reply(500, { error: 'the seed no longer loads', problems: reset.error })
      journal.clear()
      faults.clear()
      return reply(200, counted(reset.value))
    },
  }),
  controlRoute({
    method: 'GET',
    path: '/state',
    doc: {
      operationId: 'getState',
      summary: 'Snapshot of every user, token, group and project in the seed format',
      responses: { '200': answer('the snapshot', ref('Seed')), '500': failure('the store failed') },
    },
    serve: async ({ parts }) => {
      const snapshot = await parts.state.snapshot()
      return snapshot.isErr() ? problem(500, 'the store failed') : reply(200, snapshot.value)
    },
  }),
  controlRoute({
    method: 'PUT',
    path: '/state',
    body: 'bulk',
    doc: {
      operationId: 'restoreState',
      summary: 'Replace the data with a snapshot or any seed; {} empties it (a body is required)',
      requestBody: { required: true, ...json(ref('Seed')) },
      responses: {
        ...COUNTS,
        ...INVALID,
      },
    },
    serve: async ({ parts: { state }, body }) => {
      // An absent body is no request to wipe everything: emptying takes an explicit {}.
      if (!isObject(body))
        return problem(
          400,
          'the body must be a JSON object: the state to restore, {"users": [...], "tokens": [...]} (send {} to empty it)',
        )
      const restored = await state.restore(body)
      if (restored.isErr()) return reply(400, { error: 'invalid state', problems: restored.error })
      return reply(200, counted(restored.value))
    },
  }),
  controlRoute({
    method: 'POST',
    path: '/users',
    body: 'bulk',
    doc: {
      operationId: 'addUsers',
      summary: 'Add (or replace by id) one user or an array of users',
      requestBody: {
        required: true,
        ...json({ oneOf: [ref('SeedUser'), { type: 'array', items: ref('SeedUser') }] }),
      },
      responses: {
        '201': answer('the users given, as an array', { type: 'array', items: ref('SeedUser') }),
        ...INVALID,
      },
    },
    serve: async ({ parts, body }) => {
      if (!isObject(body) && !Array.isArray(body))
        return problem(400, 'the body must be a JSON object or array: a user or users in the seed format')
      const users: unknown[] = Array.isArray(body) ? body : [body]
      const added = await parts.state.add({ users })
      if (added.isErr()) return reply(400, { error: 'invalid user', problems: added.error })
      return reply(201, users)
    },
  }),
  controlRoute({
    method: 'POST',
    path: '/tokens',
    body: 'json',
    doc: {
      operationId: 'addToken',
      summary:
        'Add one token in the seed format (legacy with `scopes`, fine-grained with `granular_scopes`, checked as the seed is); without `token` a fresh secret is made and returned',
      requestBody: { required: true, ...json(ref('SeedToken')) },
      responses: {
        '201': answer(
          'the id and the secret; a fine-grained token’s granular scopes, one entry per scope',
          closed(
            {
              id: integer(1),
              user_id: integer(1),
              token: { type: 'string' },
              granular_scopes: {
                type: 'array',
                items: closed(
                  {
                    access: { type: 'string' },
                    permissions: { type: 'array', items: { type: 'string' } },
                    project_ids: { type: 'array', items: integer(1) },
                    group_ids: { type: 'array', items: integer(1) },
                  },
                  ['access', 'permissions'],
                ),
              },
            },
            ['id', 'user_id', 'token'],
          ),
        ),
        ...INVALID,
        '409': failure('this secret is already stored'),
      },
    },
    serve: ({ parts, body }) => addToken(parts, body),
  }),
  resourceRoute('groups', 'group', 'SeedGroup'),
  resourceRoute('projects', 'project', 'SeedProject'),
]
