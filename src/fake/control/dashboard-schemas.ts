import { closed, integer, nullable } from './openapi-schema.js'

// What the dashboard's read routes answer: GitLab's field names, as the page reads them.

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
/** The dashboard's read routes' schemas in the OpenAPI document. */
export const DASHBOARD_SCHEMAS = {
  DashboardToken: closed(
    {
      id: integer(1),
      user_id: integer(1),
      name: { type: 'string' },
      scopes: { type: 'array', items: { type: 'string' } },
      granular_scopes: {
        description:
          "a fine-grained token's scopes (GitLab's granular scope entity); absent on a legacy token",
        type: 'array',
        items: closed(
          {
            access: {
              enum: ['personal_projects', 'all_memberships', 'selected_memberships', 'user', 'instance'],
            },
            permissions: { type: 'array', items: { type: 'string' } },
            project_id: nullable('integer'),
            group_id: nullable('integer'),
          },
          ['access', 'permissions', 'project_id', 'group_id'],
        ),
      },
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
