import { JOURNAL_REQUEST_ENTRY_SCHEMA } from '../journal-schema.js'
import { problem, reply } from './control-reply.js'
import { type ControlRow, controlRoute } from './control-row.js'
import { JOURNAL_EVENT_TYPES, JOURNAL_INTEGER_PARAMS, journalQuery } from './journal-params.js'
import { journalStream } from './journal-stream.js'
import { answer, closed, INVALID, integer, queryParameters, ref } from './openapi-schema.js'

const journalParameters = queryParameters([
  { name: 'kind', schema: { enum: ['request', 'event'] } },
  { name: 'method', schema: { type: 'string', pattern: '^[A-Za-z]+$' }, description: 'requests, any case' },
  { name: 'path', schema: { type: 'string' }, description: 'requests whose path and query contain it' },
  { name: 'type', schema: { enum: [...JOURNAL_EVENT_TYPES] }, description: 'events of this type' },
  ...JOURNAL_INTEGER_PARAMS.map(({ name, min, max, range }) => ({
    name,
    schema: { type: 'integer', minimum: min, maximum: max },
    description: range,
  })),
])

/** The journal's schemas in the OpenAPI document. */
export const JOURNAL_SCHEMAS = {
  RequestEntry: JOURNAL_REQUEST_ENTRY_SCHEMA,
  EventEntry: closed(
    {
      kind: { const: 'event' },
      seq: integer(1),
      at: { type: 'string', format: 'date-time' },
      type: { enum: [...JOURNAL_EVENT_TYPES] },
      event: { type: 'object', description: "the event's fields, instants as ISO 8601 text" },
    },
    ['kind', 'seq', 'at', 'type', 'event'],
  ),
  Journal: closed(
    {
      count: { ...integer(0), description: 'how many entries matched, before limit' },
      dropped: { ...integer(0), description: 'entries dropped for the bound since the last clear' },
      entries: { type: 'array', items: { oneOf: [ref('RequestEntry'), ref('EventEntry')] } },
    },
    ['count', 'dropped', 'entries'],
  ),
}

/** `/__patkit/journal`: the requests and events recorded, read, followed and cleared. */
export const JOURNAL_ROUTES: readonly ControlRow[] = [
  controlRoute({
    method: 'GET',
    path: '/journal',
    doc: {
      operationId: 'getJournal',
      summary: 'Recorded requests and authority events, oldest first, filtered',
      parameters: journalParameters,
      responses: { '200': answer('the matching entries', ref('Journal')), ...INVALID },
    },
    serve: ({ parts: { journal }, url }) => {
      const query = journalQuery(url.searchParams)
      if (typeof query === 'string') return problem(400, query)
      const { entries, count } = journal.query(query)
      return reply(200, { count, dropped: journal.dropped, entries })
    },
  }),
  controlRoute({
    method: 'DELETE',
    path: '/journal',
    doc: {
      operationId: 'clearJournal',
      summary: 'Forget every entry',
      responses: { '204': { description: 'cleared' } },
    },
    serve: ({ parts }) => {
      parts.journal.clear()
      return reply(204, null)
    },
  }),
  controlRoute({
    method: 'GET',
    path: '/journal/stream',
    doc: {
      operationId: 'streamJournal',
      summary:
        'New journal entries as server-sent events (id: seq, event: entry, data: the entry as GET /__patkit/journal gives it); Last-Event-ID or since replays the later entries first; a keep-alive comment every 15 s; ends when the fake closes',
      parameters: [
        ...journalParameters,
        {
          in: 'query',
          required: false,
          name: 'since',
          schema: integer(0),
          description: 'replay the entries after this seq first',
        },
        {
          in: 'header',
          required: false,
          name: 'Last-Event-ID',
          schema: { type: 'string', pattern: '^\\d+$' },
          description: 'the seq of the last entry seen (wins over since)',
        },
      ],
      responses: {
        '200': {
          description: 'the event stream',
          content: { 'text/event-stream': { schema: { type: 'string' } } },
        },
        ...INVALID,
      },
    },
    serve: ({ parts: { journal, closing }, request, url }) =>
      journalStream(request, url, { journal, closing }),
  }),
]
