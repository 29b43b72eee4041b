import type { Group, Project } from '../../domain/resource.js'
import { listParamsParser, parsePage } from '../../http/list-params.js'
import { pageOffset } from '../../query/pagination.js'
import type { TokenStore } from '../../store/token-store.js'
import { groupRow, projectRow, userRow } from './dashboard-json.js'
import { messageReply, pageReply, parameterRefusal } from './dashboard-reply.js'

/** What `GET /__patkit/users`, `/groups` and `/projects` list. */
export type ResourceList = 'users' | 'groups' | 'projects'

const FAILED = () => messageReply(500, '500 Internal Server Error')

// The resource's members that are bot users (the users a `resource_type` token list covers).
const botsOf = (resource: Group | Project, bots: ReadonlySet<unknown>) =>
  resource.members.filter((member) => bots.has(member.userId)).map((member) => member.userId)

/**
 * `GET /__patkit/users`, `/groups`, `/projects`: every one, in id order, paged with GitLab's `page`
 * and `per_page` (and its headers). A store without `resources` has no groups or projects, and lists
 * no users (it cannot enumerate them).
 */
export async function listResources(store: TokenStore, kind: ResourceList, url: URL): Promise<Response> {
  const page = parsePage(url.searchParams, await listParamsParser())
  if (page.isErr()) return parameterRefusal(page.error)
  const paged = (rows: readonly unknown[]) => {
    const offset = pageOffset(page.value)
    return pageReply(rows.slice(offset, offset + page.value.perPage), rows.length, page.value, url)
  }
  const resources = store.resources
  if (resources === undefined) return paged([])
  if (kind === 'users') {
    const users = await resources.listUsers({})
    return users.isErr() ? FAILED() : paged(users.value.map(userRow))
  }
  const bots = await resources.listUsers({ bot: true })
  if (bots.isErr()) return FAILED()
  const botIds = new Set<unknown>(bots.value.map((user) => user.id))
  if (kind === 'groups') {
    const groups = await resources.listGroups()
    return groups.isErr()
      ? FAILED()
      : paged(groups.value.map((group) => groupRow(group, botsOf(group, botIds))))
  }
  const projects = await resources.listProjects()
  return projects.isErr()
    ? FAILED()
    : paged(projects.value.map((project) => projectRow(project, botsOf(project, botIds))))
}
