import { compareReleases, type Release } from './release.js'

/**
 * One entry of GitLab's deprecation schedule for the programmable interface (spec section 9).
 * `removedIn` is the release that removes the item; `announcedFor` lists every removal release
 * the schedule has named for it, in order (some removals were announced for one release and
 * carried out in a later one).
 *
 * @example
 * ```ts
 * import type { Deprecation } from 'patkit/releases'
 * const d: Deprecation = { id: 'jwks_alias', item: 'Instance path /-/jwks', change: '...', removedIn: '17.0',
 *   announcedFor: ['17.0'], surface: 'rest' }
 * ```
 */
export interface Deprecation {
  readonly id: string
  readonly item: string
  readonly change: string
  readonly removedIn: Release
  readonly announcedFor: readonly Release[]
  readonly surface: 'rest' | 'graphql' | 'registry' | 'instance'
}

/**
 * The deprecation schedule of spec section 9, as data.
 *
 * @example
 * ```ts
 * import { DEPRECATIONS } from 'patkit/releases'
 * DEPRECATIONS.filter((d) => d.removedIn === '17.0').length
 * ```
 */
export const DEPRECATIONS = [
  {
    id: 'ci_lint_ref_and_sha',
    item: 'GET /projects/:id/ci/lint',
    change: 'Using `ref` and `sha` together is blocked; use `content_ref` and `dry_run_ref`.',
    removedIn: '18.0',
    announcedFor: ['18.0'],
    surface: 'rest',
  },
  {
    id: 'runner_registration_tokens',
    item: 'POST /runners',
    change:
      'Registration tokens and the runner arguments locked, access-level, run-untagged, maximum-timeout, paused, tag-list and maintenance-note are rejected with 410 Gone.',
    removedIn: '18.0',
    announcedFor: ['17.0', '18.0'],
    surface: 'rest',
  },
  {
    id: 'reset_registration_token',
    item: 'POST /runners/reset_registration_token, POST /projects/:id/runners/reset_registration_token, POST /groups/:id/runners/reset_registration_token',
    change: 'Return 410 Gone.',
    removedIn: '18.0',
    announcedFor: ['18.0'],
    surface: 'rest',
  },
  {
    id: 'registry_tags_offset_pagination',
    item: 'List registry repository tags',
    change: 'Offset pagination removed; keyset pagination is preferred.',
    removedIn: '18.0',
    announcedFor: ['18.0'],
    surface: 'rest',
  },
  {
    id: 'ci_job_token_scope_enabled',
    item: 'Projects API attribute `ci_job_token_scope_enabled`',
    change: 'Removed; use the job token scope endpoints.',
    removedIn: '18.0',
    announcedFor: ['17.0', '18.0'],
    surface: 'rest',
  },
  {
    id: 'notes_confidential',
    item: 'Notes `confidential` attribute in REST and GraphQL',
    change: 'Updating it is no longer supported.',
    removedIn: '18.0',
    announcedFor: ['18.0'],
    surface: 'rest',
  },
  {
    id: 'require_password_to_approve',
    item: 'Field `require_password_to_approve`',
    change: 'Replaced by `require_reauthentication_to_approve`.',
    removedIn: '18.0',
    announcedFor: ['18.0'],
    surface: 'rest',
  },
  {
    id: 'legacy_requirement_iid',
    item: 'Legacy requirement IID',
    change: 'Replaced by the work item IID.',
    removedIn: '18.0',
    announcedFor: ['18.0'],
    surface: 'rest',
  },
  {
    id: 'feature_flag_version',
    item: 'Feature flag API field `version`',
    change: 'Removed.',
    removedIn: '17.0',
    announcedFor: ['17.0'],
    surface: 'rest',
  },
  {
    id: 'settings_sign_in_text_help_text',
    item: 'Settings API parameters `sign_in_text` and `help_text`',
    change: 'Removed; use the `description` field of the appearance interface.',
    removedIn: '17.0',
    announcedFor: ['17.0'],
    surface: 'rest',
  },
  {
    id: 'user_email_lookup_limit',
    item: 'Settings field `user_email_lookup_limit`',
    change: 'Alias of `search_rate_limit`; removed.',
    removedIn: '16.7',
    announcedFor: ['16.7'],
    surface: 'rest',
  },
  {
    id: 'users_offset_pagination',
    item: 'GET /users',
    change: 'Offset pagination removed; use keyset pagination.',
    removedIn: '17.0',
    announcedFor: ['17.0'],
    surface: 'rest',
  },
  {
    id: 'packages_pipelines_attribute',
    item: 'GET /projects/:id/packages',
    change: 'The `pipelines` attribute is removed from each package.',
    removedIn: '17.0',
    announcedFor: ['17.0'],
    surface: 'rest',
  },
  {
    id: 'jwks_alias',
    item: 'Instance path /-/jwks',
    change: 'Alias of /oauth/discovery/keys; removed.',
    removedIn: '17.0',
    announcedFor: ['17.0'],
    surface: 'instance',
  },
  {
    id: 'custom_role_management',
    item: 'Custom role management on self-managed instances',
    change: 'Moves to GET, POST /member_roles and DELETE /member_roles/:id.',
    removedIn: '17.0',
    announcedFor: ['17.0'],
    surface: 'rest',
  },
  {
    id: 'deployments_updated_at_filter',
    item: 'Deployments endpoint',
    change:
      'Filtering by `updated_at` without sorting by `updated_at` returns an error; `finished_at` filtering and sorting can be used together instead.',
    removedIn: '16.0',
    announcedFor: ['16.0'],
    surface: 'rest',
  },
  {
    id: 'merge_request_approvals',
    item: '/approvals (merge request approvals)',
    change: 'Use /approval_rules instead.',
    removedIn: '16.0',
    announcedFor: ['16.0'],
    surface: 'rest',
  },
  {
    id: 'conan_project_search',
    item: 'Project-level package search (Conan)',
    change: 'Returns only packages of the target project.',
    removedIn: '16.0',
    announcedFor: ['16.0'],
    surface: 'rest',
  },
  {
    id: 'registry_tag_delete_route',
    item: 'Container registry tag delete route DELETE /v2/<name>/tags/reference/<tag>',
    change: 'Replaced by DELETE /v2/<name>/manifests/<tag>.',
    removedIn: '17.0',
    announcedFor: ['17.0'],
    surface: 'registry',
  },
  {
    id: 'graphql_fields_18_0',
    item: 'GraphQL fields',
    change:
      '`runnerPlatforms` and `runnerSetup` queries removed; `previousStageJobsOrNeeds` removed; `active` renamed to `paused` on runner types and inputs; `Project.services` replaced by `Project.integrations`; `direction` argument of `ciJobTokenScopeRemoveProject` removed.',
    removedIn: '18.0',
    announcedFor: ['18.0'],
    surface: 'graphql',
  },
  {
    id: 'graphql_fields_17_0',
    item: 'GraphQL fields (17.0)',
    change:
      '`hasSolutions` -> `hasRemediations`; `dependencyProxyTotalSizeInBytes` -> `dependencyProxyTotalSizeBytes`; `registrySizeEstimated` -> `containerRegistrySizeIsEstimated`; `totalWeight` -> `totalIssueWeight`; note `confidential` -> `internal`; `RunnerMembershipFilter` -> `CiRunnerMembershipFilter`; enum value `DISABLED_WITH_OVERRIDE` -> `DISABLED_AND_OVERRIDABLE`; `canDestroy` and `canDelete` replaced by a permissions field; `projectFingerprint` replaced by `uuid`; `confidence` and `message` fields removed; DORA `metric` filter and `value` field replaced by `metrics`; `networkPolicies` removed; `isTemporaryStorageIncreaseEnabled` and `temporaryStorageIncreaseEndsOn` removed; default sort of `CiRunner.projects` changes from id_asc to id_desc.',
    removedIn: '17.0',
    announcedFor: ['17.0'],
    surface: 'graphql',
  },
  {
    id: 'graphql_token_types',
    item: 'GraphQL access',
    change: 'From 17.0 only the documented token types may access it.',
    removedIn: '17.0',
    announcedFor: ['17.0'],
    surface: 'graphql',
  },
] as const satisfies readonly Deprecation[]

/**
 * The id of one entry of {@link DEPRECATIONS}.
 *
 * @example
 * ```ts
 * import type { DeprecationId } from 'patkit/releases'
 * const id: DeprecationId = 'jwks_alias'
 * ```
 */
export type DeprecationId = (typeof DEPRECATIONS)[number]['id']

/**
 * Whether an item of the schedule is removed in a release (the release is its removal release or
 * later).
 *
 * @example
 * ```ts
 * import { isRemoved } from 'patkit/releases'
 * isRemoved('jwks_alias', '16.11') // false
 * isRemoved('jwks_alias', '17.0') // true
 * ```
 */
export function isRemoved(id: DeprecationId, release: Release): boolean {
  const entry = DEPRECATIONS.find((d) => d.id === id)
  return entry !== undefined && compareReleases(release, entry.removedIn) >= 0
}

/**
 * Every item of the schedule removed in or before a release.
 *
 * @example
 * ```ts
 * import { removedBy } from 'patkit/releases'
 * removedBy('16.0').map((d) => d.id) // ['deployments_updated_at_filter', 'merge_request_approvals', 'conan_project_search']
 * ```
 */
export function removedBy(release: Release): readonly Deprecation[] {
  return DEPRECATIONS.filter((d) => compareReleases(release, d.removedIn) >= 0)
}
