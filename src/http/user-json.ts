import { isHuman } from '../authority/users/find-users.js'
import { displayName, type User } from '../store/user.js'

/**
 * GitLab's user entities, from the smallest to the largest (lib/api/entities/user_*.rb), each the
 * previous one plus fields: `basic` (UserBasic, `GET /users`), `user` (User, `GET /users/:id`),
 * `public` (UserPublic, `GET /user`), `with_admin` (UserWithAdmin, what administrators get from
 * `GET /user` and `GET /users`) and `details_with_admin` (UserDetailsWithAdmin, administrators'
 * `GET /users/:id`).
 *
 * @example
 * ```ts
 * import type { UserEntity } from 'patkit/http'
 * const entity: UserEntity = 'public'
 * ```
 */
export type UserEntity = 'basic' | 'user' | 'public' | 'with_admin' | 'details_with_admin'

const RANK: Readonly<Record<UserEntity, number>> = {
  basic: 0,
  user: 1,
  public: 2,
  with_admin: 3,
  details_with_admin: 4,
}

/**
 * How to render a user: the entity, who is looking (`null` for an anonymous caller), the web origin
 * profile URLs start with, and whether `with_custom_attributes` was asked for.
 *
 * @example
 * ```ts
 * import type { UserJsonOptions } from 'patkit/http'
 * const options: UserJsonOptions = { entity: 'basic', viewer: null, webBase: 'https://gitlab.example.com' }
 * ```
 */
export interface UserJsonOptions {
  readonly entity: UserEntity
  readonly viewer: User | null
  readonly webBase: string
  readonly withCustomAttributes?: boolean
}

/**
 * A user as GitLab's API shows one, fields in GitLab's order. patkit knows a user's id, username,
 * role and whether they are blocked; every other field has the value that follows from what patkit
 * is, or null where it cannot know:
 * - `name` is the user's `name`, else the username; `bot` is true for bots of project and group access
 *   tokens and for service accounts (GitLab's `bot?`); `state` is `active` or `blocked`; `is_admin` the role; `web_url` is
 *   `<webBase>/<username>`, as GitLab's `user_url`;
 * - patkit has no profiles, sign-ins, projects, followers, identities, two-factor authentication
 *   or external users: profile texts are GitLab's empty defaults (`""`, `pronouns` null),
 *   counts 0, `identities` [], `locked`, `external`, `private_profile`,
 *   `two_factor_enabled` false, `highest_role` 0 (no access), sign-in times and addresses null;
 * - what only a real instance holds is null: `avatar_url` (no Gravatar without an email),
 *   `created_at`, `email`, `public_email`, `commit_email`, `confirmed_at`, `last_activity_on`,
 *   `theme_id`, `color_scheme_id`, `projects_limit`, `can_create_group`, `can_create_project`,
 *   `preferred_language`, `local_time`, `work_information`, `note`, `namespace_id`, `created_by`,
 *   `email_reset_offered_at`.
 * `created_at`, `followers`, `following` and `is_followed` appear only when the viewer may read the
 * profile (GitLab's `read_user_profile`: not for a blocked user, unless the viewer is that user or
 * an administrator); `is_followed` only for a signed-in viewer; `custom_attributes` (none) only when
 * asked for by an administrator.
 *
 * @example
 * ```ts
 * import { userJson } from 'patkit/http'
 * userJson({ id: 2, username: 'alice', admin: false, blocked: false }, { entity: 'basic', viewer: null, webBase: 'https://gitlab.example.com' })
 * // { id: 2, username: 'alice', public_email: null, name: 'alice', state: 'active', locked: false, avatar_url: null, web_url: 'https://gitlab.example.com/alice' }
 * ```
 */
export function userJson(user: User, options: UserJsonOptions): Record<string, unknown> {
  const { viewer } = options
  const rank = RANK[options.entity]
  const json: Record<string, unknown> = {
    id: user.id,
    username: user.username,
    public_email: null,
    name: displayName(user),
    state: user.blocked ? 'blocked' : 'active',
    locked: false,
    avatar_url: null,
  }
  if (options.withCustomAttributes === true && viewer?.admin === true) json['custom_attributes'] = []
  json['web_url'] = `${options.webBase}/${encodeURIComponent(user.username)}`
  if (rank < RANK.user) return json

  const readProfile = !user.blocked || viewer?.admin === true || viewer?.id === user.id
  if (readProfile) json['created_at'] = null
  Object.assign(json, {
    bio: '',
    location: '',
    linkedin: '',
    twitter: '',
    discord: '',
    website_url: '',
    github: '',
    job_title: '',
    pronouns: null,
    organization: '',
    bot: !isHuman(user),
    work_information: null,
  })
  if (readProfile) Object.assign(json, { followers: 0, following: 0 })
  if (readProfile && viewer !== null) json['is_followed'] = false
  json['local_time'] = null
  if (rank < RANK.public) return json

  Object.assign(json, {
    last_sign_in_at: null,
    confirmed_at: null,
    last_activity_on: null,
    email: null,
    theme_id: null,
    color_scheme_id: null,
    projects_limit: null,
    current_sign_in_at: null,
    identities: [],
    can_create_group: null,
    can_create_project: null,
    two_factor_enabled: false,
    external: false,
    private_profile: false,
    commit_email: null,
    preferred_language: null,
  })
  if (rank < RANK.with_admin) return json

  Object.assign(json, {
    is_admin: user.admin,
    note: null,
    namespace_id: null,
    created_by: null,
    email_reset_offered_at: null,
  })
  if (rank < RANK.details_with_admin) return json

  return Object.assign(json, {
    highest_role: 0,
    current_sign_in_ip: null,
    last_sign_in_ip: null,
    sign_in_count: 0,
  })
}

/**
 * Where profile URLs start: the public URL clients see (with its path prefix), else the request's
 * origin, without a trailing slash.
 *
 * @example
 * ```ts
 * import { userWebBase } from 'patkit/http'
 * userWebBase(new URL('http://127.0.0.1:3000/api/v4/user'), new URL('https://gitlab.example.com/git/'))
 * // 'https://gitlab.example.com/git'
 * ```
 */
export function userWebBase(requestUrl: URL, publicUrl: URL | undefined): string {
  if (publicUrl === undefined) return requestUrl.origin
  return `${publicUrl.origin}${publicUrl.pathname.replace(/\/+$/, '')}`
}

/**
 * GitLab's `ServiceAccount` entity (the service account routes): `id`, `username`, `name`, `email`
 * and `public_email`. patkit keeps no email addresses: `email` is the address GitLab generates for a
 * service account, `<username>@noreply.<host>`, with the host clients see.
 */
export function serviceAccountJson(user: User, host: string): Record<string, unknown> {
  return {
    id: user.id,
    username: user.username,
    name: displayName(user),
    email: `${user.username}@noreply.${host}`,
    public_email: null,
  }
}
