import type { ResultAsync } from 'neverthrow'
import type { StoreFailure } from '../../domain/errors.js'
import { fullPathOf, type Group, type Member, type Project, type Visibility } from '../../domain/resource.js'
import type { TokenStore } from '../../store/token-store.js'

import type { SeedProblem, ValidSeed } from './seed-schema.js'

/** What a seed's groups and projects come to: each to put, groups parents first, with its full path. */
export interface ResourcePlan {
  readonly groups: readonly Group[]
  readonly projects: readonly Project[]
}

export const EMPTY_RESOURCE_PLAN: ResourcePlan = { groups: [], projects: [] }

/** Reads one thing from the store; a failure is recorded as a problem and yields `undefined`. */
export type ReadOnce = <T>(path: string, result: ResultAsync<T, StoreFailure>) => Promise<T | undefined>

type SeedGroup = NonNullable<ValidSeed['groups']>[number]
type SeedProject = NonNullable<ValidSeed['projects']>[number]
type SeedMember = NonNullable<SeedGroup['members']>[number]

// A group or project as the seed would leave it: the stored one, or the seed's entry (`at`, its index).
interface Node {
  readonly id: number
  readonly path: string
  readonly name: string
  readonly up: number | null
  readonly visibility: Visibility
  readonly members: readonly Member[]
  /** `extended_*_expiry_webhooks_execute`: `extendedExpiryWebhooks`. */
  readonly extendedExpiryWebhooks?: boolean
  readonly at: number | undefined
  readonly stored: Group | Project | undefined
}

const members = (given: readonly SeedMember[] | undefined): Member[] =>
  (given ?? []).map((m) => ({ userId: m.user_id, accessLevel: m.access_level }))

function extendedOf(entry: SeedGroup | SeedProject): { extendedExpiryWebhooks?: boolean } {
  const given =
    'extended_grat_expiry_webhooks_execute' in entry
      ? entry.extended_grat_expiry_webhooks_execute
      : 'extended_prat_expiry_webhooks_execute' in entry
        ? entry.extended_prat_expiry_webhooks_execute
        : undefined
  return given === true ? { extendedExpiryWebhooks: true } : {}
}

function fromSeed(entry: SeedGroup | SeedProject, up: number | null | undefined, at: number): Node {
  return {
    id: entry.id,
    path: entry.path,
    name: entry.name,
    up: up ?? null,
    // GitLab's default for a new group or project.
    visibility: entry.visibility ?? 'private',
    members: members(entry.members),
    ...extendedOf(entry),
    at,
    stored: undefined,
  }
}

function merged<T extends Group | Project>(
  stored: readonly T[],
  up: (resource: T) => number | null,
  seed: readonly Node[],
): Map<number, Node> {
  const nodes = new Map<number, Node>()
  for (const resource of stored) {
    nodes.set(resource.id, { ...resource, up: up(resource), at: undefined, stored: resource })
  }
  for (const node of seed) nodes.set(node.id, { ...node, stored: nodes.get(node.id)?.stored })
  return nodes
}

// Each group's full path up its parents; a seed group whose parent is unknown or which sits on a
// cycle gets none, and a problem at its `parent_id`.
function groupPaths(groups: Map<number, Node>, problems: SeedProblem[]): Map<number, string> {
  const paths = new Map<number, string>()
  const failed = new Set<number>()
  const resolve = (id: number, trail: number[]): string | undefined => {
    const known = paths.get(id)
    if (known !== undefined || failed.has(id)) return known
    const node = groups.get(id)
    if (node === undefined) return undefined
    if (trail.includes(id)) {
      const cycle = [...trail.slice(trail.indexOf(id)), id].join(' → ')
      for (const member of trail.slice(trail.indexOf(id))) {
        const at = groups.get(member)?.at
        if (at !== undefined && !failed.has(member)) {
          problems.push({ path: `groups[${at}].parent_id`, message: `Groups would form a cycle: ${cycle}` })
        }
        failed.add(member)
      }
      return undefined
    }
    let parentPath: string | null = null
    if (node.up !== null) {
      if (!groups.has(node.up)) {
        if (node.at !== undefined) {
          problems.push({ path: `groups[${node.at}].parent_id`, message: `No group with id ${node.up}` })
        }
        failed.add(id)
        return undefined
      }
      const above = resolve(node.up, [...trail, id])
      if (above === undefined) {
        failed.add(id)
        return undefined
      }
      parentPath = above
    }
    const path = fullPathOf(parentPath, node.path)
    paths.set(id, path)
    return path
  }
  for (const id of groups.keys()) resolve(id, [])
  return paths
}

// Two of one kind with one full path (in any case): a problem at the seed's entry that takes it.
function takenPaths(
  kind: 'groups' | 'projects',
  nodes: Map<number, Node>,
  paths: Map<number, string>,
  problems: SeedProblem[],
) {
  const holder = new Map<string, Node>()
  const noun = kind === 'groups' ? 'group' : 'project'
  const ordered = [...nodes.values()].sort((a, b) => (a.at ?? -1) - (b.at ?? -1) || a.id - b.id)
  for (const node of ordered) {
    const path = paths.get(node.id)
    if (path === undefined) continue
    const other = holder.get(path.toLowerCase())
    if (other === undefined) holder.set(path.toLowerCase(), node)
    else {
      problems.push({
        path: node.at === undefined ? kind : `${kind}[${node.at}].path`,
        message: `The full path "${path}" belongs to ${noun} ${other.id} (full paths ignore case)`,
      })
    }
  }
}

// The writes go one at a time and a store refuses a full path another resource still holds: a put may
// take a path only once the stored resource holding it was written elsewhere (earlier in the order).
// Two resources trading paths have no such order; refused here, so that no write fails halfway.
function blockedPuts(
  kind: 'groups' | 'projects',
  planned: readonly (Group | Project)[],
  stored: readonly (Group | Project)[],
  seedIndex: (id: number) => number,
  problems: SeedProblem[],
) {
  const noun = kind === 'groups' ? 'group' : 'project'
  const holder = new Map(stored.map((resource) => [resource.fullPath.toLowerCase(), resource.id]))
  const position = new Map(planned.map((resource, index) => [resource.id, index]))
  planned.forEach((resource, index) => {
    const held = holder.get(resource.fullPath.toLowerCase())
    if (held === undefined || held === resource.id) return
    const moves = position.get(held)
    if (moves === undefined || moves < index) return
    const at = seedIndex(resource.id)
    problems.push({
      path: at === -1 ? kind : `${kind}[${at}].path`,
      message: `The full path "${resource.fullPath}" is still ${noun} ${held}'s, which this write moves later: give ${noun} ${held} its new path in an earlier write`,
    })
  })
}

/**
 * The longest full path a group or project may have: the SQL store's `full_path varchar(512)` (schema
 * 0007). Checked here for every store, so that memory refuses what SQL cannot hold, before any write.
 */
export const FULL_PATH_MAX_LENGTH = 512

// A full path the write would set (a seed's entry, or a stored resource under a renamed group) that
// no store of the SQL schema can hold: a problem at the seed's entry, or at the group that lengthens it.
function overlongPaths(
  kind: 'groups' | 'projects',
  nodes: Map<number, Node>,
  paths: Map<number, string>,
  groups: Map<number, Node>,
  problems: SeedProblem[],
) {
  for (const node of nodes.values()) {
    const path = paths.get(node.id)
    if (path === undefined || path.length <= FULL_PATH_MAX_LENGTH || !changed(node, path)) continue
    const message = `The full path "${path.slice(0, 40)}…" is ${path.length} characters: at most ${FULL_PATH_MAX_LENGTH}`
    if (node.at !== undefined) {
      problems.push({ path: `${kind}[${node.at}].path`, message })
      continue
    }
    // A stored resource whose full path a seed's group above it changes.
    let above = groups.get(node.up ?? -1)
    while (above !== undefined && above.at === undefined) above = groups.get(above.up ?? -1)
    problems.push({ path: above === undefined ? kind : `groups[${above.at}].path`, message })
  }
}

function changed(node: Node, fullPath: string): boolean {
  return node.at !== undefined || node.stored?.fullPath !== fullPath
}

function depth(groups: Map<number, Node>, id: number): number {
  let n = 0
  for (let at = groups.get(id)?.up ?? null; at !== null; at = groups.get(at)?.up ?? null) n++
  return n
}

/**
 * Checks a seed's groups, projects and members against the stored ones (the seed's entries replace
 * the stored ones with their ids): every `parent_id` and `group_id` names a group, groups form no
 * cycle, no two groups (or two projects) share a full path, no full path is longer than
 * {@link FULL_PATH_MAX_LENGTH}, every member names a user (`knownUser`),
 * and every `bot_namespace` and `provisioned_by_group_id` names a resource (the latter a top-level
 * group). Returns what to put: the seed's resources, and stored ones whose full path a renamed or
 * moved group changes, each with its full path, groups parents first.
 */
export async function checkResources(
  store: TokenStore,
  seed: ValidSeed,
  read: ReadOnce,
  knownUser: (path: string, id: number) => Promise<boolean>,
  problems: SeedProblem[],
): Promise<ResourcePlan> {
  const seedGroups = seed.groups ?? []
  const seedProjects = seed.projects ?? []
  const users = seed.users ?? []
  const referencing = users.some(
    (u) => (u.bot_namespace ?? null) !== null || (u.provisioned_by_group_id ?? null) !== null,
  )
  if (seedGroups.length === 0 && seedProjects.length === 0 && !referencing) return EMPTY_RESOURCE_PLAN
  const resources = store.resources
  if (resources === undefined) {
    const path = seedGroups.length > 0 ? 'groups' : seedProjects.length > 0 ? 'projects' : 'users'
    problems.push({ path, message: 'This store holds no projects or groups (it has no store.resources)' })
    return EMPTY_RESOURCE_PLAN
  }
  const storedGroups = (await read('groups', resources.listGroups())) ?? []
  const storedProjects = (await read('projects', resources.listProjects())) ?? []
  const groups = merged(
    storedGroups,
    (g) => g.parentId,
    seedGroups.map((g, i) => fromSeed(g, g.parent_id, i)),
  )
  const projects = merged(
    storedProjects,
    (p) => p.groupId,
    seedProjects.map((p, i) => fromSeed(p, p.group_id, i)),
  )
  const groupPath = groupPaths(groups, problems)
  const projectPath = new Map<number, string>()
  for (const project of projects.values()) {
    if (project.up === null) projectPath.set(project.id, project.path)
    else if (!groups.has(project.up)) {
      if (project.at !== undefined) {
        problems.push({ path: `projects[${project.at}].group_id`, message: `No group with id ${project.up}` })
      }
    } else {
      const above = groupPath.get(project.up)
      if (above !== undefined) projectPath.set(project.id, fullPathOf(above, project.path))
    }
  }
  takenPaths('groups', groups, groupPath, problems)
  takenPaths('projects', projects, projectPath, problems)
  overlongPaths('groups', groups, groupPath, groups, problems)
  overlongPaths('projects', projects, projectPath, groups, problems)
  for (const [kind, entries] of [
    ['groups', seedGroups],
    ['projects', seedProjects],
  ] as const) {
    for (const [index, entry] of entries.entries()) {
      for (const [at, member] of (entry.members ?? []).entries()) {
        const path = `${kind}[${index}].members[${at}].user_id`
        if (!(await knownUser(path, member.user_id))) {
          problems.push({ path, message: `No user with id ${member.user_id}` })
        }
      }
    }
  }
  for (const [index, user] of users.entries()) {
    const namespace = user.bot_namespace ?? null
    if (namespace !== null && !(namespace.type === 'group' ? groups : projects).has(namespace.id)) {
      problems.push({
        path: `users[${index}].bot_namespace`,
        message: `No ${namespace.type} with id ${namespace.id}`,
      })
    }
    const provisioner = user.provisioned_by_group_id ?? null
    if (provisioner === null) continue
    const group = groups.get(provisioner)
    if (group === undefined) {
      problems.push({
        path: `users[${index}].provisioned_by_group_id`,
        message: `No group with id ${provisioner}`,
      })
    } else if (group.up !== null) {
      problems.push({
        path: `users[${index}].provisioned_by_group_id`,
        message: `Group ${provisioner} is a subgroup: service accounts are provisioned by top-level groups`,
      })
    }
  }
  const toGroup = (node: Node, fullPath: string): Group => ({
    id: node.id,
    path: node.path,
    fullPath,
    name: node.name,
    parentId: node.up,
    visibility: node.visibility,
    members: node.members,
    ...(node.extendedExpiryWebhooks === true ? { extendedExpiryWebhooks: true } : {}),
  })
  const putGroups = [...groups.values()]
    .flatMap((node) => {
      const fullPath = groupPath.get(node.id)
      return fullPath !== undefined && changed(node, fullPath) ? [toGroup(node, fullPath)] : []
    })
    .sort((a, b) => depth(groups, a.id) - depth(groups, b.id) || a.id - b.id)
  const putProjects = [...projects.values()].flatMap((node): Project[] => {
    const fullPath = projectPath.get(node.id)
    if (fullPath === undefined || !changed(node, fullPath)) return []
    const { parentId, ...rest } = toGroup(node, fullPath)
    return [{ ...rest, groupId: parentId }]
  })
  putProjects.sort((a, b) => a.id - b.id)
  blockedPuts('groups', putGroups, storedGroups, (id) => seedGroups.findIndex((g) => g.id === id), problems)
  blockedPuts(
    'projects',
    putProjects,
    storedProjects,
    (id) => seedProjects.findIndex((p) => p.id === id),
    problems,
  )
  return { groups: putGroups, projects: putProjects }
}
