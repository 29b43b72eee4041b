import { GITLAB_PERMISSIONS } from '../../domain/gitlab-permissions.js'
import { GRANULAR_ACCESS } from '../../domain/granular-scope.js'
import { SCOPES } from '../../domain/scopes.js'
import { DELIVERY_SCHEMA } from './delivery-routes.js'
import { closed, integer, nullable, ref } from './openapi-schema.js'

// The schemas every group of routes shares: refusals, the clock, and the seed format of the data.

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
    extended_grat_expiry_webhooks_execute: {
      type: 'boolean',
      description:
        "GitLab's namespace setting: the group's hooks also hear the 60- and 30-day token expiry notices; default false",
    },
    enforce_granular_tokens: {
      type: 'boolean',
      description:
        "GitLab.com's setting of a top-level group (no REST attribute): from granular_tokens_enforced_after on, legacy personal access tokens of human users are refused in the group; default false",
    },
    granular_tokens_enforced_after: nullable('string', {
      format: 'date',
      description: 'the day enforce_granular_tokens starts (needed with it)',
    }),
  },
  ['id', 'path', 'name'],
)

const seedProject = closed(
  {
    ...resourceFields,
    group_id: nullable('integer', { minimum: 1, description: "the project's group" }),
    extended_prat_expiry_webhooks_execute: {
      type: 'boolean',
      description:
        "GitLab's project setting: the project's hooks also hear the 60- and 30-day token expiry notices; default false",
    },
  },
  ['id', 'path', 'name'],
)

// One entry of `granular_scopes`, as GitLab's `POST /user/personal_access_tokens` takes it.
const seedGranularScope = closed(
  {
    access: { enum: [...GRANULAR_ACCESS], description: "one of GitLab's accesses" },
    permissions: {
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: { enum: Object.keys(GITLAB_PERMISSIONS) },
      description: "GitLab's assignable permissions",
    },
    project_ids: {
      type: 'array',
      minItems: 1,
      items: integer(1),
      description: 'with selected_memberships only: each id a scope of its own',
    },
    group_ids: {
      type: 'array',
      minItems: 1,
      items: integer(1),
      description: 'with selected_memberships only: each id a scope of its own',
    },
  },
  ['access', 'permissions'],
)

const seedToken = closed(
  {
    id: integer(1),
    user_id: integer(1),
    name: { type: 'string', minLength: 1, maxLength: 255 },
    scopes: {
      type: 'array',
      minItems: 1,
      items: { enum: [...SCOPES] },
      description: "a legacy token's scopes; exactly one of scopes and granular_scopes",
    },
    granular_scopes: {
      type: 'array',
      // Inline, not a $ref: a schema without refs is inlined where it is used (ajv), which the
      // `required` of the Seed's token checks need.
      items: seedGranularScope,
      description: "instead of scopes: a fine-grained token's scopes",
    },
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
  ['user_id', 'name'],
)

const counts = closed({ users: integer(0), tokens: integer(0), groups: integer(0), projects: integer(0) }, [
  'users',
  'tokens',
  'groups',
  'projects',
])

/** The shared schemas of the OpenAPI document. */
export const CONTROL_SCHEMAS = {
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
  Delivery: DELIVERY_SCHEMA,
  Counts: { ...counts, description: 'how many users, tokens, groups and projects were loaded' },
  SeedUser: seedUser,
  SeedMember: { ...seedMember, description: 'a direct member and their role (access_level)' },
  SeedGroup: { ...seedGroup, description: 'a group in the seed format, GitLab field names' },
  SeedProject: { ...seedProject, description: 'a project in the seed format, GitLab field names' },
  SeedToken: {
    ...seedToken,
    description:
      'a token in the seed format, GitLab field names; exactly one of scopes (legacy) and granular_scopes (fine-grained)',
  },
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
            {
              oneOf: [
                { type: 'object', required: ['scopes'] },
                { type: 'object', required: ['granular_scopes'] },
              ],
            },
          ],
        },
      },
    }),
    description:
      'The seed format of `patkit serve --seed` (docs/cli.md, docs/testing.md): users (bots and service accounts too), tokens, groups and projects with their members; a token has `token` (its secret) or `token_digest` with `id`.',
  },
}
