// GitLab's "Resource Access Token Hook" payload (docs: webhook_events.md "Project and group access token
// events"). Built by `lib/gitlab/data_builder/resource_access_token_payload.rb` (@800235cc):
//   {object_kind: 'access_token', <project|group>: resource.hook_attrs,
//    object_attributes: token.hook_attrs, event_name: 'expiring_access_token'}.merge(data)
// where the worker's `data` is `{interval: :seven_days | :thirty_days | :sixty_days}` (its spec, and
// spec/lib/gitlab/data_builder/resource_access_token_payload_spec.rb: `data[:interval]`).
// The project's attributes are `app/models/project.rb#hook_attrs(backward: true)` (index id 686535207);
// the token's are `lib/gitlab/hook_data/resource_access_token_builder.rb`'s SAFE_HOOK_ATTRIBUTES.

/**
 * A notice interval as GitLab names it (`PersonalAccessToken::NOTIFICATION_INTERVALS`).
 *
 * @example
 * ```ts
 * import type { ExpiryInterval } from 'patkit/webhooks'
 * const interval: ExpiryInterval = 'thirty_days'
 * ```
 */
export type ExpiryInterval = 'seven_days' | 'thirty_days' | 'sixty_days'

/**
 * The token an expiry notice is about, in patkit's own terms (not a store row).
 *
 * @example
 * ```ts
 * import type { AccessTokenHookToken } from 'patkit/webhooks'
 * const token: AccessTokenHookToken = {
 *   id: 1, name: 'ci', userId: 9, createdAt: new Date('2030-01-01T00:00:00Z'), expiresAt: '2030-02-01', lastUsedAt: null,
 * }
 * ```
 */
export interface AccessTokenHookToken {
  readonly id: number
  readonly name: string
  /** The bot user's id. */
  readonly userId: number
  readonly createdAt: Date
  /** The calendar day the token expires, `YYYY-MM-DD`. */
  readonly expiresAt: string
  readonly lastUsedAt: Date | null
}

/**
 * The project a project access token belongs to.
 *
 * @example
 * ```ts
 * import type { AccessTokenHookProject } from 'patkit/webhooks'
 * const project: AccessTokenHookProject = {
 *   kind: 'project', id: 7, name: 'API', fullPath: 'acme/api', namespaceName: 'Acme', visibility: 'private', defaultBranch: 'main',
 * }
 * ```
 */
export interface AccessTokenHookProject {
  readonly kind: 'project'
  readonly id: number
  readonly name: string
  /** The path below the namespace, e.g. `api` in `acme/api`. */
  readonly fullPath: string
  /** The namespace's display name (GitLab's `namespace.name`). */
  readonly namespaceName: string
  readonly visibility: 'private' | 'internal' | 'public'
  readonly defaultBranch: string | null
}

/**
 * The group a group access token belongs to.
 *
 * @example
 * ```ts
 * import type { AccessTokenHookGroup } from 'patkit/webhooks'
 * const group: AccessTokenHookGroup = { kind: 'group', id: 3, name: 'Acme', path: 'acme', fullPath: 'acme' }
 * ```
 */
export interface AccessTokenHookGroup {
  readonly kind: 'group'
  readonly id: number
  readonly name: string
  /** The group's own path segment. */
  readonly path: string
  readonly fullPath: string
}

/**
 * Everything {@link accessTokenPayload} needs.
 *
 * @example
 * ```ts
 * import { type AccessTokenPayloadInput, accessTokenPayload } from 'patkit/webhooks'
 * declare const input: AccessTokenPayloadInput
 * const payload = accessTokenPayload(input)
 * ```
 */
export interface AccessTokenPayloadInput {
  /** The instance's base URL, e.g. `http://127.0.0.1:8080` (GitLab's `Gitlab.config.gitlab.base_url`). */
  readonly baseUrl: string
  readonly resource: AccessTokenHookProject | AccessTokenHookGroup
  readonly token: AccessTokenHookToken
  readonly interval: ExpiryInterval
}

/**
 * A project as GitLab's `Project#hook_attrs(backward: true)` presents it.
 *
 * @example
 * ```ts
 * import { accessTokenPayload, type ProjectHookAttrs } from 'patkit/webhooks'
 * declare const payload: ReturnType<typeof accessTokenPayload>
 * const project: ProjectHookAttrs | undefined = 'project' in payload ? payload.project : undefined
 * ```
 */
export interface ProjectHookAttrs {
  readonly id: number
  readonly name: string
  readonly description: null
  readonly web_url: string
  readonly avatar_url: null
  readonly git_ssh_url: string
  readonly git_http_url: string
  readonly namespace: string
  readonly visibility_level: 0 | 10 | 20
  readonly path_with_namespace: string
  readonly default_branch: string | null
  readonly ci_config_path: null
  readonly homepage: string
  readonly url: string
  readonly ssh_url: string
  readonly http_url: string
}

/**
 * A group as the access-token hook presents it.
 *
 * @example
 * ```ts
 * import { accessTokenPayload, type GroupHookAttrs } from 'patkit/webhooks'
 * declare const payload: ReturnType<typeof accessTokenPayload>
 * const group: GroupHookAttrs | undefined = 'group' in payload ? payload.group : undefined
 * ```
 */
export interface GroupHookAttrs {
  readonly group_name: string
  readonly group_path: string
  readonly group_id: number
  readonly full_path: string
}

/**
 * The token as `ResourceAccessTokenBuilder` presents it.
 *
 * @example
 * ```ts
 * import type { AccessTokenHookAttrs, AccessTokenPayload } from 'patkit/webhooks'
 * declare const payload: AccessTokenPayload
 * const attrs: AccessTokenHookAttrs = payload.object_attributes
 * attrs.expires_at // e.g. '2024-01-26'
 * ```
 */
export interface AccessTokenHookAttrs {
  readonly user_id: number
  readonly created_at: string
  readonly id: number
  readonly name: string
  readonly expires_at: string
  readonly last_used_at: string | null
}

interface PayloadCommon {
  readonly object_kind: 'access_token'
  readonly object_attributes: AccessTokenHookAttrs
  readonly event_name: 'expiring_access_token'
  /** Last, as `ResourceAccessTokenPayload.build` merges the worker's `{interval: ...}` into the payload. */
  readonly interval: ExpiryInterval
}

/**
 * The JSON body GitLab posts for an expiring project or group access token.
 *
 * @example
 * ```ts
 * import type { AccessTokenPayload } from 'patkit/webhooks'
 * declare const payload: AccessTokenPayload
 * const body = JSON.stringify(payload)
 * ```
 */
export type AccessTokenPayload =
  | (PayloadCommon & { readonly project: ProjectHookAttrs })
  | (PayloadCommon & { readonly group: GroupHookAttrs })

const VISIBILITY_LEVEL = { private: 0, internal: 10, public: 20 } as const

const pad = (n: number): string => String(n).padStart(2, '0')

/**
 * GitLab's hook timestamp, `"2024-01-24 16:27:40 UTC"` (the docs' example payload).
 *
 * @example
 * ```ts
 * import { hookTimestamp } from 'patkit/webhooks'
 * hookTimestamp(new Date('2024-01-24T16:27:40.123Z')) // '2024-01-24 16:27:40 UTC'
 * ```
 */
export function hookTimestamp(instant: Date): string {
  return (
    `${instant.getUTCFullYear()}-${pad(instant.getUTCMonth() + 1)}-${pad(instant.getUTCDate())} ` +
    `${pad(instant.getUTCHours())}:${pad(instant.getUTCMinutes())}:${pad(instant.getUTCSeconds())} UTC`
  )
}

function projectAttrs(baseUrl: string, project: AccessTokenHookProject): ProjectHookAttrs {
  const base = new URL(baseUrl)
  const root = base.href.replace(/\/+$/, '')
  const webUrl = `${root}/${project.fullPath}`
  const httpUrl = `${webUrl}.git`
  const sshUrl = `git@${base.hostname}:${project.fullPath}.git`
  return {
    id: project.id,
    name: project.name,
    description: null,
    web_url: webUrl,
    avatar_url: null,
    git_ssh_url: sshUrl,
    git_http_url: httpUrl,
    namespace: project.namespaceName,
    visibility_level: VISIBILITY_LEVEL[project.visibility],
    path_with_namespace: project.fullPath,
    default_branch: project.defaultBranch,
    ci_config_path: null,
    homepage: webUrl,
    // `url_to_repo` is the SSH URL in GitLab.
    url: sshUrl,
    ssh_url: sshUrl,
    http_url: httpUrl,
  }
}

/**
 * Builds GitLab's "Resource Access Token Hook" payload for a token about to expire: `object_kind`
 * `access_token`, `event_name` `expiring_access_token`, the `project` or the `group`, the token's
 * `object_attributes` and the notice `interval`.
 *
 * @example
 * ```ts
 * import { accessTokenPayload } from 'patkit/webhooks'
 * const payload = accessTokenPayload({
 *   baseUrl: 'http://127.0.0.1:8080',
 *   resource: { kind: 'group', id: 7, name: 'Acme', path: 'acme', fullPath: 'acme' },
 *   token: {
 *     id: 1, name: 'ci', userId: 9, createdAt: new Date('2024-01-24T16:27:40Z'),
 *     expiresAt: '2024-01-31', lastUsedAt: null,
 *   },
 *   interval: 'seven_days',
 * })
 * payload.event_name // 'expiring_access_token'
 * ```
 */
export function accessTokenPayload(input: AccessTokenPayloadInput): AccessTokenPayload {
  const { token, resource } = input
  const objectAttributes: AccessTokenHookAttrs = {
    user_id: token.userId,
    created_at: hookTimestamp(token.createdAt),
    id: token.id,
    name: token.name,
    expires_at: token.expiresAt,
    last_used_at: token.lastUsedAt === null ? null : hookTimestamp(token.lastUsedAt),
  }
  const common = { object_kind: 'access_token', event_name: 'expiring_access_token' } as const
  return resource.kind === 'project'
    ? {
        object_kind: common.object_kind,
        project: projectAttrs(input.baseUrl, resource),
        object_attributes: objectAttributes,
        event_name: common.event_name,
        interval: input.interval,
      }
    : {
        object_kind: common.object_kind,
        group: {
          group_name: resource.name,
          group_path: resource.path,
          group_id: resource.id,
          full_path: resource.fullPath,
        },
        object_attributes: objectAttributes,
        event_name: common.event_name,
        interval: input.interval,
      }
}
