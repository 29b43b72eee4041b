import { CONTROL_BODY_LIMIT, DEFAULT_CONTROL_BULK_LIMIT } from './control-body.js'
import { CONTROL_PREFIX } from './control-parts.js'
import type { ControlRow } from './control-row.js'
import { CONTROL_SCHEMAS } from './control-schemas.js'
import { DASHBOARD_SCHEMAS } from './dashboard-schemas.js'
import { FAULT_SCHEMAS } from './fault-routes.js'
import { JOURNAL_SCHEMAS } from './journal-routes.js'
import { failure } from './openapi-schema.js'

/** The document's name for a row's path: `/__patkit/faults/{id}` for `/faults/:id`. */
export function documentPath(row: Pick<ControlRow, 'path'>): string {
  return `${CONTROL_PREFIX}${row.path.replace(/:([^/]+)/g, '{$1}')}`
}

// A row's operation: its own documentation, its path parameters, and what every route may answer
// before the route itself: the guard's 401, 403 and 415 (a Content-Type other than JSON is refused on
// every route, a body or not), and 413 where a body can come.
function operationOf(row: ControlRow) {
  const { parameters = [], responses, ...doc } = row.doc
  const pathParameters = Object.entries(row.pathSchemas ?? {}).map(([name, schema]) => ({
    name,
    in: 'path',
    required: true,
    schema,
  }))
  const all = [...pathParameters, ...parameters]
  return {
    ...doc,
    ...(all.length === 0 ? {} : { parameters: all }),
    responses: {
      ...responses,
      '401': { $ref: '#/components/responses/Unauthorized' },
      '403': { $ref: '#/components/responses/Forbidden' },
      ...(row.method === 'GET' ? {} : { '413': { $ref: '#/components/responses/PayloadTooLarge' } }),
      '415': { $ref: '#/components/responses/UnsupportedMediaType' },
    },
  }
}

/**
 * The OpenAPI 3.1 document of the control API, served at `GET /__patkit/openapi.json`: one operation
 * per row, in row order, each as its row documents it.
 */
export function controlOpenApi(rows: readonly ControlRow[]) {
  const paths: Record<string, Record<string, ReturnType<typeof operationOf>>> = {}
  for (const row of rows) {
    const path = documentPath(row)
    paths[path] = { ...paths[path], [row.method.toLowerCase()]: operationOf(row) }
  }
  return Object.freeze({
    openapi: '3.1.0',
    info: {
      title: 'patkit fake GitLab: control API',
      version: '1',
      description: `Drives a fake GitLab token authority from a test in any language: its clock, its data, the journal of requests and events, and injected faults. Served beside /api/v4 by \`patkit serve\` and \`createFakeGitLab\`; never by the embeddable handler unless asked for. Every request must be addressed to a loopback host (localhost, 127.0.0.0/8, [::1]) or an allowed one, and must not come from a web page of another origin (403); a body must be sent as Content-Type: application/json (415); with a control token (--control-token-file, PATKIT_CONTROL_TOKEN, --control-token) every request needs the X-Patkit-Control-Token header (401). A body is read up to ${CONTROL_BODY_LIMIT} bytes (PUT /__patkit/state and POST /__patkit/users: ${DEFAULT_CONTROL_BULK_LIMIT} bytes unless --control-body-limit says otherwise) and refused past it (413). No CORS header is ever sent.`,
    },
    servers: [
      { url: '/', description: 'the fake that serves this document' },
      {
        url: 'http://127.0.0.1:{port}',
        description: 'patkit serve on this machine',
        variables: { port: { default: '3000', description: 'the port of its listening line' } },
      },
    ],
    components: {
      securitySchemes: { controlToken: { type: 'apiKey', in: 'header', name: 'X-Patkit-Control-Token' } },
      responses: {
        Unauthorized: failure(
          'a control token is set and the X-Patkit-Control-Token header does not carry it',
        ),
        Forbidden: failure(
          'the Host is not a loopback or allowed host (DNS rebinding), or a web page of another origin sent the request (Origin, Sec-Fetch-Site)',
        ),
        PayloadTooLarge: failure(
          'the body is larger than the limit of the route, which the sentence names; the connection is closed',
        ),
        UnsupportedMediaType: failure('a body (or a Content-Type) other than Content-Type: application/json'),
      },
      schemas: { ...CONTROL_SCHEMAS, ...FAULT_SCHEMAS, ...JOURNAL_SCHEMAS, ...DASHBOARD_SCHEMAS },
    },
    security: [{}, { controlToken: [] }],
    paths,
  })
}
