import type { ValidSeedGroup, ValidSeedProject } from './seed/seed-resource-schema.js'
import type { SeedUser } from './seed/seed-schema.js'

/**
 * The pepper `patkit serve` and `createFakeGitLab` use when none is given. It is public, so it is
 * insecure: anyone who reads it can compute the digest of a guessed secret. It is fixed rather than
 * random because a persistent `--database` must see the same pepper on every restart, or every stored
 * token stops authenticating. Never use it for anything but development and tests.
 *
 * @example
 * ```ts
 * import { INSECURE_DEVELOPMENT_PEPPER } from 'patkit/fake'
 * INSECURE_DEVELOPMENT_PEPPER // 'patkit-insecure-development-pepper'
 * ```
 */
export const INSECURE_DEVELOPMENT_PEPPER = 'patkit-insecure-development-pepper'

/**
 * The users a fake authority starts with when it is given none: an admin `root` (id 1) and a regular
 * user `alice` (id 2), as on a fresh GitLab with one extra account.
 *
 * @example
 * ```ts
 * import { DEMO_USERS } from 'patkit/fake'
 * DEMO_USERS.map((u) => u.username) // ['root', 'alice']
 * ```
 */
export const DEMO_USERS: readonly SeedUser[] = Object.freeze([
  Object.freeze({ id: 1, username: 'root', admin: true }),
  Object.freeze({ id: 2, username: 'alice' }),
])

/**
 * Where `createFakeGitLab`'s clock starts when none is given: a fixed instant, so a test sees the same
 * dates (and the same default expiry) on every run.
 *
 * @example
 * ```ts
 * import { FAKE_GITLAB_START } from 'patkit/fake'
 * new Date(FAKE_GITLAB_START) // 2026-01-01T00:00:00.000Z
 * ```
 */
// A string, not a Date: an exported Date could be changed in place with setTime by any importer.
export const FAKE_GITLAB_START = '2026-01-01T00:00:00.000Z'

// `patkit serve`'s demo resources (not `createFakeGitLab`'s defaults, which stay the two users): a
// private group `demo` with a private project `demo/app`, alice a Maintainer of both, and the
// project's bot (a project access token's owner, Maintainer), named as GitLab names them.
export const DEMO_GROUP: ValidSeedGroup = Object.freeze<ValidSeedGroup>({
  id: 1,
  path: 'demo',
  name: 'Demo',
  parent_id: null,
  visibility: 'private',
  members: [{ user_id: 2, access_level: 40 }],
})

export const DEMO_BOT: SeedUser = Object.freeze({
  id: 3,
  username: 'project_1_bot_5e1f0c0ffee0d15ea5e0000000000001',
  name: 'App bot',
  bot: true,
  bot_namespace: Object.freeze({ type: 'project', id: 1 }),
})

export const DEMO_PROJECT: ValidSeedProject = Object.freeze<ValidSeedProject>({
  id: 1,
  path: 'app',
  name: 'App',
  group_id: 1,
  visibility: 'private',
  members: [
    { user_id: 2, access_level: 40 },
    { user_id: 3, access_level: 40 },
  ],
})
