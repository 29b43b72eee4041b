/**
 * A boundary an assignable permission may be granted for (GitLab's `boundaries:` in
 * config/authz/permission_groups/assignable_permissions/**.yml).
 */
export type PermissionBoundary = 'user' | 'instance' | 'project' | 'group'

/**
 * GitLab's assignable permissions for the routes patkit serves (the names a fine-grained token's
 * `permissions` take), with the boundaries each may be granted for, as the generated REST permissions
 * doc lists them (shared facts on fine-grained tokens, §8 and §9). Not GitLab's whole list (about 857
 * names): a name outside it is refused on creation as GitLab refuses an unknown one.
 */
export const GITLAB_PERMISSIONS: Readonly<Record<string, readonly PermissionBoundary[]>> = Object.freeze({
  create_personal_access_token: ['user', 'instance'],
  read_personal_access_token: ['user', 'group'],
  revoke_personal_access_token: ['user', 'group'],
  rotate_personal_access_token: ['user', 'group'],
  create_impersonation_token: ['instance'],
  read_impersonation_token: ['instance'],
  revoke_impersonation_token: ['instance'],
  read_any_token: ['instance'],
  revoke_any_token: ['instance'],
  create_resource_access_token: ['project', 'group'],
  read_resource_access_token: ['project', 'group'],
  rotate_resource_access_token: ['project', 'group'],
  delete_resource_access_token: ['project', 'group'],
  create_service_account: ['project', 'group', 'instance'],
  read_service_account: ['project', 'group', 'instance'],
  update_service_account: ['project', 'group', 'instance'],
  delete_service_account: ['project', 'group'],
  create_service_account_personal_access_token: ['project', 'group'],
  read_service_account_personal_access_token: ['project', 'group'],
  revoke_service_account_personal_access_token: ['project', 'group'],
  rotate_service_account_personal_access_token: ['project', 'group'],
  read_user: ['user', 'instance'],
  create_user: ['instance'],
  update_user: ['instance'],
  delete_user: ['instance'],
  block_user: ['instance'],
  unblock_user: ['instance'],
  ban_user: ['instance'],
  unban_user: ['instance'],
  activate_user: ['instance'],
  deactivate_user: ['instance'],
  approve_user: ['instance'],
  reject_user: ['instance'],
  follow_user: ['user'],
  unfollow_user: ['user'],
  read_metadata: ['instance'],
  read_project: ['project', 'group', 'user'],
  create_project: ['user'],
  update_project: ['project'],
  delete_project: ['project'],
  archive_project: ['project'],
  read_group: ['group', 'user'],
  create_group: ['user'],
  update_group: ['group'],
  delete_group: ['group'],
  archive_group: ['group'],
  create_webhook: ['project', 'group', 'instance'],
  read_webhook: ['project', 'group', 'instance'],
  update_webhook: ['project', 'group', 'instance'],
  delete_webhook: ['project', 'group', 'instance'],
  trigger_webhook: ['project', 'group', 'instance'],
  read_audit_event: ['project', 'group', 'instance'],
})

/**
 * Whether `name` is one of {@link GITLAB_PERMISSIONS} (GitLab's `known_assignable_permissions` format).
 */
export function isKnownPermission(name: string): boolean {
  return Object.hasOwn(GITLAB_PERMISSIONS, name)
}
