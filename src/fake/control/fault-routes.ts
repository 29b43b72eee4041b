import { problem, reply } from './control-reply.js'
import { type ControlRow, controlRoute } from './control-row.js'
import { answer, closed, failure, INVALID, integer, json, nullable, ref } from './openapi-schema.js'

// What a fault does to a request: a rule's own action, or one step of its sequence.
const faultActionFields = {
  status: integer(200, {
    maximum: 599,
    description: 'a final answer a client can receive (205 is refused; 204 and 304 take no body)',
  }),
  body: { description: 'any JSON (at most 64 levels deep and 64 KiB): the body answered with status' },
  headers: {
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'headers of the answer given with status (Retry-After, RateLimit-Reset, ...)',
  },
  delayMs: integer(0, { maximum: 600_000 }),
  drop: { type: 'boolean' },
  lostAnswer: {
    type: 'boolean',
    description:
      'serve the request for real first (a rotation commits), then answer status (a 502) or drop the connection instead of the real answer; needs status or drop',
  },
}

// A fault rule as added: which requests it matches and what it does to them.
const faultRuleFields = {
  method: { type: 'string', pattern: '^[A-Za-z]+$' },
  path: { type: 'string', pattern: '^/', description: 'exact, or a prefix ending in *' },
  tokenId: integer(1),
  times: integer(1, { maximum: 1_000_000 }),
  probability: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
  ...faultActionFields,
  sequence: {
    type: 'array',
    minItems: 1,
    maxItems: 100,
    items: { oneOf: [{ type: 'null' }, closed(faultActionFields)] },
    description:
      'one step per matching request, in order: an action, or null for the normal answer; the rule is spent after the last step; not with times or an action field',
  },
}

/** The fault rules' schemas in the OpenAPI document. */
export const FAULT_SCHEMAS = {
  FaultRuleInput: closed(faultRuleFields),
  FaultRule: closed(
    {
      ...faultRuleFields,
      id: { type: 'string' },
      hits: integer(0),
      remaining: nullable('integer', {
        minimum: 0,
        description: 'steps left for a sequence; null without times or sequence',
      }),
    },
    ['id', 'hits', 'remaining'],
  ),
}

/** `/__patkit/faults`: the rules that make the fake fail on purpose. */
export const FAULT_ROUTES: readonly ControlRow[] = [
  controlRoute({
    method: 'GET',
    path: '/faults',
    doc: {
      operationId: 'listFaults',
      summary: 'The fault rules',
      responses: { '200': answer('the rules', { type: 'array', items: ref('FaultRule') }) },
    },
    serve: ({ parts }) => reply(200, parts.faults.list()),
  }),
  controlRoute({
    method: 'POST',
    path: '/faults',
    body: 'json',
    doc: {
      operationId: 'addFault',
      summary: 'Add a fault rule (it needs status, drop, delayMs or sequence)',
      requestBody: { required: true, ...json(ref('FaultRuleInput')) },
      responses: { '201': answer('the stored rule with its id', ref('FaultRule')), ...INVALID },
    },
    serve: ({ parts, body }) => {
      const added = parts.faults.add(body)
      return added.isErr() ? problem(400, added.error) : reply(201, added.value)
    },
  }),
  controlRoute({
    method: 'DELETE',
    path: '/faults',
    doc: {
      operationId: 'clearFaults',
      summary: 'Remove every rule',
      responses: { '204': { description: 'cleared' } },
    },
    serve: ({ parts }) => {
      parts.faults.clear()
      return reply(204, null)
    },
  }),
  controlRoute({
    method: 'DELETE',
    path: '/faults/:id',
    pathSchemas: { id: { type: 'string' } },
    doc: {
      operationId: 'removeFault',
      summary: 'Remove one rule',
      responses: { '204': { description: 'removed' }, '404': failure('no such fault rule') },
    },
    serve: ({ parts, path }) =>
      parts.faults.remove(path.id) ? reply(204, null) : problem(404, 'no such fault rule'),
  }),
]
