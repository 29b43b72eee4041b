import { err, ok, type Result } from 'neverthrow'
import type { Authority } from '../authority/create-authority.js'
import type { StoreFailure } from '../domain/errors.js'
import type { Group, Member, Project } from '../domain/resource.js'
import { isScope } from '../domain/scopes.js'
import type { Digester } from '../domain/secret.js'
import type { Token } from '../domain/token.js'
import { memoryStore } from '../memory/memory-store.js'
import { everyToken } from '../store/every-page.js'
import type { StoreContents, TokenStore } from '../store/token-store.js'
import type { User } from '../store/user.js'
import { type SeedReport, writeSeed } from './seed/load-seed.js'
import { checkSeed } from './seed/seed-check.js'
import { granularScopesJson } from './seed/seed-granular.js'
import { resolveSeed } from './seed/seed-resolved.js'
import type { SeedGroup, SeedProject } from './seed/seed-resource-schema.js'
import type { SeedProblem, SeedToken, SeedUser, ValidSeed } from './seed/seed-schema.js'
import type { SwappableStore } from './swappable-store.js'

/**
 * A snapshot of a fake authority's data in the seed format: every user (bots and service accounts
 * too), token, group and project (with its members), a token with its plaintext `token` when the
 * secret is known (it came from the seed or the control API), otherwise with its `token_digest` (a
 * secret the API minted and showed once). `PUT /__patkit/state` and `patkit serve --seed` take it back,
 * under the same pepper; a snapshot of the restored data is the same snapshot.
 *
 * @example
 * ```ts
 * import type { StateSnapshot } from 'patkit/fake'
 *
 * const snapshot: StateSnapshot = {
 *   users: [{ id: 1, username: 'root', admin: true, blocked: false }],
 *   tokens: [],
 *   groups: [],
 *   projects: [],
 * }
 * ```
 */
export interface StateSnapshot {
  readonly users: readonly SeedUser[]
  readonly tokens: readonly SeedToken[]
  readonly groups: readonly SeedGroup[]
  readonly projects: readonly SeedProject[]
}

/**
 * The data side of the control plane: reset to the start seed, snapshot, restore, and adding users and
 * tokens with known secrets. Reset and restore swap in a fresh store, so they are as fast as loading
 * the seed. A reset writes the start data exactly as the start wrote it: the ids, `created_at` and
 * `expires_at` the seed left to the store and the clock are the ones the first load gave. Every write is checked whole before it changes anything: a refused one leaves the data
 * (users, tokens, ids, families, known secrets) exactly as it was.
 */
export interface FakeState {
  /**
   * Why a reset is refused before it starts, or `null` when it can run: the kept data the start held
   * was too large to keep (over {@link START_SNAPSHOT_LIMIT} tokens).
   */
  resetRefusal(): string | null
  reset(): Promise<Result<SeedReport, readonly SeedProblem[]>>
  /** Adds the options' seed (already a ValidSeed, as a reset takes it) to the data in place. */
  start(): Promise<Result<SeedReport, readonly SeedProblem[]>>
  restore(input: unknown): Promise<Result<SeedReport, readonly SeedProblem[]>>
  /** Adds (or replaces, by id) users and adds tokens, in the seed format, to the data in place. */
  add(input: unknown): Promise<Result<SeedReport, readonly SeedProblem[]>>
  snapshot(): Promise<Result<StateSnapshot, StoreFailure>>
}

/**
 * What {@link fakeState} works on.
 */
interface FakeStateOptions {
  readonly authority: Authority
  /**
   * The same authority over another store: a reset or restore writes its data into a staging store
   * through it, so the store requests are served from never points at half-written data.
   */
  readonly authorityFor: (store: TokenStore) => Authority
  readonly store: SwappableStore
  readonly digest: Digester
  /** The data the start adds to the store. */
  readonly seed: ValidSeed
  /**
   * Top-level groups' `enforce_granular_tokens`, by group id: the day it starts. The state keeps it
   * as the seeds and control writes give it (a group put again without it loses it; a reset or
   * restore starts it over), and a snapshot writes it back.
   */
  readonly enforcement?: Map<number, string>
  /**
   * The store held data of its own before the start (a user's database or store): a reset goes back
   * to all it held once the seed was added (a snapshot taken then, kept in memory), not to the seed
   * alone, so that it never empties the data. Otherwise a reset goes back to the seed.
   */
  readonly keptData?: boolean
  /**
   * A new empty store a reset or restore writes its data into, then swaps in whole (the in-memory
   * fake: ids after a reset are those after the start again). Without it the data is written into a
   * memory store first and then replaces the store's own with `replaceAll`.
   */
  readonly freshStore?: () => TokenStore
  /** Called once the data was replaced and the new data loaded (never for a refused reset or restore). */
  readonly onReplace?: () => void
  /**
   * Called as a reset, its start data checked, is about to write it: the fake sets its clock back to
   * its start there, so the start data is written at the start instant.
   */
  readonly onReset?: () => void
}

/**
 * The most tokens the start of a kept store (a user's database) may hold for a reset to go back to
 * it: the start snapshot is held in memory. Over it, a reset is refused (restore a snapshot instead).
 */
export const START_SNAPSHOT_LIMIT = 10_000

// Everything a memory store holds, as `replaceAll` takes it.
async function contentsOf(store: TokenStore, now: Date): Promise<Result<StoreContents, StoreFailure>> {
  const listed = await everyToken(store, {}, now)
  if (listed.isErr()) return err(listed.error)
  const tokens = listed.value
  const resources = store.resources
  if (resources === undefined) return ok({ users: [], tokens, groups: [], projects: [] })
  const users = await resources.listUsers({})
  if (users.isErr()) return err(users.error)
  const groups = await resources.listGroups()
  if (groups.isErr()) return err(groups.error)
  const projects = await resources.listProjects()
  if (projects.isErr()) return err(projects.error)
  return ok({ users: users.value, tokens, groups: groups.value, projects: projects.value })
}

// The transaction itself failed (the database went away, a commit refused): nothing changed.
function storeProblem(failure: StoreFailure): SeedProblem {
  const cause = failure.cause instanceof Error ? failure.cause.message : String(failure.cause)
  return { path: '(root)', message: `the data could not be replaced (${failure.operation}): ${cause}` }
}

function isoOrNull(at: Date | null): string | null {
  return at === null ? null : at.toISOString()
}

// The fake holds GitLab's integer user ids only (its store is created without `userIdType`), so a
// token or user with any other id has no seed form and is left out of a snapshot.
function seedToken(token: Token, secret: string | undefined): SeedToken | null {
  if (typeof token.userId !== 'number') return null
  return {
    id: token.id,
    user_id: token.userId,
    name: token.name,
    // The fake speaks GitLab's vocabulary: its tokens carry no other scope. A fine-grained token has
    // its granular scopes instead, one entry per scope.
    ...(token.granularScopes === undefined
      ? { scopes: token.scopes.filter(isScope) }
      : { granular_scopes: granularScopesJson(token.granularScopes) }),
    ...(secret === undefined ? { token_digest: token.digest } : { token: secret }),
    description: token.description,
    created_at: token.createdAt.toISOString(),
    last_used_at: isoOrNull(token.lastUsedAt),
    ...(token.lastUsedIps === undefined ? {} : { last_used_ips: [...token.lastUsedIps] }),
    expires_at: token.expiresAt,
    revoked: token.revoked,
    impersonation: token.impersonation,
    previous_id: token.previousId,
  }
}

// The kind fields only when set, as the seed writes them: a plain user's entry stays as it was.
function seedUser(user: User): SeedUser | null {
  if (typeof user.id !== 'number') return null
  const namespace = user.botNamespace ?? null
  const provisioner = user.provisionedByGroupId ?? null
  return {
    id: user.id,
    username: user.username,
    admin: user.admin,
    blocked: user.blocked,
    ...(user.name === undefined ? {} : { name: user.name }),
    ...(user.bot === true ? { bot: true } : {}),
    ...(namespace === null ? {} : { bot_namespace: { type: namespace.type, id: namespace.id } }),
    ...(user.serviceAccount === true ? { service_account: true } : {}),
    ...(provisioner === null ? {} : { provisioned_by_group_id: provisioner }),
  }
}

// A resource's members in GitLab's field names: the seed format's, and the dashboard's.
export const seedMembers = (members: readonly Member[]) =>
  members.map((member) => ({ user_id: member.userId, access_level: member.accessLevel }))

// Typed by inference, with members' access levels as GitLab's (a valid seed's), not any number.
function seedGroup(group: Group, enforcedFrom: string | undefined) {
  const { id, path, name, visibility } = group
  return {
    id,
    path,
    name,
    parent_id: group.parentId,
    visibility,
    members: seedMembers(group.members),
    ...(group.extendedExpiryWebhooks === true ? { extended_grat_expiry_webhooks_execute: true } : {}),
    ...(enforcedFrom === undefined
      ? {}
      : { enforce_granular_tokens: true, granular_tokens_enforced_after: enforcedFrom }),
  }
}

function seedProject(project: Project) {
  const { id, path, name, visibility } = project
  return {
    id,
    path,
    name,
    group_id: project.groupId,
    visibility,
    members: seedMembers(project.members),
    ...(project.extendedExpiryWebhooks === true ? { extended_prat_expiry_webhooks_execute: true } : {}),
  }
}

// A token's predecessor comes before it, as a seed requires (a token imported with a lower id than
// the token it was rotated from would otherwise come first); apart from that, in id order.
function predecessorsFirst(tokens: readonly Token[]): Token[] {
  const byId = new Map(tokens.map((token) => [token.id, token]))
  const placed = new Set<number>()
  const ordered: Token[] = []
  for (const token of tokens) {
    const chain: Token[] = []
    const seen = new Set<number>()
    for (
      let at: Token | undefined = token;
      at !== undefined && !placed.has(at.id) && !seen.has(at.id);
      at = at.previousId === null ? undefined : byId.get(at.previousId)
    ) {
      chain.push(at)
      seen.add(at.id)
    }
    for (const member of chain.reverse()) {
      placed.add(member.id)
      ordered.push(member)
    }
  }
  return ordered
}

/**
 * Creates the {@link FakeState} of a fake authority. Every write checks the whole input against the
 * data before it changes anything, so a refused one leaves the data as it was; writes (and snapshots)
 * run one at a time.
 */
export function fakeState(options: FakeStateOptions): FakeState {
  const { authority, store, digest, freshStore } = options
  const enforcement = options.enforcement ?? new Map<number, string>()
  // Secrets the test author gave in plain text (seed, control API), by digest: a snapshot carries them
  // back. Secrets the API minted are never kept: a snapshot has their digest instead.
  const secrets = new Map<string, string>()
  const userIds = new Set<number>()
  const remember = (seed: ValidSeed, report: SeedReport) => {
    for (const group of seed.groups ?? []) {
      const day = group.granular_tokens_enforced_after ?? null
      if (group.enforce_granular_tokens === true && day !== null) enforcement.set(group.id, day)
      else enforcement.delete(group.id)
    }
    for (const user of seed.users ?? []) userIds.add(user.id)
    for (const resource of [...(seed.groups ?? []), ...(seed.projects ?? [])]) {
      for (const member of resource.members ?? []) userIds.add(member.user_id)
    }
    for (const token of seed.tokens ?? []) {
      if (token.token !== undefined) secrets.set(digest(token.token), token.token)
      userIds.add(token.user_id)
    }
    for (const { token } of report.issued) if (typeof token.userId === 'number') userIds.add(token.userId)
  }
  // One control write at a time: a restore swaps the store the next write goes to, and a write checks
  // the data before it writes it.
  let queue: Promise<unknown> = Promise.resolve()
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work)
    queue = run.catch(() => undefined)
    return run
  }

  // Into the data in place: checked whole against it, then written.
  const load = async (seed: ValidSeed): Promise<Result<SeedReport, readonly SeedProblem[]>> => {
    const plan = await checkSeed(store, digest, seed)
    if (plan.isErr()) return err(plan.error)
    const loaded = await writeSeed({ authority, store, digest }, seed, plan.value)
    if (loaded.isErr()) return err([loaded.error])
    remember(seed, loaded.value)
    return ok(loaded.value)
  }
  // The seed schema (zod) loads on the first restore or add, not at start-up: `patkit serve`'s cold
  // start (docs/benchmarks.md, target 9b).
  const validated = async (input: unknown): Promise<Result<ValidSeed, readonly SeedProblem[]>> => {
    const { validateSeed } = await import('./seed/seed-schema.js')
    const result = validateSeed(input)
    return result.success ? ok(result.seed) : err(result.problems)
  }
  // Checked whole against an empty staging store, and written into it through an authority of its own,
  // before the data is touched; the store requests are served from never points at the staging store
  // while it is written, so no request reads half-written data or writes where a reset then drops it.
  // With `freshStore` (the in-memory fake) the written staging store is swapped in whole, so ids after
  // a reset are the ids after the start again; otherwise its contents replace the data in one atomic
  // step (`replaceAll`: a SQL transaction, ids going on above every earlier one). A refused check or a
  // failed step leaves the data as it was.
  const replace = async (
    seed: ValidSeed,
    beforeWrite?: () => void,
  ): Promise<Result<SeedReport, readonly SeedProblem[]>> => {
    const inPlace = freshStore === undefined
    const next = freshStore?.() ?? memoryStore()
    const plan = await checkSeed(next, digest, seed)
    if (plan.isErr()) return err(plan.error)
    beforeWrite?.()
    const loaded = await writeSeed(
      { authority: options.authorityFor(next), store: next, digest },
      seed,
      plan.value,
    )
    if (loaded.isErr()) return err([loaded.error])
    if (inPlace) {
      const contents = await contentsOf(next, authority.now())
      const written = await contents.asyncAndThen((all) => store.replaceAll(all))
      if (written.isErr()) return err([storeProblem(written.error)])
    } else {
      store.replace(next)
    }
    return replaced(seed, loaded.value)
  }
  const replaced = (seed: ValidSeed, report: SeedReport): Result<SeedReport, readonly SeedProblem[]> => {
    secrets.clear()
    userIds.clear()
    enforcement.clear()
    remember(seed, report)
    options.onReplace?.()
    return ok(report)
  }

  // Everything the store holds, in the seed format (the known secrets in plain text).
  const takeSnapshot = async () => {
    const listed = await everyToken(store, {}, authority.now())
    if (listed.isErr()) return err(listed.error)
    const tokens: SeedToken[] = []
    for (const token of predecessorsFirst(listed.value)) {
      const seeded = seedToken(token, secrets.get(token.digest))
      if (seeded === null) continue
      tokens.push(seeded)
      userIds.add(seeded.user_id)
    }
    const resources = store.resources
    const groups: ReturnType<typeof seedGroup>[] = []
    const projects: ReturnType<typeof seedProject>[] = []
    if (resources !== undefined) {
      // Every user the API created (bots, service accounts) and every member, beside the rest.
      const everyone = await resources.listUsers({})
      if (everyone.isErr()) return err(everyone.error)
      for (const user of everyone.value) if (typeof user.id === 'number') userIds.add(user.id)
      const storedGroups = await resources.listGroups()
      if (storedGroups.isErr()) return err(storedGroups.error)
      const storedProjects = await resources.listProjects()
      if (storedProjects.isErr()) return err(storedProjects.error)
      groups.push(...storedGroups.value.map((group) => seedGroup(group, enforcement.get(group.id))))
      projects.push(...storedProjects.value.map(seedProject))
      for (const resource of [...storedGroups.value, ...storedProjects.value]) {
        for (const member of resource.members) userIds.add(member.userId)
      }
    }
    const users: SeedUser[] = []
    for (const id of [...userIds].sort((a, b) => a - b)) {
      const found = await store.findUser(id)
      if (found.isErr()) return err(found.error)
      const seeded = found.value === null ? null : seedUser(found.value)
      if (seeded !== null) users.push(seeded)
    }
    return ok({ users, tokens, groups, projects })
  }

  // The start seed as its first load resolved it (ids, created_at, expires_at the store and the clock
  // gave), so that a reset, on any later day, writes exactly the data the start wrote.
  let startData: ValidSeed | null = null
  const fromStart = async (
    loaded: Result<SeedReport, readonly SeedProblem[]>,
  ): Promise<Result<SeedReport, readonly SeedProblem[]>> => {
    if (startData === null && loaded.isOk())
      startData = await resolveSeed({ store, digest }, options.seed, loaded.value)
    return loaded
  }

  // A kept store's start: all it held once the seed was added, in memory for the resets to come
  // (within START_SNAPSHOT_LIMIT tokens; over it, `tooLarge` says how many there were).
  let tooLarge: number | null = null
  const keptStart = async (
    loaded: Result<SeedReport, readonly SeedProblem[]>,
  ): Promise<Result<SeedReport, readonly SeedProblem[]>> => {
    if (loaded.isErr()) return loaded
    const counted = await store.list({
      filter: {},
      sort: 'id_asc',
      page: { page: 1, perPage: 1 },
      now: authority.now(),
    })
    if (counted.isErr()) return err([storeProblem(counted.error)])
    if (counted.value.total > START_SNAPSHOT_LIMIT) {
      tooLarge = counted.value.total
      return loaded
    }
    const snapshot = await takeSnapshot()
    if (snapshot.isErr()) return err([storeProblem(snapshot.error)])
    const { users, tokens, groups, projects } = snapshot.value
    startData = { users: [...users], tokens: [...tokens], groups: [...groups], projects: [...projects] }
    return loaded
  }
  const resetRefusal = (): string | null => {
    if (tooLarge === null) return null
    return `reset goes back to the data the start held, and the start held ${tooLarge} tokens, more than the ${START_SNAPSHOT_LIMIT} a reset keeps in memory: save a snapshot (GET /__patkit/state) and restore it (PUT /__patkit/state) instead`
  }

  return {
    resetRefusal,
    reset: () =>
      exclusive(async () => {
        const refusal = resetRefusal()
        if (refusal !== null) return err([{ path: '(root)', message: refusal }])
        return fromStart(await replace(startData ?? options.seed, options.onReset))
      }),
    start: () =>
      exclusive(async () => {
        const loaded = await load(options.seed)
        return options.keptData === true ? keptStart(loaded) : fromStart(loaded)
      }),
    restore: (input) =>
      exclusive(async () => {
        const seed = await validated(input)
        return seed.isErr() ? err(seed.error) : replace(seed.value)
      }),
    add: (input) =>
      exclusive(async () => {
        const seed = await validated(input)
        return seed.isErr() ? err(seed.error) : load(seed.value)
      }),
    snapshot: () => exclusive((): Promise<Result<StateSnapshot, StoreFailure>> => takeSnapshot()),
  }
}
