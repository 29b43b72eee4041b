import { SCOPES } from '../../domain/scopes.js'
import { CLOCK_UNITS } from './clock-input.js'
import { CONTROL_BODY_LIMIT, DEFAULT_CONTROL_BULK_LIMIT } from './control-body.js'
import { JOURNAL_EVENT_TYPES, JOURNAL_INTEGER_PARAMS } from './journal-params.js'

type Schema = Readonly<Record<string, unknown>>

const json = (schema: Schema) => ({ content: { 'application/json': { schema } } })
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const answer = (description: string, schema: Schema) => ({ description, ...json(schema) })
const failure = (description: string) => answer(description, ref('Error'))
const nullable = (type: string, extra: Schema = {}) => ({ type: [type, 'null'], ...extra })
const integer = (minimum: number, extra: Schema = {}) => ({ type: 'integer', minimum, ...extra })
const closed = (properties: Record<string, Schema>, required: readonly string[] = []) => ({
  type: 'object',
  ...(required.length === 0 ? {} : { required }),
  properties,
  additionalProperties: false,
})

const INVALID = { '400': failure('invalid input: the sentence names the field') }
const DATABASE = {
  '409': failure('the data is in a store of the caller that cannot replace it (no replaceAll)'),
}

interface Operation {
  readonly operationId: string
  readonly summary: string
  readonly parameters?: readonly unknown[]
  readonly requestBody?: unknown
  readonly responses: Readonly<Record<string, unknown>>
}

// What every route may answer before the route itself: the guard's 401, 403 and 415 (a Content-Type
// other than JSON is refused on every route, a body or not), and 413 where a body can come.
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
            responses: {
              ...operation.responses,
              '401': { $ref: '#/components/responses/Unauthorized' },
              '403': { $ref: '#/components/responses/Forbidden' },
              ...(method === 'get' ? {} : { '413': { $ref: '#/components/responses/PayloadTooLarge' } }),
              '415': { $ref: '#/components/responses/UnsupportedMediaType' },
            },
          },
        ]),
      ),
    ]),
  )
}

const seedUser = closed(
  {
    id: integer(1),
    username: { type: 'string', minLength: 1, maxLength: 255 },
    admin: { type: 'boolean' },
    blocked: { type: 'boolean' },
    state: { enum: ['active', 'blocked'] },
    name: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description: "the display name GitLab's messages use",
    },
    bot: { type: 'boolean', description: "a project or group access token's owner; needs bot_namespace" },
    bot_namespace: {
      oneOf: [
        closed({ type: { enum: ['project', 'group'] }, id: integer(1) }, ['type', 'id']),
        { type: 'null' },
      ],
      description: 'the project or group a bot belongs to',
    },
    service_account: { type: 'boolean' },
    provisioned_by_group_id: nullable('integer', {
      minimum: 1,
      description: 'the top-level group that provisioned a service account',
    }),
  },
  ['id', 'username'],
)

const seedMember = closed({ user_id: integer(1), access_level: { enum: [10, 15, 20, 30, 40, 50] } }, [
  'user_id',
  'access_level',
])

const resourceFields = {
  id: integer(1),
  path: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9_][A-Za-z0-9_.-]*$' },
  name: { type: 'string', minLength: 1, maxLength: 255 },
  visibility: { enum: ['private', 'internal', 'public'], description: 'default private' },
  members: { type: 'array', items: { $ref: '#/components/schemas/SeedMember' } },
}

const seedGroup = closed(
  {
    ...resourceFields,
    parent_id: nullable('integer', { minimum: 1, description: 'the group above; null: top level' }),
  },
  ['id', 'path', 'name'],
)

const seedProject = closed(
  { ...resourceFields, group_id: nullable('integer', { minimum: 1, description: "the project's group" }) },
  ['id', 'path', 'name'],
)

const seedToken = closed(
  {
    id: integer(1),
    user_id: integer(1),
    name: { type: 'string', minLength: 1, maxLength: 255 },
    scopes: { type: 'array', minItems: 1, items: { enum: [...SCOPES] } },
    token: { type: 'string', minLength: 8, description: 'the plaintext secret' },
    token_digest: {
      type: 'string',
      minLength: 16,
      maxLength: 128,
      description: 'instead of token: the stored digest of a secret nobody knows (needs id)',
    },
    description: nullable('string', { maxLength: 255 }),
    created_at: { type: 'string', format: 'date-time' },
    last_used_at: nullable('string', { format: 'date-time' }),
    last_used_ips: { type: 'array', maxItems: 5, items: { type: 'string', minLength: 1, maxLength: 45 } },
    expires_at: nullable('string', { format: 'date' }),
    revoked: { type: 'boolean' },
    impersonation: { type: 'boolean' },
    previous_id: nullable('integer', { minimum: 1 }),
  },
  ['user_id', 'name', 'scopes'],
)

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

const counts = closed({ users: integer(0), tokens: integer(0), groups: integer(0), projects: integer(0) }, [
  'users',
  'tokens',
  'groups',
  'projects',
])

const journalParameters = [
  { name: 'kind', schema: { enum: ['request', 'event'] } },
  { name: 'method', schema: { type: 'string', pattern: '^[A-Za-z]+$' }, description: 'requests, any case' },
  { name: 'path', schema: { type: 'string' }, description: 'requests whose path and query contain it' },
  { name: 'type', schema: { enum: [...JOURNAL_EVENT_TYPES] }, description: 'events of this type' },
  ...JOURNAL_INTEGER_PARAMS.map(({ name, min, max, range }) => ({
    name,
    schema: { type: 'integer', minimum: min, maximum: max },
    description: range,
  })),
].map((parameter) => ({ in: 'query', required: false, ...parameter }))

// The dashboard's read routes: GitLab's list parameters and pagination headers.
const pageParameters = [
  { name: 'page', schema: { type: 'integer' }, description: 'from 1 (default 1)' },
  { name: 'per_page', schema: { type: 'integer' }, description: '1 to 100 (default 20; 0 is refused)' },
]
const tokenListParameters = [
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
].map((parameter) => ({ in: 'query', required: false, ...parameter }))
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
const dashboardMembers = {
  type: 'array',
  items: closed({ user_id: integer(1), access_level: { enum: [10, 15, 20, 30, 40, 50] } }, [
    'user_id',
    'access_level',
  ]),
}
const dashboardResource = (parent: string) =>
  closed(
    {
      id: integer(1),
      path: { type: 'string' },
      full_path: { type: 'string' },
      name: { type: 'string' },
      [parent]: nullable('integer'),
      visibility: { enum: ['private', 'internal', 'public'] },
      members: dashboardMembers,
      bots: { type: 'array', items: integer(1), description: 'the members that are bot users' },
    },
    ['id', 'path', 'full_path', 'name', parent, 'visibility', 'members', 'bots'],
  )
const dashboardSchemas = {
  DashboardToken: closed(
    {
      id: integer(1),
      user_id: integer(1),
      name: { type: 'string' },
      scopes: { type: 'array', items: { type: 'string' } },
      description: nullable('string'),
      created_at: { type: 'string', format: 'date-time' },
      last_used_at: nullable('string', { format: 'date-time' }),
      expires_at: nullable('string', { format: 'date' }),
      revoked: { type: 'boolean' },
      active: { type: 'boolean' },
      expired: { type: 'boolean' },
      impersonation: { type: 'boolean' },
      previous_id: nullable('integer'),
      family_id: integer(1),
    },
    [
      'id',
      'user_id',
      'name',
      'scopes',
      'description',
      'created_at',
      'last_used_at',
      'expires_at',
      'revoked',
      'active',
      'expired',
      'impersonation',
      'previous_id',
      'family_id',
    ],
  ),
  TokenFamily: closed(
    {
      family_id: integer(1),
      tokens: {
        type: 'array',
        description: 'the rotation chain, oldest first',
        items: closed(
          {
            id: integer(1),
            name: { type: 'string' },
            user_id: integer(1),
            previous_id: nullable('integer'),
            state: {
              enum: ['active', 'revoked', 'expired', 'reuse_revoked'],
              description: 'reuse_revoked: revoked by a reuse detection the journal holds',
            },
            created_at: { type: 'string', format: 'date-time' },
            expires_at: nullable('string', { format: 'date' }),
            last_used_at: nullable('string', { format: 'date-time' }),
          },
          ['id', 'name', 'user_id', 'previous_id', 'state', 'created_at', 'expires_at', 'last_used_at'],
        ),
      },
      reuse: {
        type: 'array',
        description: "the journal's reuse_detected events of the chain",
        items: closed(
          {
            at: { type: 'string', format: 'date-time' },
            presented_id: { ...integer(1), description: 'the revoked token presented again' },
            revoked_ids: { type: 'array', items: integer(1) },
          },
          ['at', 'presented_id', 'revoked_ids'],
        ),
      },
    },
    ['family_id', 'tokens', 'reuse'],
  ),
  DashboardUser: closed(
    {
      id: integer(1),
      username: { type: 'string' },
      name: { type: 'string' },
      admin: { type: 'boolean' },
      blocked: { type: 'boolean' },
      bot: { type: 'boolean' },
      bot_namespace: {
        oneOf: [
          closed({ type: { enum: ['project', 'group'] }, id: integer(1) }, ['type', 'id']),
          { type: 'null' },
        ],
      },
      service_account: { type: 'boolean' },
      provisioned_by_group_id: nullable('integer'),
    },
    [
      'id',
      'username',
      'name',
      'admin',
      'blocked',
      'bot',
      'bot_namespace',
      'service_account',
      'provisioned_by_group_id',
    ],
  ),
  DashboardGroup: dashboardResource('parent_id'),
  DashboardProject: dashboardResource('group_id'),
}

/**
 * The OpenAPI 3.1 document of the control API, served at `GET /__patkit/openapi.json`.
 */
export const CONTROL_OPENAPI = Object.freeze({
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
      Unauthorized: failure('a control token is set and the X-Patkit-Control-Token header does not carry it'),
      Forbidden: failure(
        'the Host is not a loopback or allowed host (DNS rebinding), or a web page of another origin sent the request (Origin, Sec-Fetch-Site)',
      ),
      PayloadTooLarge: failure(
        'the body is larger than the limit of the route, which the sentence names; the connection is closed',
      ),
      UnsupportedMediaType: failure('a body (or a Content-Type) other than Content-Type: application/json'),
    },
    schemas: {
      Error: closed(
        {
          error: { type: 'string' },
          problems: { type: 'array', items: ref('Problem'), description: 'each bad field, by its path' },
        },
        ['error'],
      ),
      Problem: closed(
        {
          path: { type: 'string', description: 'where, e.g. tokens[0].scopes[1]' },
          message: { type: 'string' },
        },
        ['path', 'message'],
      ),
      Clock: closed({ now: { type: 'string', format: 'date-time' }, frozen: { type: 'boolean' } }, [
        'now',
        'frozen',
      ]),
      Counts: { ...counts, description: 'how many users, tokens, groups and projects were loaded' },
      SeedUser: seedUser,
      SeedMember: { ...seedMember, description: 'a direct member and their role (access_level)' },
      SeedGroup: { ...seedGroup, description: 'a group in the seed format, GitLab field names' },
      SeedProject: { ...seedProject, description: 'a project in the seed format, GitLab field names' },
      SeedToken: { ...seedToken, description: 'a token in the seed format, GitLab field names' },
      Seed: {
        ...closed({
          users: { type: 'array', items: ref('SeedUser') },
          groups: { type: 'array', items: ref('SeedGroup') },
          projects: { type: 'array', items: ref('SeedProject') },
          tokens: {
            type: 'array',
            items: {
              allOf: [
                ref('SeedToken'),
                {
                  oneOf: [
                    { type: 'object', required: ['token'] },
                    { type: 'object', required: ['token_digest', 'id'] },
                  ],
                },
              ],
            },
          },
        }),
        description:
          'The seed format of `patkit serve --seed` (docs/cli.md, docs/testing.md): users (bots and service accounts too), tokens, groups and projects with their members; a token has `token` (its secret) or `token_digest` with `id`.',
      },
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
      RequestEntry: closed(
        {
          kind: { const: 'request' },
          seq: integer(1),
          at: { type: 'string', format: 'date-time' },
          method: { type: 'string' },
          path: { type: 'string', description: 'with every credential of the query [FILTERED]' },
          status: integer(0, { maximum: 599, description: '0 when a fault dropped the connection' }),
          tokenId: nullable('integer'),
          userId: nullable('integer'),
          fault: nullable('string', { description: 'the id of the fault rule that acted' }),
        },
        ['kind', 'seq', 'at', 'method', 'path', 'status', 'tokenId', 'userId', 'fault'],
      ),
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
      ...dashboardSchemas,
      Journal: closed(
        {
          count: { ...integer(0), description: 'how many entries matched, before limit' },
          dropped: { ...integer(0), description: 'entries dropped for the bound since the last clear' },
          entries: { type: 'array', items: { oneOf: [ref('RequestEntry'), ref('EventEntry')] } },
        },
        ['count', 'dropped', 'entries'],
      ),
    },
  },
  security: [{}, { controlToken: [] }],
  paths: withRefusals({
    '/__patkit/openapi.json': {
      get: {
        operationId: 'getOpenApi',
        summary: 'This document',
        responses: {
          '200': answer('the document', {
            type: 'object',
            required: ['openapi', 'info', 'paths'],
            properties: {
              openapi: { type: 'string', pattern: '^3\\.1\\.' },
              info: { type: 'object' },
              paths: { type: 'object' },
            },
          }),
        },
      },
    },
    '/__patkit/clock': {
      get: {
        operationId: 'getClock',
        summary: 'The clock',
        responses: { '200': answer('now and whether frozen', ref('Clock')) },
      },
    },
    '/__patkit/clock/set': {
      post: {
        operationId: 'setClock',
        summary: 'Move the clock to an instant',
        requestBody: {
          required: true,
          ...json(closed({ at: { type: 'string', format: 'date-time' } }, ['at'])),
        },
        responses: { '200': answer('the clock', ref('Clock')), ...INVALID },
      },
    },
    '/__patkit/clock/advance': {
      post: {
        operationId: 'advanceClock',
        summary: 'Move the clock by a duration (negative: back)',
        requestBody: {
          required: true,
          ...json({
            ...closed(Object.fromEntries(CLOCK_UNITS.map((unit) => [unit, { type: 'number' }]))),
            minProperties: 1,
          }),
        },
        responses: { '200': answer('the clock', ref('Clock')), ...INVALID },
      },
    },
    '/__patkit/clock/freeze': {
      post: {
        operationId: 'freezeClock',
        summary: 'Stop the clock',
        responses: { '200': answer('the clock', ref('Clock')) },
      },
    },
    '/__patkit/clock/resume': {
      post: {
        operationId: 'resumeClock',
        summary: 'Let the clock run again',
        responses: { '200': answer('the clock', ref('Clock')) },
      },
    },
    '/__patkit/reset': {
      post: {
        operationId: 'reset',
        summary:
          'Back to the start: the start data as the start wrote it (with a database, all it held once the start was done), the clock at its start; clears the journal and the faults',
        responses: {
          '200': answer('counts of what was loaded', ref('Counts')),
          '409': failure(
            'the data is in a store of the caller that cannot replace it (no replaceAll), or it held over 10 000 tokens at start (no start snapshot was kept)',
          ),
          '500': failure('the seed no longer loads (problems lists why)'),
        },
      },
    },
    '/__patkit/state': {
      get: {
        operationId: 'getState',
        summary: 'Snapshot of every user, token, group and project in the seed format',
        responses: { '200': answer('the snapshot', ref('Seed')), '500': failure('the store failed') },
      },
      put: {
        operationId: 'restoreState',
        summary: 'Replace the data with a snapshot or any seed; {} empties it (a body is required)',
        requestBody: { required: true, ...json(ref('Seed')) },
        responses: {
          '200': answer('counts of what was loaded', ref('Counts')),
          ...INVALID,
          ...DATABASE,
        },
      },
    },
    '/__patkit/users': {
      get: {
        operationId: 'listUsers',
        summary: 'Every user (bots and service accounts too), in id order, paged',
        parameters: pageParameters.map((parameter) => ({ in: 'query', required: false, ...parameter })),
        responses: { '200': page('one page of users', 'DashboardUser'), ...INVALID },
      },
      post: {
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
    },
    '/__patkit/groups': {
      get: {
        operationId: 'listGroups',
        summary: 'Every group with its members and bots, in id order, paged',
        parameters: pageParameters.map((parameter) => ({ in: 'query', required: false, ...parameter })),
        responses: { '200': page('one page of groups', 'DashboardGroup'), ...INVALID },
      },
      post: {
        operationId: 'addGroups',
        summary: 'Add (or replace by id, members included) one group or an array of groups',
        requestBody: {
          required: true,
          ...json({ oneOf: [ref('SeedGroup'), { type: 'array', items: ref('SeedGroup') }] }),
        },
        responses: {
          '201': answer('the groups given, as an array', { type: 'array', items: ref('SeedGroup') }),
          ...INVALID,
        },
      },
    },
    '/__patkit/projects': {
      get: {
        operationId: 'listProjects',
        summary: 'Every project with its members and bots, in id order, paged',
        parameters: pageParameters.map((parameter) => ({ in: 'query', required: false, ...parameter })),
        responses: { '200': page('one page of projects', 'DashboardProject'), ...INVALID },
      },
      post: {
        operationId: 'addProjects',
        summary: 'Add (or replace by id, members included) one project or an array of projects',
        requestBody: {
          required: true,
          ...json({ oneOf: [ref('SeedProject'), { type: 'array', items: ref('SeedProject') }] }),
        },
        responses: {
          '201': answer('the projects given, as an array', { type: 'array', items: ref('SeedProject') }),
          ...INVALID,
        },
      },
    },
    '/__patkit/tokens': {
      get: {
        operationId: 'listTokens',
        summary:
          "Every user's tokens through the store's list, with GitLab's list parameters and pagination headers; resource_type + resource_id: the tokens of that project's or group's bots",
        parameters: tokenListParameters,
        responses: {
          '200': page('one page of tokens', 'DashboardToken'),
          ...INVALID,
          '404': answer('no such project or group', closed({ message: { type: 'string' } }, ['message'])),
        },
      },
      post: {
        operationId: 'addToken',
        summary: 'Add one token in the seed format; without `token` a fresh secret is made and returned',
        requestBody: { required: true, ...json(ref('SeedToken')) },
        responses: {
          '201': answer(
            'the id and the secret',
            closed({ id: integer(1), user_id: integer(1), token: { type: 'string' } }, [
              'id',
              'user_id',
              'token',
            ]),
          ),
          ...INVALID,
          '409': failure('this secret is already stored'),
        },
      },
    },
    '/__patkit/tokens/{id}/family': {
      get: {
        operationId: 'getTokenFamily',
        summary:
          "A token's rotation chain, oldest first, each token's state, and the chain's reuse detections",
        parameters: [{ name: 'id', in: 'path', required: true, schema: integer(1) }],
        responses: {
          '200': answer('the family', ref('TokenFamily')),
          '404': answer('404 Token Not Found', closed({ message: { type: 'string' } }, ['message'])),
          '501': answer(
            'the store cannot follow a rotation forward (no findSuccessor)',
            closed({ message: { type: 'string' } }, ['message']),
          ),
        },
      },
    },
    '/__patkit/journal/stream': {
      get: {
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
    },
    '/__patkit/journal': {
      get: {
        operationId: 'getJournal',
        summary: 'Recorded requests and authority events, oldest first, filtered',
        parameters: journalParameters,
        responses: { '200': answer('the matching entries', ref('Journal')), ...INVALID },
      },
      delete: {
        operationId: 'clearJournal',
        summary: 'Forget every entry',
        responses: { '204': { description: 'cleared' } },
      },
    },
    '/__patkit/faults': {
      get: {
        operationId: 'listFaults',
        summary: 'The fault rules',
        responses: { '200': answer('the rules', { type: 'array', items: ref('FaultRule') }) },
      },
      post: {
        operationId: 'addFault',
        summary: 'Add a fault rule (it needs status, drop, delayMs or sequence)',
        requestBody: { required: true, ...json(ref('FaultRuleInput')) },
        responses: { '201': answer('the stored rule with its id', ref('FaultRule')), ...INVALID },
      },
      delete: {
        operationId: 'clearFaults',
        summary: 'Remove every rule',
        responses: { '204': { description: 'cleared' } },
      },
    },
    '/__patkit/faults/{id}': {
      delete: {
        operationId: 'removeFault',
        summary: 'Remove one rule',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '204': { description: 'removed' }, '404': failure('no such fault rule') },
      },
    },
  }),
})
