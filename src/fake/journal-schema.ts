// The JSON Schema (OpenAPI 3.1) of a journal entry as the control API answers it (`GET /__patkit/journal`,
// the dashboard's journal stream): a request with its refusal reason and detail, or an authority event.
// The control API's OpenAPI document takes it as its `JournalEntry` component.
import { REFUSAL_CODES } from './refusal-reason.js'

const text = { type: 'string' } as const
const nullableInt = { type: ['integer', 'null'] } as const
const texts = { type: 'array', items: text } as const

// Each reason's fields beyond `code` and `message`.
const CLOSEST = {
  description: 'The known token whose prefix shares the most with the presented secret (never the secret).',
  oneOf: [
    {
      type: 'object',
      required: ['tokenId', 'prefix'],
      properties: { tokenId: { type: 'integer' }, prefix: text },
    },
    { type: 'null' },
  ],
} as const

const REASON_FIELDS: Readonly<Record<(typeof REFUSAL_CODES)[number], Readonly<Record<string, unknown>>>> = {
  no_token: {},
  malformed_token: { closest: CLOSEST },
  unknown_token: { closest: CLOSEST },
  owner_gone: { tokenId: nullableInt },
  token_expired: { tokenId: { type: 'integer' }, expiresOn: { type: ['string', 'null'], format: 'date' } },
  token_revoked: {
    tokenId: { type: 'integer' },
    revokedBy: { enum: ['revoke', 'rotation', 'reuse_detection', 'unknown'] },
    familyId: nullableInt,
  },
  insufficient_scope: { tokenId: nullableInt, required: texts, scopes: texts },
  insufficient_granular_scope: {
    tokenId: nullableInt,
    boundary: {
      enum: ['user', 'instance', 'project', 'group', null],
      description: 'Where the permissions were missing; null when the route takes no fine-grained token.',
    },
    missing: { ...texts, description: 'The assignable permissions the token lacks there, sorted.' },
  },
  blocked_owner: { userId: nullableInt },
  admin_mode: { tokenId: { type: 'integer' }, userId: { type: 'integer' } },
  not_in_release: { since: text, release: text },
  fault: { faultId: text },
  refused: { error: { ...text, description: "The API's typed error (not_found, bad_request, ...)." } },
  answer: {},
}

/**
 * The JSON Schema of a refused request's `reason` in the journal: one object per code.
 *
 * @example
 * ```ts
 * import { REFUSAL_REASON_SCHEMA } from 'patkit/fake'
 *
 * REFUSAL_REASON_SCHEMA.oneOf.length // one schema per refusal code
 * ```
 */
export const REFUSAL_REASON_SCHEMA = {
  description: 'Why the fake refused a request: a stable code and a sentence. Never the secret.',
  oneOf: REFUSAL_CODES.map((code) => {
    const fields = REASON_FIELDS[code]
    return {
      type: 'object',
      additionalProperties: false,
      required: ['code', 'message', ...Object.keys(fields)],
      properties: { code: { const: code }, message: text, ...fields },
    }
  }),
} as const

const REQUEST_DETAIL_SCHEMA = {
  description: 'The request and its answer, every credential filtered ([FILTERED]).',
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['headers', 'params', 'answer'],
  properties: {
    headers: { type: 'object', additionalProperties: text },
    params: { type: 'object', additionalProperties: text },
    answer: {
      type: 'object',
      required: ['status', 'body'],
      properties: { status: { type: 'integer' }, body: { type: ['string', 'null'] } },
    },
  },
} as const

// A request entry as GET /__patkit/journal answers it: the control OpenAPI document's `RequestEntry`.
export const JOURNAL_REQUEST_ENTRY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: [
    'kind',
    'seq',
    'at',
    'method',
    'path',
    'status',
    'tokenId',
    'userId',
    'fault',
    'reason',
    'detail',
  ],
  properties: {
    kind: { const: 'request' },
    seq: { type: 'integer' },
    at: { type: 'string', format: 'date-time' },
    method: text,
    path: { ...text, description: 'Path and query, credentials filtered.' },
    status: { type: 'integer', description: '0 when a fault dropped the connection.' },
    tokenId: nullableInt,
    userId: nullableInt,
    fault: { type: ['string', 'null'] },
    reason: { oneOf: [REFUSAL_REASON_SCHEMA, { type: 'null' }] },
    detail: REQUEST_DETAIL_SCHEMA,
  },
} as const

/**
 * The JSON Schema (OpenAPI 3.1) of one journal entry as the control API answers it: a request (with
 * its refusal `reason` and its `detail`) or an authority event.
 *
 * @example
 * ```ts
 * import { JOURNAL_ENTRY_SCHEMA } from 'patkit/fake'
 *
 * const components = { schemas: { JournalEntry: JOURNAL_ENTRY_SCHEMA } }
 * ```
 */
export const JOURNAL_ENTRY_SCHEMA = {
  oneOf: [
    JOURNAL_REQUEST_ENTRY_SCHEMA,
    {
      type: 'object',
      required: ['kind', 'seq', 'at', 'type', 'event'],
      properties: {
        kind: { const: 'event' },
        seq: { type: 'integer' },
        at: { type: 'string', format: 'date-time' },
        type: text,
        event: { type: 'object' },
      },
    },
  ],
} as const
