import type { ResourceView } from '../authority/resource/resource-views.js'
import type { GroupAssociation, ProjectAssociation } from '../authority/users/token-associations.js'
import type { AccessLevel, Group, Project } from '../domain/resource.js'

// GitLab's NotificationSetting level `global` (3), what a member has unless they chose another.
const GLOBAL_NOTIFICATIONS = 3

function access(level: AccessLevel | null): { access_level: AccessLevel; notification_level: number } | null {
  return level === null ? null : { access_level: level, notification_level: GLOBAL_NOTIFICATIONS }
}

/** The names from the top-level group down, GitLab's `" / "`-joined `full_name`/`name_with_namespace`. */
function namesDown(ancestors: readonly Group[], own: string): string {
  return [...ancestors.map((g) => g.name).reverse(), own].join(' / ')
}

/**
 * GitLab's `NamespaceBasic` of a group (lib/api/entities/namespace_basic.rb): `id, name, path, kind,
 * full_path, parent_id, avatar_url, web_url`.
 */
function namespaceJson(group: Group, webBase: string): Record<string, unknown> {
  return {
    id: group.id,
    name: group.name,
    path: group.path,
    kind: 'group',
    full_path: group.fullPath,
    parent_id: group.parentId,
    avatar_url: null,
    web_url: `${webBase}/groups/${group.fullPath}`,
  }
}

/**
 * GitLab's `ProjectWithAccess` entity (`GET /projects/:id`) as far as patkit holds a project: its
 * `BasicProjectDetails` fields in GitLab's order (lib/api/entities/basic_project_details.rb,
 * project_identity.rb), `_links`, `empty_repo`, `archived`, `visibility`, and `permissions`. What only a
 * real repository holds is GitLab's value for a new, empty project (`default_branch` null, counts 0,
 * `tag_list`/`topics` []), or null where patkit cannot know (`created_at`, `last_activity_at`); the
 * many settings fields of GitLab's `Project` entity are left out. A project without a group has no
 * `namespace` patkit knows (GitLab's would be its owner's): null.
 */
export function projectJson(
  view: ResourceView<Project>,
  webBase: string,
  host: string,
): Record<string, unknown> {
  const { resource: project, ancestors } = view
  const web = `${webBase}/${project.fullPath}`
  const api = `${webBase}/api/v4/projects/${project.id}`
  const group = ancestors[0]
  return {
    id: project.id,
    description: null,
    name: project.name,
    name_with_namespace: namesDown(ancestors, project.name),
    path: project.path,
    path_with_namespace: project.fullPath,
    created_at: null,
    default_branch: null,
    tag_list: [],
    topics: [],
    ssh_url_to_repo: `git@${host}:${project.fullPath}.git`,
    http_url_to_repo: `${web}.git`,
    web_url: web,
    readme_url: null,
    forks_count: 0,
    avatar_url: null,
    star_count: 0,
    last_activity_at: null,
    namespace: group === undefined ? null : namespaceJson(group, webBase),
    _links: {
      self: api,
      issues: `${api}/issues`,
      merge_requests: `${api}/merge_requests`,
      repo_branches: `${api}/repository/branches`,
      labels: `${api}/labels`,
      events: `${api}/events`,
      members: `${api}/members`,
    },
    empty_repo: true,
    archived: false,
    visibility: project.visibility,
    shared_with_groups: [],
    permissions: { project_access: access(view.direct), group_access: access(view.inherited) },
  }
}

/**
 * GitLab's `GroupDetail` entity (`GET /groups/:id`) as far as patkit holds a group: `id, web_url, name,
 * path, description, visibility`, `full_name`, `full_path`, `created_at` (null: patkit does not know
 * it), `parent_id` (lib/api/entities/group.rb's order), and `shared_with_groups` ([]). GitLab's
 * settings fields and the group's `projects` are left out.
 */
export function groupJson(view: ResourceView<Group>, webBase: string): Record<string, unknown> {
  const { resource: group, ancestors } = view
  return {
    id: group.id,
    web_url: `${webBase}/groups/${group.fullPath}`,
    name: group.name,
    path: group.path,
    description: '',
    visibility: group.visibility,
    full_name: namesDown(ancestors, group.name),
    full_path: group.fullPath,
    created_at: null,
    parent_id: group.parentId,
    shared_with_groups: [],
  }
}

/**
 * GitLab's `GroupAssociationDetails` (`BasicGroupDetails`' `id, web_url, name`, then `parent_id`,
 * `organization_id`, `access_levels`, `visibility`). patkit has no organizations: `organization_id` is
 * null.
 */
export function groupAssociationJson(a: GroupAssociation, webBase: string): Record<string, unknown> {
  return {
    id: a.group.id,
    web_url: `${webBase}/groups/${a.group.fullPath}`,
    name: a.group.name,
    parent_id: a.group.parentId,
    organization_id: null,
    access_levels: a.access,
    visibility: a.group.visibility,
  }
}

/**
 * GitLab's `ProjectAssociationDetails` (`ProjectIdentity`'s `id, description, name, name_with_namespace,
 * path, path_with_namespace, created_at`, then `access_levels`, `visibility`, `web_url`, `namespace`).
 */
export function projectAssociationJson(a: ProjectAssociation, webBase: string): Record<string, unknown> {
  const { project, ancestors } = a
  const group = ancestors[0]
  return {
    id: project.id,
    description: null,
    name: project.name,
    name_with_namespace: namesDown(ancestors, project.name),
    path: project.path,
    path_with_namespace: project.fullPath,
    created_at: null,
    access_levels: { project_access_level: a.projectAccess, group_access_level: a.groupAccess },
    visibility: project.visibility,
    web_url: `${webBase}/${project.fullPath}`,
    namespace: group === undefined ? null : namespaceJson(group, webBase),
  }
}
