import type { Group, Project } from '../../domain/resource.js'
import { isActive, isExpired, type Token } from '../../domain/token.js'
import { granularScopeJson } from '../../http/token-json.js'
import type { User } from '../../store/user.js'
import { seedMembers } from '../fake-state.js'

// The rows the dashboard reads: GitLab's field names, never a digest or a secret.

const iso = (at: Date | null) => (at === null ? null : at.toISOString())

/** A token of `GET /__patkit/tokens`, its state at `now`. */
export function tokenRow(token: Token, now: Date) {
  return {
    id: token.id,
    user_id: token.userId,
    name: token.name,
    scopes: token.scopes,
    // A fine-grained token's scopes as GitLab's entity shows them (only on such a token, as GitLab).
    ...(token.granularScopes === undefined
      ? {}
      : { granular_scopes: token.granularScopes.map(granularScopeJson) }),
    description: token.description,
    created_at: token.createdAt.toISOString(),
    last_used_at: iso(token.lastUsedAt),
    expires_at: token.expiresAt,
    revoked: token.revoked,
    active: isActive(token, now),
    expired: isExpired(token, now),
    impersonation: token.impersonation,
    previous_id: token.previousId,
    family_id: token.familyId,
  }
}

/** A user of `GET /__patkit/users`: every kind (bots and service accounts too). */
export function userRow(user: User) {
  const namespace = user.botNamespace ?? null
  return {
    id: user.id,
    username: user.username,
    name: user.name ?? user.username,
    admin: user.admin,
    blocked: user.blocked,
    bot: user.bot === true,
    bot_namespace: namespace === null ? null : { type: namespace.type, id: namespace.id },
    service_account: user.serviceAccount === true,
    provisioned_by_group_id: user.provisionedByGroupId ?? null,
  }
}

/** A group of `GET /__patkit/groups`; `bots` are its members that are bot users. */
export function groupRow(group: Group, bots: readonly number[]) {
  const { id, path, name, visibility } = group
  return {
    id,
    path,
    full_path: group.fullPath,
    name,
    parent_id: group.parentId,
    visibility,
    members: seedMembers(group.members),
    bots,
  }
}

/** A project of `GET /__patkit/projects`; `bots` are its members that are bot users. */
export function projectRow(project: Project, bots: readonly number[]) {
  const { id, path, name, visibility } = project
  return {
    id,
    path,
    full_path: project.fullPath,
    name,
    group_id: project.groupId,
    visibility,
    members: seedMembers(project.members),
    bots,
  }
}
