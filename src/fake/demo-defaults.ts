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
