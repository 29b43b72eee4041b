import { type ControlRow, controlRoute } from './control-row.js'
import { answer, closed, INVALID, integer, queryParameters, ref } from './openapi-schema.js'
import { listResources, type ResourceList } from './resource-lists.js'
import { tokenFamily } from './token-family.js'
import { listTokens } from './token-list.js'

// The dashboard's read routes: GitLab's list parameters and pagination headers.
const pageParameters = [
  { name: 'page', schema: { type: 'integer' }, description: 'from 1 (default 1)' },
  { name: 'per_page', schema: { type: 'integer' }, description: '1 to 100 (default 20; 0 is refused)' },
]
const tokenListParameters = queryParameters([
  { name: 'user_id', schema: integer(1) },
  { name: 'state', schema: { enum: ['active', 'inactive'] } },
  { name: 'revoked', schema: { type: 'boolean' } },
  { name: 'search', schema: { type: 'string' }, description: "GitLab's fuzzy name search" },
  ...['created_before', 'created_after', 'last_used_before', 'last_used_after'].map((name) => ({
    name,
    schema: { type: 'string', format: 'date-time' },
  })),
  ...['expires_before', 'expires_after'].map((name) => ({
    name,
    schema: { type: 'string', format: 'date' },
  })),
  { name: 'sort', schema: { type: 'string' }, description: "GitLab's sort keys (id_asc, created_desc, ...)" },
  { name: 'resource_type', schema: { enum: ['project', 'group'] }, description: 'with resource_id' },
  { name: 'resource_id', schema: integer(1), description: "the tokens of this project's or group's bots" },
  ...pageParameters,
])
const pageHeaders = Object.fromEntries(
  ['X-Total', 'X-Total-Pages', 'X-Page', 'X-Per-Page', 'X-Next-Page', 'X-Prev-Page', 'Link'].map((name) => [
    name,
    { description: "GitLab's pagination header", schema: { type: 'string' } },
  ]),
)
const page = (description: string, item: string) => ({
  ...answer(description, { type: 'array', items: ref(item) }),
  headers: pageHeaders,
})
const message = closed({ message: { type: 'string' } }, ['message'])

// `GET /__patkit/users`, `/groups`, `/projects`: every one, in id order, paged.
function resourceList(kind: ResourceList, operationId: string, summary: string, item: string): ControlRow {
  return controlRoute({
    method: 'GET',
    path: `/${kind}`,
    doc: {
      operationId,
      summary,
      parameters: queryParameters(pageParameters),
      responses: { '200': page(`one page of ${kind}`, item), ...INVALID },
    },
    serve: ({ parts, url }) => listResources(parts.store, kind, url),
  })
}

/**
 * The read routes the dashboard uses (and a test may): tokens, a token's family, users, groups and
 * projects, as GitLab's lists answer them. The journal's stream is with the journal's routes.
 */
export const DASHBOARD_ROUTES: readonly ControlRow[] = [
  controlRoute({
    method: 'GET',
    path: '/tokens',
    doc: {
      operationId: 'listTokens',
      summary:
        "Every user's tokens through the store's list, with GitLab's list parameters and pagination headers; resource_type + resource_id: the tokens of that project's or group's bots",
      parameters: tokenListParameters,
      responses: {
        '200': page('one page of tokens', 'DashboardToken'),
        ...INVALID,
        '404': answer('no such project or group', message),
      },
    },
    serve: ({ parts, url }) => listTokens(parts.store, url, parts.clock.now()),
  }),
  controlRoute({
    method: 'GET',
    path: '/tokens/:id/family',
    pathSchemas: { id: integer(1) },
    doc: {
      operationId: 'getTokenFamily',
      summary: "A token's rotation chain, oldest first, each token's state, and the chain's reuse detections",
      responses: {
        '200': answer('the family', ref('TokenFamily')),
        '404': answer('404 Token Not Found', message),
      },
    },
    serve: ({ parts, path }) => tokenFamily(parts.store, parts.journal, path.id, parts.clock.now()),
  }),
  resourceList(
    'users',
    'listUsers',
    'Every user (bots and service accounts too), in id order, paged',
    'DashboardUser',
  ),
  resourceList(
    'groups',
    'listGroups',
    'Every group with its members and bots, in id order, paged',
    'DashboardGroup',
  ),
  resourceList(
    'projects',
    'listProjects',
    'Every project with its members and bots, in id order, paged',
    'DashboardProject',
  ),
]
