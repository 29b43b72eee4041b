import { err, ok, type Result } from 'neverthrow'
import type { StoreFailure } from '../../domain/errors.js'
import {
  type AccessLevel,
  directAccess,
  effectiveAccess,
  type Group,
  type Project,
} from '../../domain/resource.js'
import type { PageRequest } from '../../query/filter.js'
import { type Pagination, paginate } from '../../query/pagination.js'
import type { AuthorityDeps } from '../core/deps.js'
import type { Principal } from '../core/principal.js'
import { viewerOf } from '../core/resource-access.js'

/**
 * A group a token's user reaches (GitLab's `GroupAssociationDetails`): the group, the groups above it
 * (its parent first), and the user's highest membership in it or above (`null`: none).
 *
 * @example
 * ```ts
 * import type { GroupAssociation } from 'patkit/authority'
 * declare const g: GroupAssociation
 * g.access // 50 for an Owner
 * ```
 */
export interface GroupAssociation {
  readonly group: Group
  readonly ancestors: readonly Group[]
  readonly access: AccessLevel | null
}

/**
 * A project a token's user reaches (GitLab's `ProjectAssociationDetails`): the project, the groups above
 * it, the user's direct membership (`projectAccess`) and highest membership in its group or above
 * (`groupAccess`; `null` for none, or for a project without a group).
 *
 * @example
 * ```ts
 * import type { ProjectAssociation } from 'patkit/authority'
 * declare const p: ProjectAssociation
 * p.projectAccess // 40 for a Maintainer
 * ```
 */
export interface ProjectAssociation {
  readonly project: Project
  readonly ancestors: readonly Group[]
  readonly projectAccess: AccessLevel | null
  readonly groupAccess: AccessLevel | null
}

/**
 * `GET /personal_access_tokens/self/associations`: one page of each list, newest (highest id) first,
 * each paginated on its own with the same page.
 *
 * @example
 * ```ts
 * import type { TokenAssociations } from 'patkit/authority'
 * declare const a: TokenAssociations
 * a.projectsPage.total
 * ```
 */
export interface TokenAssociations {
  readonly groups: readonly GroupAssociation[]
  readonly projects: readonly ProjectAssociation[]
  readonly groupsPage: Pagination
  readonly projectsPage: Pagination
}

function ancestorsOf(byId: ReadonlyMap<number, Group>, parentId: number | null): Group[] {
  const found: Group[] = []
  // GitLab's nesting limit is 20; a cycle in seeded parents must not loop forever.
  for (let id = parentId; id !== null && found.length < 21; ) {
    const group = byId.get(id)
    if (group === undefined) break
    found.push(group)
    id = group.parentId
  }
  return found
}

function page<T>(items: readonly T[], request: PageRequest): { items: T[]; pagination: Pagination } {
  const pagination = paginate(items.length, request)
  return { items: items.slice(pagination.offset, pagination.offset + request.perPage), pagination }
}

const newestFirst = (a: { id: number }, b: { id: number }) => b.id - a.id

/**
 * The groups and projects a token's user reaches, as GitLab's GroupsFinder and ProjectsFinder find them
 * (lib/api/personal_access_tokens/self_information.rb; shared/reference/gitlab-19-entities.md §4):
 * - without `minAccessLevel`: every group and project the user may see (public ones, internal ones, the
 *   ones they are a member of, directly or through a group above), plus the groups above the groups
 *   they are a member of (`authorized_groups.self_and_ancestors`); everything for an administrator;
 * - with it: groups where the user's direct membership is at least that level, and the groups below
 *   them; projects where their membership (direct or through a group above) is at least that level.
 * Both lists are ordered by id, highest first (`order_id_desc`), and paginated with the same page.
 */
export async function tokenAssociations(
  deps: AuthorityDeps,
  principal: Principal,
  request: { readonly minAccessLevel?: number; readonly page: PageRequest },
): Promise<Result<TokenAssociations, StoreFailure>> {
  const resources = deps.store.resources
  let allGroups: readonly Group[] = []
  let allProjects: readonly Project[] = []
  if (resources !== undefined) {
    const groups = await resources.listGroups()
    if (groups.isErr()) return err(groups.error)
    const projects = await resources.listProjects()
    if (projects.isErr()) return err(projects.error)
    allGroups = groups.value
    allProjects = projects.value
  }
  const viewer = viewerOf(principal)
  const uid = typeof viewer.id === 'number' ? viewer.id : Number.NaN
  const byId = new Map(allGroups.map((g) => [g.id, g]))
  const chainOf = (g: Group) => [g, ...ancestorsOf(byId, g.parentId)]
  const { minAccessLevel } = request

  let groups: Group[]
  if (minAccessLevel !== undefined) {
    const roots = allGroups.filter((g) => (directAccess(g, uid) ?? 0) >= minAccessLevel)
    const rootIds = new Set(roots.map((g) => g.id))
    groups = allGroups.filter((g) => chainOf(g).some((c) => rootIds.has(c.id)))
  } else if (viewer.admin) {
    groups = [...allGroups]
  } else {
    const reached = new Set<number>()
    for (const g of allGroups) {
      const chain = chainOf(g)
      if (g.visibility !== 'private' || effectiveAccess(chain, uid) !== null) reached.add(g.id)
      if (directAccess(g, uid) !== null) for (const a of chain) reached.add(a.id)
    }
    groups = allGroups.filter((g) => reached.has(g.id))
  }

  const projectView = (p: Project): ProjectAssociation => {
    const ancestors = ancestorsOf(byId, p.groupId)
    return {
      project: p,
      ancestors,
      projectAccess: directAccess(p, uid),
      groupAccess: p.groupId === null ? null : effectiveAccess(ancestors, uid),
    }
  }
  const seen = allProjects.map(projectView).filter((v) => {
    const access = effectiveAccess([v.project, ...v.ancestors], uid)
    if (minAccessLevel !== undefined) return (access ?? 0) >= minAccessLevel
    return viewer.admin || v.project.visibility !== 'private' || access !== null
  })

  const groupPage = page(
    groups.sort(newestFirst).map((g) => {
      const chain = chainOf(g)
      return { group: g, ancestors: chain.slice(1), access: effectiveAccess(chain, uid) }
    }),
    request.page,
  )
  const projectPage = page(
    seen.sort((a, b) => newestFirst(a.project, b.project)),
    request.page,
  )
  return ok({
    groups: groupPage.items,
    projects: projectPage.items,
    groupsPage: groupPage.pagination,
    projectsPage: projectPage.pagination,
  })
}
