import { z } from 'zod'
import { parseCalendarDate } from '../../domain/calendar.js'
import { isKnownPermission } from '../../domain/gitlab-permissions.js'
import { checkGranularScopes } from '../../domain/granular-request.js'
import { SCOPES } from '../../domain/scopes.js'
import { checkUsername } from '../../domain/username.js'
import { seedFamilyProblems } from './seed-families.js'
import { seedGranularScopes } from './seed-granular.js'
import { seedGranularScopeSchema } from './seed-granular-schema.js'
import { botNamespaceSchema, seedGroupSchema, seedProjectSchema } from './seed-resource-schema.js'

// One of GitLab's scopes; zod stays at this edge (the seed file), out of the domain.
const scopeSchema = z.enum(SCOPES)

/**
 * One user of a seed: `id` and `username` are required; `admin` and `blocked` default to false.
 * `state` is the same choice in the word of GitLab's user entity, `active` or `blocked` (patkit's
 * users have no other state); given with `blocked`, the two must agree. `name` is the display name
 * GitLab's messages use (default: the username). A bot (`bot: true`, the owner of a project or group
 * access token) names its project or group in `bot_namespace`; a service account
 * (`service_account: true`) may name the top-level group that provisioned it in
 * `provisioned_by_group_id`.
 *
 * @example
 * ```ts
 * import { seedUserSchema } from 'patkit/fake'
 * seedUserSchema.parse({ id: 1, username: 'root', admin: true })
 * ```
 */
export const seedUserSchema = z.strictObject({
  id: z.number().int().positive(),
  // GitLab's rules for a username (checkUsername), checked as given: never trimmed, so what is stored
  // is what a snapshot writes back.
  username: z.string().superRefine((value, ctx) => {
    const checked = checkUsername(value)
    if (checked.isErr()) ctx.addIssue({ code: 'custom', message: checked.error.reason })
  }),
  admin: z.boolean().optional(),
  blocked: z.boolean().optional(),
  state: z.enum(['active', 'blocked']).optional(),
  name: z.string().trim().min(1).max(255).optional(),
  bot: z.boolean().optional(),
  bot_namespace: botNamespaceSchema.nullable().optional(),
  service_account: z.boolean().optional(),
  provisioned_by_group_id: z.number().int().positive().nullable().optional(),
})

// Instants must carry their offset (`Z` or `+02:00`): a local time would mean a different instant on
// every machine that reads the seed.
const instant = z.iso.datetime({ offset: true })

const calendarDate = z
  .string()
  .refine((value) => parseCalendarDate(value).isOk(), 'Invalid date: expected an existing day as YYYY-MM-DD')

/**
 * One token of a seed, in GitLab's JSON field names. Only `user_id`, `name`, `scopes` (or, for a
 * fine-grained token, `granular_scopes` as GitLab's API takes it: `{access, permissions, project_ids?,
 * group_ids?}`) and `token` (the
 * plaintext secret, at least 8 characters; or `token_digest` with `id`, as a snapshot writes a token
 * whose secret is unknown) are required; `id` defaults to the next free one,
 * `created_at` to the authority's now, `expires_at` to now + the maximum lifetime (`null`: never).
 *
 * @example
 * ```ts
 * import { seedTokenSchema } from 'patkit/fake'
 * seedTokenSchema.parse({ user_id: 2, name: 'ci', scopes: ['api'], token: 'glpat-known-secret' })
 * ```
 */
export const seedTokenSchema = z.strictObject({
  id: z.number().int().positive().optional(),
  user_id: z.number().int().positive(),
  name: z.string().trim().min(1).max(255),
  scopes: z.array(scopeSchema).min(1).optional(),
  /** Instead of `scopes`: a fine-grained token's scopes, as `POST /user/personal_access_tokens` takes them. */
  granular_scopes: z.array(seedGranularScopeSchema).optional(),
  token: z.string().min(8).optional(),
  /**
   * Instead of `token`: the stored digest of a secret nobody knows any more (a snapshot of tokens the
   * API minted). Valid only under the pepper that computed it; needs `id`.
   */
  token_digest: z.string().min(16).max(128).optional(),
  description: z.string().max(255).nullable().optional(),
  created_at: instant.optional(),
  last_used_at: instant.nullable().optional(),
  /** The last client IPs that used the token, oldest first (GitLab's `last_used_ips`, at most five). */
  last_used_ips: z
    .array(
      z
        .string()
        .trim()
        .min(1)
        .max(45)
        .regex(/^[0-9A-Fa-f:.]+$/),
    )
    .max(5)
    .optional(),
  expires_at: calendarDate.nullable().optional(),
  revoked: z.boolean().optional(),
  impersonation: z.boolean().optional(),
  previous_id: z.number().int().positive().nullable().optional(),
})

function duplicates<T>(values: readonly T[]): Map<T, number> {
  // Maps each repeated value to the index of its second occurrence, the one a fix has to touch.
  const seen = new Set<T>()
  const repeated = new Map<T, number>()
  values.forEach((value, index) => {
    if (seen.has(value) && !repeated.has(value)) repeated.set(value, index)
    seen.add(value)
  })
  return repeated
}

/**
 * A whole seed: users and their tokens, groups and projects with their members, the format of
 * `patkit serve --seed FILE` and of `createFakeGitLab({ users, tokens, groups, projects })`. Every list
 * is optional; unknown keys are errors, and so are two users with one id or username, two tokens with
 * one id or secret, two groups (or two projects) with one id, a user listed twice among one
 * resource's members, a bot without `bot_namespace` (or `bot_namespace` on a user that is no bot),
 * `provisioned_by_group_id` on a user that is no service account, and a `previous_id` that would fork
 * a family: one naming a token of the seed must name a revoked token of the same user listed before
 * it, and no two tokens may name the same predecessor. What needs the stored data too (unknown
 * groups and users, cycles, full paths taken, bots' scopes) is checked as the seed is loaded.
 *
 * @example
 * ```ts
 * import { seedSchema } from 'patkit/fake'
 * const seed = seedSchema.parse({
 *   users: [{ id: 1, username: 'root', admin: true }, { id: 2, username: 'alice' }],
 *   tokens: [{ id: 10, user_id: 2, name: 'ci', scopes: ['api'], token: 'glpat-any-secret-string' }],
 * })
 * ```
 */
export const seedSchema = z
  .strictObject({
    users: z.array(seedUserSchema).optional(),
    tokens: z.array(seedTokenSchema).optional(),
    groups: z.array(seedGroupSchema).optional(),
    projects: z.array(seedProjectSchema).optional(),
  })
  .superRefine((seed, context) => {
    const users = seed.users ?? []
    const tokens = seed.tokens ?? []
    const report = (path: (string | number)[], message: string) =>
      context.addIssue({ code: 'custom', path, message })
    for (const [index, user] of users.entries()) {
      for (const { field, message } of userKindProblems(user)) report(['users', index, field], message)
    }
    for (const kind of ['groups', 'projects'] as const) {
      const resources = seed[kind] ?? []
      const noun = kind === 'groups' ? 'group' : 'project'
      for (const [id, index] of duplicates(resources.map((r) => r.id))) {
        report([kind, index, 'id'], `Duplicate ${noun} id ${id}`)
      }
      for (const [index, resource] of resources.entries()) {
        for (const [userId, at] of duplicates((resource.members ?? []).map((m) => m.user_id))) {
          report([kind, index, 'members', at, 'user_id'], `User ${userId} is listed twice among the members`)
        }
      }
    }
    for (const [index, user] of users.entries()) {
      if (
        user.state !== undefined &&
        user.blocked !== undefined &&
        (user.state === 'blocked') !== user.blocked
      ) {
        report(
          ['users', index, 'state'],
          `state ${JSON.stringify(user.state)} contradicts blocked: ${user.blocked}`,
        )
      }
    }
    for (const [id, index] of duplicates(users.map((u) => u.id))) {
      report(['users', index, 'id'], `Duplicate user id ${id}`)
    }
    for (const [name, index] of duplicates(users.map((u) => u.username.toLowerCase()))) {
      report(
        ['users', index, 'username'],
        `Duplicate username ${JSON.stringify(name)} (usernames ignore case)`,
      )
    }
    for (const [id, index] of duplicates(tokens.map((t) => t.id))) {
      if (id !== undefined) report(['tokens', index, 'id'], `Duplicate token id ${id}`)
    }
    for (const [secret, index] of duplicates(tokens.map((t) => t.token))) {
      if (secret !== undefined) report(['tokens', index, 'token'], 'Duplicate token secret')
    }
    for (const [digest, index] of duplicates(tokens.map((t) => t.token_digest))) {
      if (digest !== undefined) report(['tokens', index, 'token_digest'], 'Duplicate token digest')
    }
    for (const [index, token] of tokens.entries()) {
      for (const { field, message } of tokenScopeProblems(token)) report(['tokens', index, field], message)
      if ((token.token === undefined) === (token.token_digest === undefined)) {
        report(['tokens', index, 'token'], 'Give exactly one of token and token_digest')
      } else if (token.token_digest !== undefined && token.id === undefined) {
        report(['tokens', index, 'id'], 'A token given by token_digest needs its id')
      }
    }
    for (const { index, message } of seedFamilyProblems(tokens)) {
      report(['tokens', index, 'previous_id'], message)
    }
  })

// Exactly one of `scopes` and `granular_scopes` (GitLab's `exactly_one_of`); granular scopes pass the
// checks the API makes on creation (`checkGranularScopes`: permissions unique, one scope per namespace,
// at most one without a namespace), with the API's message.
function tokenScopeProblems(token: z.output<typeof seedTokenSchema>): { field: string; message: string }[] {
  const granular = token.granular_scopes
  if ((token.scopes === undefined) === (granular === undefined)) {
    return [
      {
        field: 'scopes',
        message:
          'Give exactly one of scopes and granular_scopes (a legacy token has scopes, a fine-grained one granular_scopes)',
      },
    ]
  }
  if (granular === undefined) return []
  // Each entry's own problems (unknown or repeated permissions) were reported at their place already.
  const listed = granular.flatMap((entry) => entry.permissions)
  if (
    !listed.every(isKnownPermission) ||
    granular.some((e) => new Set(e.permissions).size !== e.permissions.length)
  )
    return []
  const checked = checkGranularScopes(seedGranularScopes(granular))
  return checked.isErr() ? [{ field: 'granular_scopes', message: checked.error.message }] : []
}

// The user kinds GitLab keeps apart: a bot belongs to one project or group, a service account may be
// provisioned by a group, and no user is both.
function userKindProblems(user: z.output<typeof seedUserSchema>): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = []
  const namespace = user.bot_namespace ?? null
  if (user.bot === true && namespace === null) {
    problems.push({
      field: 'bot_namespace',
      message: 'A bot needs bot_namespace: the project or group it belongs to',
    })
  }
  if (user.bot !== true && namespace !== null) {
    problems.push({ field: 'bot_namespace', message: 'Only a bot (bot: true) has a bot_namespace' })
  }
  if (user.bot === true && user.service_account === true) {
    problems.push({ field: 'service_account', message: 'A user is a bot or a service account, not both' })
  }
  const provisioned = user.provisioned_by_group_id ?? null
  if (provisioned !== null && user.service_account !== true) {
    problems.push({
      field: 'provisioned_by_group_id',
      message: 'Only a service account (service_account: true) is provisioned by a group',
    })
  }
  if (user.admin === true && user.bot === true) {
    problems.push({ field: 'admin', message: 'A bot is never an administrator' })
  }
  return problems
}

/**
 * A user as a seed gives it (the input of {@link seedUserSchema}).
 *
 * @example
 * ```ts
 * import type { SeedUser } from 'patkit/fake'
 * const alice: SeedUser = { id: 2, username: 'alice' }
 * ```
 */
export type SeedUser = z.input<typeof seedUserSchema>

/**
 * A token as a seed gives it (the input of {@link seedTokenSchema}), GitLab's field names.
 *
 * @example
 * ```ts
 * import type { SeedToken } from 'patkit/fake'
 * const ci: SeedToken = { user_id: 2, name: 'ci', scopes: ['api'], token: 'glpat-known-secret' }
 * ```
 */
export type SeedToken = z.input<typeof seedTokenSchema>

/**
 * A whole seed (the input of {@link seedSchema}).
 *
 * @example
 * ```ts
 * import type { Seed } from 'patkit/fake'
 * const seed: Seed = { users: [{ id: 1, username: 'root', admin: true }], tokens: [] }
 * ```
 */
export type Seed = z.input<typeof seedSchema>

/**
 * A seed after validation.
 *
 * @example
 * ```ts
 * import { seedSchema, type ValidSeed } from 'patkit/fake'
 * const seed: ValidSeed = seedSchema.parse({ users: [] })
 * ```
 */
export type ValidSeed = z.output<typeof seedSchema>

/**
 * Writes a field path the way a reader finds it in the JSON: `tokens[0].scopes[1]`.
 */
export function formatSeedPath(path: readonly PropertyKey[]): string {
  const text = path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`))
    .join('')
  return text === '' ? '(root)' : text
}

/**
 * One problem of a seed: where (`tokens[0].scopes[1]`) and what.
 *
 * @example
 * ```ts
 * import type { SeedProblem } from 'patkit/fake'
 * const problem: SeedProblem = { path: 'tokens[0].user_id', message: 'No user with id 7' }
 * ```
 */
export interface SeedProblem {
  readonly path: string
  readonly message: string
}

/**
 * Validates a seed and lists its problems, each naming the field; unknown keys are reported one by
 * one at their own path.
 *
 * @example
 * ```ts
 * import { validateSeed } from 'patkit/fake'
 * const result = validateSeed({ users: [{ id: 1 }] })
 * result.success ? result.seed : result.problems // [{ path: 'users[0].username', message: '...' }]
 * ```
 */
export function validateSeed(
  input: unknown,
): { success: true; seed: ValidSeed } | { success: false; problems: readonly SeedProblem[] } {
  const parsed = seedSchema.safeParse(input)
  if (parsed.success) return { success: true, seed: parsed.data }
  const problems = parsed.error.issues.flatMap((issue): SeedProblem[] =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ path: formatSeedPath([...issue.path, key]), message: 'Unknown field' }))
      : [{ path: formatSeedPath(issue.path), message: issue.message }],
  )
  return { success: false, problems }
}
