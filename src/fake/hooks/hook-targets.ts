import type { Group, Project, ResourceRef } from '../../domain/resource.js'
import type { Hook, NoticeInterval } from '../../store/hook-store.js'
import type { ResourceStore } from '../../store/resource-store.js'
import type { AccessTokenHookGroup, AccessTokenHookProject } from '../../webhooks/access-token-payload.js'

/** A bot's resource as the payload names it, and the hooks that hear its tokens' notice. */
export interface NoticeTargets {
  readonly resource: AccessTokenHookProject | AccessTokenHookGroup
  readonly hooks: readonly Hook[]
}

const SUBSCRIBED = 'resource_access_token_events'

export function projectPayload(project: Project, group: Group | null): AccessTokenHookProject {
  return {
    kind: 'project',
    id: project.id,
    name: project.name,
    fullPath: project.fullPath,
    namespaceName: group?.name ?? project.fullPath.split('/')[0] ?? project.path,
    visibility: project.visibility,
    // patkit keeps no repository: an empty project's default branch is null in GitLab.
    defaultBranch: null,
  }
}

export function groupPayload(group: Group): AccessTokenHookGroup {
  return { kind: 'group', id: group.id, name: group.name, path: group.path, fullPath: group.fullPath }
}

/**
 * Finds the hooks of a bot's resource that hear a notice of `interval`, as GitLab's
 * `PersonalAccessTokens::ExpiringWorker` runs them (docs/webhooks: "Project and group access token
 * events"; ee/app/models/ee/group.rb#execute_hooks, ee/app/models/ee/project.rb#execute_hooks):
 *
 * - a project's token: the project's own hooks, then the hooks of every group above it (EE
 *   `Project#execute_hooks` runs the group hooks too); a group's token: the group's and its ancestors'
 *   hooks. A project hook never hears a group's token (the resource is the group).
 * - only hooks with `resource_access_token_events` (`hooks_for(:resource_access_token_hooks)`);
 * - the 7-day notice to all of them; the 30- and 60-day ones only to the hooks of a project or group
 *   that turned on its own `extendedExpiryWebhooks` (GitLab's `extended_prat_expiry_webhooks_execute`,
 *   `extended_grat_expiry_webhooks_execute`: `GroupHook.where(group_id: self_and_ancestors joined
 *   namespace_settings where extended_grat_expiry_webhooks_execute = true)` when `interval !=
 *   :seven_days`), each ancestor group by its own setting.
 *
 * `null` when the resource is gone. The memo keeps one run's lookups.
 */
export async function noticeTargets(
  resources: ResourceStore,
  ref: ResourceRef,
  interval: NoticeInterval,
  memo: Map<string, Promise<ChainLink[] | null>>,
): Promise<NoticeTargets | null> {
  const key = `${ref.type}:${ref.id}`
  let found = memo.get(key)
  if (found === undefined) {
    found = chainOf(resources, ref)
    memo.set(key, found)
  }
  const chain = await found
  const head = chain?.[0]
  if (chain === undefined || chain === null || head === undefined) return null
  const hooks = chain.flatMap((link) =>
    interval === 7 || link.extended ? link.hooks.filter((h) => h.events[SUBSCRIBED] === true) : [],
  )
  return { resource: head.payload, hooks }
}

/** One resource of a bot's chain: the resource first, then each group above it. */
export interface ChainLink {
  readonly payload: AccessTokenHookProject | AccessTokenHookGroup
  readonly extended: boolean
  readonly hooks: readonly Hook[]
}

async function chainOf(resources: ResourceStore, ref: ResourceRef): Promise<ChainLink[] | null> {
  const links: ChainLink[] = []
  let groupId: number | null
  if (ref.type === 'project') {
    const project = await resources.findProject(ref.id)
    if (project.isErr() || project.value === null) return null
    const parent = project.value.groupId === null ? null : await resources.findGroup(project.value.groupId)
    const group = parent === null || parent.isErr() ? null : parent.value
    const hooks = await resources.hooks.listHooks(ref)
    if (hooks.isErr()) return null
    links.push({
      payload: projectPayload(project.value, group),
      extended: project.value.extendedExpiryWebhooks === true,
      hooks: hooks.value,
    })
    groupId = project.value.groupId
  } else groupId = ref.id
  // A cycle in the data must not hang the notifier: GitLab's depth limit is 20.
  for (let depth = 0; groupId !== null && depth < 32; depth++) {
    const group = await resources.findGroup(groupId)
    if (group.isErr() || group.value === null) break
    const hooks = await resources.hooks.listHooks({ type: 'group', id: group.value.id })
    if (hooks.isErr()) return null
    links.push({
      payload: groupPayload(group.value),
      extended: group.value.extendedExpiryWebhooks === true,
      hooks: hooks.value,
    })
    groupId = group.value.parentId
  }
  return links.length === 0 ? null : links
}
