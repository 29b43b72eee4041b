import type { AuthorityEvent } from '../../authority/core/events.js'
import { DEFAULT_JOURNAL_LIMIT, type JournalQuery } from '../journal.js'

// Every event type the journal records; a Record over the union, so a new event type fails to compile
// here until it is listed (and with it the OpenAPI document's enum).
const EVENT_TYPE_SET: Readonly<Record<AuthorityEvent['type'], true>> = {
  created: true,
  rotated: true,
  revoked: true,
  reuse_detected: true,
  used: true,
  rotation_replayed: true,
  token_expiring: true,
  last_used_write_failed: true,
}

/** The `type` values `GET /__patkit/journal` takes: the authority's event types, and the fake's webhook deliveries. */
export const JOURNAL_EVENT_TYPES: readonly (AuthorityEvent['type'] | 'webhook_delivery')[] = [
  ...(Object.keys(EVENT_TYPE_SET) as AuthorityEvent['type'][]),
  'webhook_delivery',
]

const SAFE = Number.MAX_SAFE_INTEGER

/** The integer parameters of `GET /__patkit/journal`: their keys, the values they take, and in words. */
export const JOURNAL_INTEGER_PARAMS = [
  // 0 is the status of a request whose connection a fault dropped.
  {
    name: 'status',
    key: 'status',
    min: 0,
    max: 599,
    valid: (n: number) => n === 0 || n >= 100,
    range: 'an integer: 0 (a dropped connection) or 100 to 599',
  },
  { name: 'token_id', key: 'tokenId', min: 1, max: SAFE, range: 'a positive integer' },
  { name: 'user_id', key: 'userId', min: 1, max: SAFE, range: 'a positive integer' },
  { name: 'after', key: 'afterSeq', min: 0, max: SAFE, range: 'an integer from 0' },
  {
    name: 'limit',
    key: 'limit',
    min: 1,
    max: DEFAULT_JOURNAL_LIMIT,
    range: `an integer from 1 to ${DEFAULT_JOURNAL_LIMIT}`,
  },
] as const

/** The names of every parameter `GET /__patkit/journal` takes. */
const JOURNAL_PARAMS = [
  'kind',
  'method',
  'path',
  'type',
  ...JOURNAL_INTEGER_PARAMS.map((param) => param.name),
] as const

const DECIMAL = /^\d{1,16}$/

/**
 * The journal query of `GET /__patkit/journal`'s parameters, or a sentence saying what is wrong: an
 * unknown or repeated parameter, a `kind` other than request or event, a `type` no event has, a
 * `method` that is no method name, an integer out of its range. An empty value is no filter.
 */
export function journalQuery(params: URLSearchParams): JournalQuery | string {
  const names = [...params.keys()]
  const known: readonly string[] = JOURNAL_PARAMS
  const unknown = names.find((name) => !known.includes(name))
  if (unknown !== undefined) return `${unknown} is not a journal parameter (${JOURNAL_PARAMS.join(', ')})`
  const repeated = names.find((name, index) => names.indexOf(name) !== index)
  if (repeated !== undefined) return `${repeated} is given more than once`
  const query: { -readonly [K in keyof JournalQuery]: JournalQuery[K] } = {}
  const value = (name: string) => {
    const given = params.get(name)
    return given === null || given === '' ? undefined : given
  }
  const kind = value('kind')
  if (kind !== undefined) {
    if (kind !== 'request' && kind !== 'event') return 'kind must be request or event'
    query.kind = kind
  }
  const method = value('method')
  if (method !== undefined) {
    if (!/^[A-Za-z]+$/.test(method)) return 'method must be an HTTP method name'
    query.method = method
  }
  const path = value('path')
  if (path !== undefined) query.pathContains = path
  const type = value('type')
  if (type !== undefined) {
    const types: readonly string[] = JOURNAL_EVENT_TYPES
    if (!types.includes(type)) return `type must be one of ${JOURNAL_EVENT_TYPES.join(', ')}`
    query.type = type
  }
  for (const param of JOURNAL_INTEGER_PARAMS) {
    const { name, key, min, max, range } = param
    const given = value(name)
    if (given === undefined) continue
    const number = DECIMAL.test(given) ? Number(given) : Number.NaN
    const valid = number >= min && number <= max && ('valid' in param ? param.valid(number) : true)
    if (!valid) return `${name} must be ${range}`
    query[key] = number
  }
  return query
}
