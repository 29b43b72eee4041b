import { err, ok, type Result, ResultAsync } from 'neverthrow'
import type { IssuedToken } from '../../authority/core/issued-token.js'
import type { Authority } from '../../authority/create-authority.js'
import type { IssueTokenInput } from '../../authority/personal/issue-token.js'
import type { CalendarDate } from '../../domain/calendar.js'
import type { PatkitError } from '../../domain/errors.js'
import type { Digester } from '../../domain/secret.js'
import type { Token } from '../../domain/token.js'
import type { TokenStore } from '../../store/token-store.js'
import type { User } from '../../store/user.js'
import { checkSeed, type SeedPlan, seedDigest } from './seed-check.js'
import { grantsOf, seedGranularScopes } from './seed-granular.js'
import type { ResourcePlan } from './seed-resources.js'
import type { SeedProblem, ValidSeed } from './seed-schema.js'

/**
 * Where a seed goes: the authority that issues the tokens, its store, and its digester (to recognize a
 * token that is already stored).
 *
 * @example
 * ```ts
 * import type { SeedTarget } from 'patkit/fake'
 * import { createDigester } from 'patkit/store'
 * const target: SeedTarget = { authority, store, digest: createDigester(pepper) }
 * ```
 */
export interface SeedTarget {
  readonly authority: Authority
  readonly store: TokenStore
  readonly digest: Digester
}

/**
 * What {@link loadSeed} did: how many users, groups and projects it put, the tokens it issued, and the
 * indices (in the seed's `tokens`) of those it left alone because their secret was already stored.
 *
 * @example
 * ```ts
 * import type { SeedReport } from 'patkit/fake'
 *
 * const report: SeedReport = { users: 2, groups: 1, projects: 1, issued: [], restored: [], skipped: [0] }
 * ```
 */
export interface SeedReport {
  readonly users: number
  /** The seed's groups (a stored group whose full path changed with them is put too, uncounted). */
  readonly groups: number
  readonly projects: number
  readonly issued: readonly IssuedToken[]
  /** Tokens given by `token_digest` (a snapshot's), stored as they were. */
  readonly restored: readonly Token[]
  readonly skipped: readonly number[]
}

function describe(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause)
}

/**
 * Explains why `issueToken` refused an input: the field at fault (GitLab's name; `null` for the token
 * as a whole) and a sentence.
 */
export function describeIssueFailure(
  input: IssueTokenInput,
  error: PatkitError,
): { readonly field: string | null; readonly message: string } {
  switch (error.type) {
    case 'not_found':
      return error.entity === 'user'
        ? { field: 'user_id', message: `No user with id ${input.userId}` }
        : {
            field: 'previous_id',
            message: `No token with id ${String(input.previousId)} (a token must come after the token it was rotated from)`,
          }
    case 'validation_failed':
      return { field: null, message: error.message }
    case 'invalid_parameter':
      return { field: error.parameter, message: 'Invalid value' }
    case 'store_failure':
      return { field: null, message: `Could not be stored: ${describe(error.cause)}` }
    default:
      return { field: null, message: error.type }
  }
}

function issueProblem(index: number, input: IssueTokenInput, error: PatkitError): SeedProblem {
  const { field, message } = describeIssueFailure(input, error)
  return { path: field === null ? `tokens[${index}]` : `tokens[${index}].${field}`, message }
}

type ValidSeedToken = NonNullable<ValidSeed['tokens']>[number]
type ValidSeedUser = NonNullable<ValidSeed['users']>[number]

// The seed's user as the store holds it: the kind fields only when the seed gives them, so a user
// seeded without them reads back without them (a snapshot stays identical).
function toUser(user: ValidSeedUser): User {
  const namespace = user.bot_namespace ?? null
  return {
    id: user.id,
    username: user.username,
    admin: user.admin ?? false,
    blocked: user.blocked ?? user.state === 'blocked',
    ...(user.name === undefined ? {} : { name: user.name }),
    ...(user.bot === true ? { bot: true } : {}),
    ...(namespace === null ? {} : { botNamespace: { type: namespace.type, id: namespace.id } }),
    ...(user.service_account === true ? { serviceAccount: true } : {}),
    ...(user.provisioned_by_group_id === undefined || user.provisioned_by_group_id === null
      ? {}
      : { provisionedByGroupId: user.provisioned_by_group_id }),
  }
}

// Groups (parents first), then projects, as `checkResources` planned them; the first failure stops it.
async function writeResources(
  store: TokenStore,
  seed: ValidSeed,
  plan: ResourcePlan,
): Promise<SeedProblem | null> {
  const resources = store.resources
  if (resources === undefined) return null
  const where = (kind: 'groups' | 'projects', id: number) => {
    const index = (seed[kind] ?? []).findIndex((entry) => entry.id === id)
    return index === -1 ? kind : `${kind}[${index}]`
  }
  for (const group of plan.groups) {
    const put = await resources.putGroup(group)
    if (put.isErr())
      return { path: where('groups', group.id), message: `Could not be stored: ${describe(put.error.cause)}` }
  }
  for (const project of plan.projects) {
    const put = await resources.putProject(project)
    if (put.isErr()) {
      return {
        path: where('projects', project.id),
        message: `Could not be stored: ${describe(put.error.cause)}`,
      }
    }
  }
  return null
}

function toInput(token: ValidSeedToken, secret: string): IssueTokenInput {
  // exactOptionalPropertyTypes: an absent seed field must stay absent, not become `undefined`.
  const granular = token.granular_scopes
  return {
    userId: token.user_id,
    name: token.name,
    ...(granular === undefined
      ? { scopes: token.scopes ?? [] }
      : { permissions: grantsOf(seedGranularScopes(granular)) }),
    secret,
    ...(token.id === undefined ? {} : { id: token.id }),
    ...(token.description === undefined ? {} : { description: token.description }),
    ...(token.expires_at === undefined ? {} : { expiresAt: token.expires_at }),
    ...(token.created_at === undefined ? {} : { createdAt: new Date(token.created_at) }),
    ...(token.last_used_at === undefined
      ? {}
      : { lastUsedAt: token.last_used_at === null ? null : new Date(token.last_used_at) }),
    ...(token.revoked === undefined ? {} : { revoked: token.revoked }),
    ...(token.impersonation === undefined ? {} : { impersonation: token.impersonation }),
    ...(token.previous_id === undefined ? {} : { previousId: token.previous_id }),
    ...(token.last_used_ips === undefined ? {} : { lastUsedIps: token.last_used_ips }),
  }
}

// A token known only by its digest (a snapshot's): stored exactly as given, through the store, since
// there is no secret to issue. `checkSeed` found its owner and its predecessor.
async function restoreByDigest(
  target: SeedTarget,
  token: ValidSeedToken,
  digest: string,
): Promise<Result<Token, { field: string; message: string }>> {
  const id = token.id ?? 0
  let familyId = id
  if (token.previous_id !== undefined && token.previous_id !== null) {
    const previous = await target.store.findById(token.previous_id)
    if (previous.isErr() || previous.value === null) {
      return err({
        field: '.previous_id',
        message: `No token with id ${token.previous_id} (a token must come after the token it was rotated from)`,
      })
    }
    familyId = previous.value.familyId
  }
  const at = (value: string | null | undefined) =>
    value === undefined || value === null ? null : new Date(value)
  const granular = token.granular_scopes
  const imported = await target.store.importToken({
    id,
    userId: token.user_id,
    name: token.name,
    description: token.description ?? null,
    scopes: token.scopes ?? [],
    ...(granular === undefined ? {} : { granularScopes: seedGranularScopes(granular) }),
    createdAt: at(token.created_at) ?? target.authority.now(),
    lastUsedAt: at(token.last_used_at),
    ...(token.last_used_ips === undefined || token.last_used_ips.length === 0
      ? {}
      : { lastUsedIps: token.last_used_ips }),
    expiresAt: (token.expires_at ?? null) as CalendarDate | null,
    revoked: token.revoked ?? false,
    impersonation: token.impersonation ?? false,
    previousId: token.previous_id ?? null,
    familyId,
    digest,
  })
  return imported.isErr()
    ? err({ field: '', message: `Could not be stored: ${describe(imported.error.cause)}` })
    : ok(imported.value)
}

// Whether the seed token's secret is now stored, under the seed's id when it names one: another
// process loading the same seed at the same moment stored it between the check and the write.
async function storedMeanwhile(target: SeedTarget, token: ValidSeedToken): Promise<boolean> {
  const found = await target.store.findByDigest(seedDigest(target.digest, token))
  if (found.isErr() || found.value === null) return false
  return token.id === undefined || token.id === found.value.id
}

/**
 * Writes a seed that {@link checkSeed} accepted, as `plan` says: users first (added or replaced), then
 * the tokens in order, each with its known secret (or its digest), id and dates; tokens already stored
 * are left alone. Only a store failure can stop it now, at the first one.
 */
export async function writeSeed(
  target: SeedTarget,
  seed: ValidSeed,
  plan: SeedPlan,
): Promise<Result<SeedReport, SeedProblem>> {
  const users = seed.users ?? []
  for (const [index, user] of users.entries()) {
    const put = await target.authority.users.put(toUser(user))
    if (put.isErr()) {
      const why = put.error.type === 'store_failure' ? describe(put.error.cause) : put.error.reason
      return err({ path: `users[${index}]`, message: `Could not be stored: ${why}` })
    }
  }
  const written = await writeResources(target.store, seed, plan.resources)
  if (written !== null) return err(written)
  const issued: IssuedToken[] = []
  const restoredTokens: Token[] = []
  const skipped: number[] = []
  for (const [index, token] of (seed.tokens ?? []).entries()) {
    if (plan.stored.has(index)) {
      skipped.push(index)
      continue
    }
    if (token.token === undefined) {
      const restored = await restoreByDigest(target, token, seedDigest(target.digest, token))
      if (restored.isOk()) restoredTokens.push(restored.value)
      else if (await storedMeanwhile(target, token)) skipped.push(index)
      else return err({ path: `tokens[${index}]${restored.error.field}`, message: restored.error.message })
      continue
    }
    const input = toInput(token, token.token)
    const result = await target.authority.issueToken(input)
    if (result.isOk()) issued.push(result.value)
    else if (result.error.type === 'store_failure' && (await storedMeanwhile(target, token)))
      skipped.push(index)
    else return err(issueProblem(index, input, result.error))
  }
  return ok({
    users: users.length,
    groups: seed.groups?.length ?? 0,
    projects: seed.projects?.length ?? 0,
    issued,
    restored: restoredTokens,
    skipped,
  })
}

async function load(target: SeedTarget, seed: ValidSeed): Promise<Result<SeedReport, SeedProblem>> {
  const plan = await checkSeed(target.store, target.digest, seed)
  return plan.isErr() ? err(plan.error[0]) : writeSeed(target, seed, plan.value)
}

/**
 * Puts a validated seed in place: users first (added or replaced), then groups and projects with
 * their members (added or replaced, groups above first; visibility private unless given), then tokens in order, each with its
 * known secret, id and dates. A token whose secret is already stored is skipped, so loading the same
 * seed twice into a persistent store is harmless. The whole seed is checked against the store before
 * the first write (unknown owners and predecessors, ids and usernames taken, families that would
 * fork, unknown groups and members, cycles, full paths taken, scopes a bot cannot hold), so a refused seed changes nothing; it is refused with its first problem, which names the
 * field. Only a failing store can stop it halfway.
 *
 * @example
 * ```ts
 * import { createAuthority } from 'patkit'
 * import { createDigester } from 'patkit/store'
 * import { memoryStore } from 'patkit/memory'
 * import { loadSeed, seedSchema } from 'patkit/fake'
 *
 * const store = memoryStore()
 * const authority = createAuthority({ store, pepper: 'dev' })
 * const seed = seedSchema.parse({ users: [{ id: 2, username: 'alice' }],
 *   tokens: [{ user_id: 2, name: 'ci', scopes: ['api'], token: 'glpat-known-secret' }] })
 * const report = await loadSeed({ authority, store, digest: createDigester('dev') }, seed)
 * ```
 */
export function loadSeed(target: SeedTarget, seed: ValidSeed): ResultAsync<SeedReport, SeedProblem> {
  return new ResultAsync(load(target, seed))
}
