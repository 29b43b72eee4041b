import type { Principal } from '../authority/core/principal.js'
import { READ_SCOPES } from '../authority/core/scope-policy.js'
import { errorReply } from './error-response.js'
import { type PathInput, pathRoute } from './path-params.js'
import { groupJson, projectJson } from './resource-json.js'
import { json, type Reply } from './responses.js'
import type { RouteRow } from './route.js'
import { userWebBase } from './user-json.js'

// `:id` is an id or a full path: the authority reads either.
const ID_PATH = { id: 'string' } as const

/**
 * `GET /projects/:id` and `GET /groups/:id` (lib/api/projects.rb, groups.rb): `:id` is an id or a
 * URL-encoded full path; anonymous callers see public ones; one the caller may not see is `404
 * Project Not Found` / `404 Group Not Found` (GitLab's `find_project!`/`find_group!`). Clients read
 * them before a resource's token managers (python-gitlab's `gl.projects.get(1)`).
 */
export const RESOURCE_ROUTES: readonly RouteRow[] = [
  pathRoute({
    method: 'GET',
    path: '/projects/:id',
    caller: 'optional',
    scopes: READ_SCOPES,
    // One of GitLab's "publicly accessible endpoints": a public project is read without the permission.
    permission: { name: 'read_project', boundary: 'project', ref: 'id', publicRead: true },
    pathParams: ID_PATH,
    serve: project,
  }),
  pathRoute({
    method: 'GET',
    path: '/groups/:id',
    caller: 'optional',
    scopes: READ_SCOPES,
    permission: { name: 'read_group', boundary: 'group', ref: 'id', publicRead: true },
    pathParams: ID_PATH,
    serve: group,
  }),
]

type Input = PathInput<typeof ID_PATH, Principal | null>

function hostOf({ url, publicUrl }: Input): string {
  return (publicUrl ?? url).hostname
}

async function project(input: Input): Promise<Reply> {
  const view = await input.authority.resources.viewProject(input.principal, input.pathValues.id)
  if (view.isErr()) return errorReply(view.error)
  return json(200, projectJson(view.value, userWebBase(input.url, input.publicUrl), hostOf(input)))
}

async function group(input: Input): Promise<Reply> {
  const view = await input.authority.resources.viewGroup(input.principal, input.pathValues.id)
  if (view.isErr()) return errorReply(view.error)
  return json(200, groupJson(view.value, userWebBase(input.url, input.publicUrl)))
}
