import { err, ok, type Result } from 'neverthrow'
import { storeFailure } from '../domain/error-constructors.js'
import type { StoreFailure } from '../domain/errors.js'
import type { Group, Member, Project, ResourceRef } from '../domain/resource.js'
import type { UserId } from '../domain/user-id.js'
import type { UserDraft, UserFilter } from '../store/resource-store.js'
import type { User } from '../store/user.js'
import type { userTable } from './user-table.js'

type Users = ReturnType<typeof userTable>
type Resource = Group | Project

/** The memory store's projects and groups, each by id and by lower-cased full path. */
interface ResourceTable {
  findGroup(ref: number | string): Group | null
  findProject(ref: number | string): Project | null
  putGroup(group: Group): Result<Group, StoreFailure>
  putProject(project: Project): Result<Project, StoreFailure>
  listGroups(): readonly Group[]
  listProjects(): readonly Project[]
  setMember(resource: ResourceRef, member: Member): Result<void, StoreFailure>
  removeMember(resource: ResourceRef, userId: number): void
  createUser(draft: UserDraft): Result<User, StoreFailure>
  listUsers(filter: UserFilter): readonly User[]
  /** The ids of the resource's bot members, for a `filter.resource` list. */
  botIdsOf(resource: ResourceRef): UserId[]
}

const DIGITS = /^\d+$/

// `extendedExpiryWebhooks` is kept only when true: a SQL column cannot tell false from absent, and
// every store returns the flag the same way.
function frozen<T extends Resource>(resource: T): T {
  const { extendedExpiryWebhooks, ...rest } = resource
  const copy = {
    ...rest,
    members: Object.freeze(resource.members.map((member) => Object.freeze({ ...member }))),
    ...(extendedExpiryWebhooks === true ? { extendedExpiryWebhooks: true } : {}),
  } as T
  return Object.freeze(copy)
}

function byIdAndPath<T extends Resource>(kind: 'group' | 'project') {
  const byId = new Map<number, T>()
  const idByPath = new Map<string, number>()
  return {
    find(ref: number | string): T | null {
      if (typeof ref === 'number' || DIGITS.test(ref)) return byId.get(Number(ref)) ?? null
      const id = idByPath.get(ref.toLowerCase())
      return id === undefined ? null : (byId.get(id) ?? null)
    },
    put(resource: T, operation: string): Result<T, StoreFailure> {
      const key = resource.fullPath.toLowerCase()
      const holder = idByPath.get(key)
      if (holder !== undefined && holder !== resource.id) {
        return err(
          storeFailure(
            operation,
            new Error(`${kind} path "${resource.fullPath}" already belongs to ${kind} ${holder}`),
          ),
        )
      }
      const previous = byId.get(resource.id)
      if (previous !== undefined) idByPath.delete(previous.fullPath.toLowerCase())
      const stored = frozen(resource)
      byId.set(stored.id, stored)
      idByPath.set(key, stored.id)
      return ok(stored)
    },
    replace(resource: T): void {
      byId.set(resource.id, frozen(resource))
    },
    get: (id: number) => byId.get(id),
    all: () => [...byId.values()].sort((a, b) => a.id - b.id),
  }
}

function withMember<T extends Resource>(
  table: ReturnType<typeof byIdAndPath<T>>,
  resource: ResourceRef,
  member: Member,
): Result<void, StoreFailure> {
  const found = table.get(resource.id)
  if (found === undefined) {
    return err(storeFailure('setMember', new Error(`${resource.type} ${resource.id} does not exist`)))
  }
  const others = found.members.filter((existing) => existing.userId !== member.userId)
  table.replace({ ...found, members: [...others, member] })
  return ok(undefined)
}

function withoutMember<T extends Resource>(
  table: ReturnType<typeof byIdAndPath<T>>,
  resource: ResourceRef,
  userId: number,
): void {
  const found = table.get(resource.id)
  if (found === undefined) return
  const others = found.members.filter((existing) => existing.userId !== userId)
  if (others.length !== found.members.length) table.replace({ ...found, members: others })
}

function matchesUser(user: User, filter: UserFilter): boolean {
  if (filter.serviceAccount !== undefined && (user.serviceAccount ?? false) !== filter.serviceAccount)
    return false
  if (filter.bot !== undefined && (user.bot ?? false) !== filter.bot) return false
  if (
    filter.provisionedByGroupId !== undefined &&
    (user.provisionedByGroupId ?? null) !== filter.provisionedByGroupId
  ) {
    return false
  }
  return true
}

/** An empty {@link ResourceTable} over the store's users (bots and service accounts are users). */
export function resourceTable(users: Users): ResourceTable {
  const groups = byIdAndPath<Group>('group')
  const projects = byIdAndPath<Project>('project')
  const tableOf = (type: ResourceRef['type']) => (type === 'group' ? groups : projects)
  return {
    findGroup: (ref) => groups.find(ref),
    findProject: (ref) => projects.find(ref),
    putGroup: (group) => groups.put(group, 'putGroup'),
    putProject: (project) => projects.put(project, 'putProject'),
    listGroups: () => groups.all(),
    listProjects: () => projects.all(),
    setMember: (resource, member) =>
      resource.type === 'group'
        ? withMember(groups, resource, member)
        : withMember(projects, resource, member),
    removeMember: (resource, userId) =>
      resource.type === 'group'
        ? withoutMember(groups, resource, userId)
        : withoutMember(projects, resource, userId),
    createUser(draft) {
      return users.put({ ...draft, id: users.nextIntegerId() })
    },
    listUsers(filter) {
      const found: User[] = []
      for (const user of users.all()) if (matchesUser(user, filter)) found.push(user)
      return found.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    },
    botIdsOf(resource) {
      const found = tableOf(resource.type).get(resource.id)
      if (found === undefined) return []
      const ids: UserId[] = []
      for (const member of found.members)
        if (users.findById(member.userId)?.bot === true) ids.push(member.userId)
      return ids
    },
  }
}
