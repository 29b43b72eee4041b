import { err, ok, type Result, type ResultAsync } from 'neverthrow'
import { predecessorProblem, secondSuccessorProblem } from '../../authority/personal/issue-token.js'
import type { StoreFailure } from '../../domain/errors.js'
import type { Digester } from '../../domain/secret.js'
import type { TokenStore } from '../../store/token-store.js'
import { botTokenProblems } from './seed-bots.js'
import { seedFamilyProblems } from './seed-families.js'
import { granularReferenceProblems } from './seed-granular.js'
import { checkResources, type ReadOnce, type ResourcePlan } from './seed-resources.js'
import type { SeedProblem, ValidSeed } from './seed-schema.js'

/**
 * What {@link checkSeed} found a seed to need: the indices (in its `tokens`) of the tokens whose
 * secret is stored already under their id, which loading leaves as they are.
 */
export interface SeedPlan {
  readonly stored: ReadonlySet<number>
  /** The groups and projects to put (parents first), each with its full path. */
  readonly resources: ResourcePlan
}

/**
 * At least one problem: what {@link checkSeed} refuses a seed with.
 */
type SeedProblems = readonly [SeedProblem, ...SeedProblem[]]

type ValidSeedToken = NonNullable<ValidSeed['tokens']>[number]

/**
 * The digest a seed token is stored under: its secret's, or the one it gives.
 */
export function seedDigest(digest: Digester, token: ValidSeedToken): string {
  return token.token_digest ?? digest(token.token ?? '')
}

const UNREAD = Symbol('unread')

function describe(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause)
}

function nonEmpty(problems: readonly SeedProblem[]): SeedProblems | null {
  const [first, ...rest] = problems
  return first === undefined ? null : [first, ...rest]
}

/**
 * Everything loading `seed` into `store` would refuse, found by reading the store only, so that a
 * loader refuses a bad seed before its first write (a control write is all or nothing, and a store
 * never receives a forked family): the family rules among the seed's tokens (`seedFamilyProblems`),
 * usernames held by other stored users (as the users would be put, in order), secrets stored under
 * another id, ids taken, unknown owners, and a `previous_id` naming a stored token that is unknown,
 * still active, another user's, or rotated already; groups and projects (`checkResources`: unknown
 * groups and users, cycles, full paths taken), bots' tokens (scopes GitLab never gives a bot), and the
 * projects and groups granular scopes name (in the seed or stored).
 * Every problem is listed, each naming its field.
 */
export async function checkSeed(
  store: TokenStore,
  digest: Digester,
  seed: ValidSeed,
): Promise<Result<SeedPlan, SeedProblems>> {
  const tokens = seed.tokens ?? []
  // The seed alone first: a forked family is refused before the store is asked anything.
  const families = nonEmpty(
    seedFamilyProblems(tokens).map(({ index, message }) => ({
      path: `tokens[${index}].previous_id`,
      message,
    })),
  )
  if (families !== null) return err(families)
  const problems: SeedProblem[] = []
  const read = async <T>(path: string, result: ResultAsync<T, StoreFailure>): Promise<T | typeof UNREAD> => {
    const outcome = await result
    if (outcome.isOk()) return outcome.value
    problems.push({ path, message: `Could not be read: ${describe(outcome.error.cause)}` })
    return UNREAD
  }
  await checkUsers(store, seed, read, problems)
  const stored = await checkTokens(store, digest, seed, read, problems)
  const readOnce: ReadOnce = async (path, result) => {
    const value = await read(path, result)
    return value === UNREAD ? undefined : value
  }
  // Who a user id will be once the seed is written: the seed's entry, else the stored user.
  const seedUsers = new Map((seed.users ?? []).map((user) => [user.id, user.bot === true]))
  const storedBot = new Map<number, boolean | null>()
  const botOf = async (path: string, id: number): Promise<boolean | null> => {
    const given = seedUsers.get(id)
    if (given !== undefined) return given
    if (!storedBot.has(id)) {
      const found = await readOnce(path, store.findUser(id))
      storedBot.set(id, found === undefined || found === null ? null : found.bot === true)
    }
    return storedBot.get(id) ?? null
  }
  const resources = await checkResources(
    store,
    seed,
    readOnce,
    async (path, id) => (await botOf(path, id)) !== null,
    problems,
  )
  problems.push(...(await botTokenProblems(seed, async (path, id) => (await botOf(path, id)) === true)))
  const seedIds = {
    group: new Set((seed.groups ?? []).map((g) => g.id)),
    project: new Set((seed.projects ?? []).map((p) => p.id)),
  }
  const exists = async (type: 'project' | 'group', id: number): Promise<boolean> => {
    if (seedIds[type].has(id)) return true
    const resources = store.resources
    if (resources === undefined) return false
    const path = `${type}s`
    const found =
      type === 'group'
        ? await readOnce(path, resources.findGroup(id))
        : await readOnce(path, resources.findProject(id))
    // A store that could not be read was reported already: no second problem for the same id.
    return found === undefined || found !== null
  }
  problems.push(...(await granularReferenceProblems(tokens, exists)))
  const refused = nonEmpty(problems)
  return refused === null ? ok({ stored, resources }) : err(refused)
}

type Read = <T>(path: string, result: ResultAsync<T, StoreFailure>) => Promise<T | typeof UNREAD>

// Users are put in order, and a username belongs to one user (case aside): a seed user may take a
// stored user's username only once an earlier entry of the seed gave that user another one.
async function checkUsers(store: TokenStore, seed: ValidSeed, read: Read, problems: SeedProblem[]) {
  const claimed = new Map<string, number>()
  const renamed = new Set<number>()
  for (const [index, user] of (seed.users ?? []).entries()) {
    const name = user.username.toLowerCase()
    let holder = claimed.get(name)
    if (holder === undefined) {
      const found = await read(`users[${index}]`, store.findUser(user.username))
      if (found === UNREAD) continue
      if (
        found !== null &&
        typeof found.id === 'number' &&
        !renamed.has(found.id) &&
        found.username.toLowerCase() === name
      ) {
        holder = found.id
      }
    }
    if (holder !== undefined && holder !== user.id) {
      problems.push({
        path: `users[${index}].username`,
        message: `username ${JSON.stringify(user.username)} already belongs to user ${holder}`,
      })
    }
    renamed.add(user.id)
    claimed.set(name, user.id)
  }
}

async function checkTokens(
  store: TokenStore,
  digest: Digester,
  seed: ValidSeed,
  read: Read,
  problems: SeedProblem[],
): Promise<Set<number>> {
  const tokens = seed.tokens ?? []
  const seedUsers = new Set((seed.users ?? []).map((user) => user.id))
  const indexById = new Map<number, number>()
  tokens.forEach((token, index) => {
    if (token.id !== undefined && !indexById.has(token.id)) indexById.set(token.id, index)
  })
  const stored = new Set<number>()
  for (const [index, token] of tokens.entries()) {
    const path = `tokens[${index}]`
    // A persistent store keeps what an earlier run seeded: a secret already stored is left as it is,
    // so restarting `patkit serve --database ... --seed ...` is harmless.
    const tokenDigest = seedDigest(digest, token)
    const existing = await read(path, store.findByDigest(tokenDigest))
    if (existing === UNREAD) continue
    if (existing !== null) {
      if (token.id === undefined || token.id === existing.id) stored.add(index)
      else
        problems.push({
          path: `${path}.id`,
          message: `This secret is already stored as token ${existing.id}`,
        })
      continue
    }
    if (token.id !== undefined) {
      const taken = await read(path, store.findById(token.id))
      if (taken !== UNREAD && taken !== null) {
        // Stored since the look above, by another process loading the same seed: nothing to do.
        if (taken.digest === tokenDigest) {
          stored.add(index)
          continue
        }
        problems.push({ path: `${path}.id`, message: `Token id ${token.id} is taken by another token` })
      }
    }
    if (!seedUsers.has(token.user_id)) {
      const owner = await read(path, store.findUser(token.user_id))
      if (owner === null)
        problems.push({ path: `${path}.user_id`, message: `No user with id ${token.user_id}` })
    }
    const previous = token.previous_id
    if (previous === undefined || previous === null) continue
    const at = indexById.get(previous)
    // A predecessor the seed writes was checked with the seed; any other one must be stored.
    if (at !== undefined && !stored.has(at)) continue
    const problem = await storedPredecessorProblem(store, read, `${path}.previous_id`, {
      previous,
      userId: token.user_id,
      digest: tokenDigest,
    })
    if (problem !== null) problems.push({ path: `${path}.previous_id`, message: problem })
  }
  return stored
}

// The seed family rules, for a predecessor that is stored: it exists, is the same user's, is revoked,
// and has no successor yet.
async function storedPredecessorProblem(
  store: TokenStore,
  read: Read,
  path: string,
  token: { readonly previous: number; readonly userId: number; readonly digest: string },
): Promise<string | null> {
  const { previous } = token
  const predecessor = await read(path, store.findById(previous))
  if (predecessor === UNREAD) return null
  if (predecessor === null) {
    return `No token with id ${previous} (a token must come after the token it was rotated from)`
  }
  const problem = predecessorProblem(predecessor, token.userId)
  if (problem !== null) return problem
  const successor = await read(path, store.findSuccessor(previous))
  // The token itself, stored meanwhile by another process loading the same seed, is no second successor.
  if (successor === UNREAD || successor === null || successor.digest === token.digest) return null
  return secondSuccessorProblem(previous, `token ${successor.id}`)
}
