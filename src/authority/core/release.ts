import { err, ok, type Result } from 'neverthrow'
import type { TokenFormat } from '../../domain/mint-secret.js'

/**
 * A GitLab release, `MAJOR.MINOR`.
 *
 * @example
 * ```ts
 * import type { Release } from 'patkit/releases'
 * const release: Release = '16.10'
 * ```
 */
export type Release = `${number}.${number}`

/**
 * The release patkit emulates unless told otherwise: the newest the reference material describes.
 *
 * @example
 * ```ts
 * import { LATEST_RELEASE } from 'patkit/releases'
 *
 * LATEST_RELEASE // '19.6'
 * ```
 */
export const LATEST_RELEASE: Release = '19.6'

/** Parses `MAJOR.MINOR` (e.g. `16.10`). */
export function parseRelease(value: string): Result<Release, 'invalid_release'> {
  return /^\d{1,3}\.\d{1,3}$/.test(value) ? ok(value as Release) : err('invalid_release')
}

/** Orders releases numerically (`16.9` < `16.10`): negative, zero or positive. */
export function compareReleases(a: Release, b: Release): number {
  return rankOf(a) - rankOf(b)
}

// Feature checks run on every request (`hasFeature`), against a handful of releases: each release's
// rank is remembered, so a check allocates nothing.
const ranks = new Map<string, number>()

function rankOf(release: Release): number {
  let rank = ranks.get(release)
  if (rank === undefined) {
    const [major = 0, minor = 0] = release.split('.').map(Number)
    rank = major * 1_000_000 + minor
    if (ranks.size >= 1024) ranks.clear()
    ranks.set(release, rank)
  }
  return rank
}

/**
 * The features the specification dates, and those of the routes patkit serves beyond it that
 * GitLab's documentation dates, each with the first release that has it. Before that release the
 * feature is absent: its route answers 404, its parameter or field is absent, its rule is the older
 * one.
 *
 * @example
 * ```ts
 * import { FEATURES } from 'patkit/releases'
 * FEATURES.self_rotate.since // '16.10'
 * ```
 */
export const FEATURES = {
  delete_self: { since: '15.0', description: 'DELETE /personal_access_tokens/self (api scope only)' },
  delete_self_any_scope: { since: '15.4', description: 'DELETE /personal_access_tokens/self with any scope' },
  list_filters: {
    since: '15.5',
    description: 'list filters created_*, last_used_*, revoked, search and state',
  },
  rotate_by_id: { since: '16.0', description: 'POST /personal_access_tokens/:id/rotate' },
  reuse_detection: {
    since: '16.3',
    description: 'a revoked token presented to rotate revokes the tokens rotated from it',
  },
  rotate_expires_at: { since: '16.6', description: 'the expires_at parameter of rotation' },
  self_rotate: { since: '16.10', description: 'POST /personal_access_tokens/self/rotate' },
  // GitLab's PersonalAccessTokenWithLastUsedIps entity, route by route (docs/releases.md says how each
  // release was found).
  last_used_ips: {
    since: '17.8',
    description: 'the last_used_ips field of GET /personal_access_tokens/:id',
  },
  last_used_ips_self: {
    since: '18.0',
    description: 'the last_used_ips field of GET /personal_access_tokens/self',
  },
  last_used_ips_list: {
    since: '18.2',
    description: 'the last_used_ips field of the token list and of impersonation tokens',
  },
  // The newest PersonalAccessToken entity (lib/api/entities/personal_access_token.rb) exposes
  // `expired?` and `granular` together, `active` first. The `granular` column is milestone 18.4; the
  // entity's release was not found: 18.10, when fine-grained tokens reached beta, is an estimate
  // (shared/reference/gitlab-19-entities.md §1.1).
  token_expired_granular: {
    since: '18.10',
    description: 'the expired and granular fields of every token entity, active before revoked',
  },
  // Fine-grained tokens (docs/reference/fine-grained-pats.md §1, §5, §11.2; client-go MR 3178 for the creation releases):
  // `granular_scopes` is accepted on POST /user/personal_access_tokens and on impersonation tokens
  // from 19.2 (GA), on the admin's POST /users/:user_id/personal_access_tokens from 19.6 (MR !260958),
  // and shown on list, get, rotate, self-rotate, create and impersonation answers from 19.6
  // (doc/api/user_tokens.md). Rotate's own release (19.2 in patkit's surface notes) was not verified:
  // patkit shows the field on every route from 19.6.
  granular_tokens: {
    since: '19.2',
    description:
      'granular_scopes on POST /user/personal_access_tokens and POST /users/:user_id/impersonation_tokens',
  },
  granular_tokens_admin_create: {
    since: '19.6',
    description: 'granular_scopes on POST /users/:user_id/personal_access_tokens',
  },
  granular_scopes_json: {
    since: '19.6',
    description:
      'the granular_scopes field of a fine-grained token (list, get by id, rotate, create, impersonation)',
  },
  // Fine-grained tokens: GitLab's AuthorizeGranularScopesService checks a granular token's permissions
  // on every route from the beta (18.10; GA 19.2, doc/auth/tokens/fine_grained_access_tokens_rest.md).
  // The 403 text is the newest (fine-grained-pats.md §0): the beta's older wording is not emulated.
  granular_enforcement: {
    since: '18.10',
    description:
      "a fine-grained token's permissions checked on every route (403 insufficient_granular_scope)",
  },
  routable_tokens: {
    since: '18.3',
    description: "new secrets in GitLab's routable format (routable_pat's flag was removed in 18.3)",
  },
  // Beyond the specification: routes and fields patkit serves around tokens, dated by GitLab's docs.
  token_associations: {
    since: '17.4',
    description: 'GET /personal_access_tokens/self/associations',
  },
  planner_role: {
    since: '17.7',
    description: 'the planner access level (15) among the values of min_access_level',
  },
  // GitLab's admin token API (lib/api/admin/token.rb: `detail 'This feature was introduced in GitLab 17.5.'`
  // on POST, `17.7` on DELETE).
  admin_token_info: { since: '17.5', description: 'POST /admin/token (a token by its value)' },
  admin_token_revoke: { since: '17.7', description: 'DELETE /admin/token (revoke a token by its value)' },
  // Project and group access tokens (docs/api/{project,group}_access_tokens.md history notes).
  project_access_tokens: {
    since: '13.9',
    description: 'GET, POST /projects/:id/access_tokens and DELETE /projects/:id/access_tokens/:token_id',
  },
  group_access_tokens: {
    since: '14.7',
    description: 'GET, POST /groups/:id/access_tokens and DELETE /groups/:id/access_tokens/:token_id',
  },
  resource_token_get: { since: '14.10', description: 'GET /{projects,groups}/:id/access_tokens/:token_id' },
  resource_token_rotate: {
    since: '16.0',
    description: 'POST /{projects,groups}/:id/access_tokens/:token_id/rotate',
  },
  resource_token_self_rotate: {
    since: '17.9',
    description: 'POST /{projects,groups}/:id/access_tokens/self/rotate',
  },
  resource_token_retained: {
    since: '17.9',
    description: "a revoked resource access token's bot and membership are kept (before: the bot is removed)",
  },
  // Access token expiry webhooks (doc/user/project/integrations/webhook_events.md history: 16.10, MR 141907).
  resource_access_token_events: {
    since: '16.10',
    description: 'the resource_access_token_events flag of project and group hooks (expiry webhooks)',
  },
  metadata: { since: '15.2', description: 'GET /metadata' },
  version_mirrors_metadata: {
    since: '15.5',
    description: 'GET /version answers what GET /metadata does (before: version and revision only)',
  },
  metadata_enterprise: { since: '15.6', description: 'the enterprise field of GET /metadata' },
  metadata_kas_k8s_proxy_url: {
    since: '17.6',
    description: 'the kas.externalK8sProxyUrl field of GET /metadata',
  },
  // Service accounts (EE), dated by doc/api/service_accounts.md and group_service_accounts.md.
  service_accounts: { since: '16.1', description: 'POST /service_accounts' },
  service_accounts_list: { since: '17.1', description: 'GET /service_accounts' },
  group_service_accounts: {
    since: '16.1',
    description: 'POST /groups/:id/service_accounts, and creating and rotating their tokens',
  },
  group_service_accounts_list: {
    since: '17.1',
    description: 'GET and DELETE /groups/:id/service_accounts',
  },
  group_service_account_tokens_list: {
    since: '17.11',
    description: 'listing and revoking the tokens of a group service account',
  },
} as const satisfies Record<string, { readonly since: Release; readonly description: string }>

/**
 * The name of one dated feature.
 *
 * @example
 * ```ts
 * import type { Feature } from 'patkit/releases'
 * const f: Feature = 'reuse_detection'
 * ```
 */
export type Feature = keyof typeof FEATURES

/**
 * Whether an emulated release has a feature.
 *
 * @example
 * ```ts
 * import { hasFeature } from 'patkit/releases'
 * hasFeature('self_rotate', '16.9') // false
 * hasFeature('self_rotate', '16.10') // true
 * ```
 */
export function hasFeature(feature: Feature, release: Release): boolean {
  return compareReleases(release, FEATURES[feature].since) >= 0
}

/** The format of new secrets in an emulated release: routable from 18.3, legacy before. */
export function defaultTokenFormat(release: Release): TokenFormat {
  return hasFeature('routable_tokens', release) ? 'routable' : 'legacy'
}
