import { deliveryJson } from '../hooks/fake-webhooks.js'
import type { ControlParts } from './control-parts.js'
import { problem, reply } from './control-reply.js'
import { type ControlRow, controlRoute } from './control-row.js'
import { answer, closed, INVALID, integer, nullable, queryParameters, ref } from './openapi-schema.js'

/** A delivery in the OpenAPI document. */
export const DELIVERY_SCHEMA = closed(
  {
    id: integer(1),
    hook_id: integer(1),
    resource: {
      ...closed({ type: { enum: ['project', 'group'] }, id: integer(1) }, ['type', 'id']),
      description: 'the project or group the hook belongs to',
    },
    at: { type: 'string', format: 'date-time', description: 'the fake clock when it was made' },
    cause: { enum: ['expiry', 'test'], description: 'a notice of the daily worker, or the hook test API' },
    token_id: nullable('integer'),
    interval: { enum: [60, 30, 7, null] },
    url: { type: 'string', description: 'credentials masked' },
    request_headers: { type: 'object', description: 'as sent, X-Gitlab-Token redacted' },
    payload: { description: 'the JSON body sent' },
    status: nullable('integer', { description: "the receiver's HTTP status; null without an answer" }),
    response_body: { type: 'string', description: 'at most 8 KiB' },
    duration_ms: { type: 'number' },
    error: {
      oneOf: [
        { type: 'null' },
        closed(
          { kind: { enum: ['timeout', 'refused', 'blocked', 'network'] }, message: { type: 'string' } },
          ['kind', 'message'],
        ),
      ],
    },
  },
  [
    'id',
    'hook_id',
    'resource',
    'at',
    'cause',
    'token_id',
    'interval',
    'url',
    'request_headers',
    'payload',
    'status',
    'response_body',
    'duration_ms',
    'error',
  ],
)

const DELIVERIES = answer(
  'the deliveries made, newest first, and how many are waiting or in flight',
  closed({ deliveries: { type: 'array', items: ref('Delivery') }, pending: integer(0) }, [
    'deliveries',
    'pending',
  ]),
)

async function listing(parts: ControlParts, url: URL, wait: boolean): Promise<Response> {
  const deliveries = parts.deliveries
  if (deliveries === undefined) return reply(200, { deliveries: [], pending: 0 })
  const given = url.searchParams.get('wait')
  if (given !== null && given !== 'true' && given !== 'false')
    return problem(400, 'wait must be true or false')
  // The notices due now were claimed and queued before this route ran (the control API runs the
  // daily worker first): waiting for the queue waits for every delivery due at the fake's instant.
  if (wait || given === 'true') await deliveries.idle()
  return reply(200, { deliveries: deliveries.list().map(deliveryJson), pending: deliveries.pending })
}

/** `/__patkit/deliveries`: the webhook deliveries the fake made, and the wait for them. */
export const DELIVERY_ROUTES: readonly ControlRow[] = [
  controlRoute({
    method: 'GET',
    path: '/deliveries',
    doc: {
      operationId: 'listDeliveries',
      summary: 'The webhook deliveries made (at most 1000, newest first)',
      parameters: queryParameters([
        {
          name: 'wait',
          schema: { type: 'boolean' },
          description: 'first wait until every delivery due at the current fake time is made',
        },
      ]),
      responses: { '200': DELIVERIES, ...INVALID },
    },
    serve: ({ parts, url }) => listing(parts, url, false),
  }),
  controlRoute({
    method: 'POST',
    path: '/deliveries/wait',
    doc: {
      operationId: 'waitForDeliveries',
      summary: 'Wait until every delivery due at the current fake time is made, then list them',
      responses: { '200': DELIVERIES, ...INVALID },
    },
    serve: ({ parts, url }) => listing(parts, url, true),
  }),
]
