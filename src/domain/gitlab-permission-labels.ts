// The labels GitLab prints for the assignable permissions the routes patkit serves declare
// (`"#{assignable.resource_name}: #{assignable.action.titleize}"`, app/services/authz/tokens/
// authorize_granular_scopes_service.rb; the labels as doc/auth/tokens/fine_grained_access_tokens_rest.md
// prints them, shared/reference fine-grained-pats.md §8.1 and §9).
const LABELS: Readonly<Record<string, string>> = {
  create_personal_access_token: 'Personal Access Token: Create',
  read_personal_access_token: 'Personal Access Token: Read',
  revoke_personal_access_token: 'Personal Access Token: Revoke',
  rotate_personal_access_token: 'Personal Access Token: Rotate',
  create_impersonation_token: 'Impersonation Token: Create',
  read_impersonation_token: 'Impersonation Token: Read',
  revoke_impersonation_token: 'Impersonation Token: Revoke',
  read_any_token: 'Any Token: Read',
  revoke_any_token: 'Any Token: Revoke',
  create_resource_access_token: 'Resource Access Token: Create',
  read_resource_access_token: 'Resource Access Token: Read',
  rotate_resource_access_token: 'Resource Access Token: Rotate',
  delete_resource_access_token: 'Resource Access Token: Delete',
  create_service_account: 'Service Account: Create',
  read_service_account: 'Service Account: Read',
  update_service_account: 'Service Account: Update',
  delete_service_account: 'Service Account: Delete',
  create_service_account_personal_access_token: 'Service Account Personal Access Token: Create',
  read_service_account_personal_access_token: 'Service Account Personal Access Token: Read',
  revoke_service_account_personal_access_token: 'Service Account Personal Access Token: Revoke',
  rotate_service_account_personal_access_token: 'Service Account Personal Access Token: Rotate',
  read_user: 'User: Read',
  read_metadata: 'Metadata: Read',
  read_project: 'Project: Read',
  read_group: 'Group: Read',
  create_webhook: 'Webhook: Create',
  read_webhook: 'Webhook: Read',
  update_webhook: 'Webhook: Update',
  delete_webhook: 'Webhook: Delete',
  trigger_webhook: 'Webhook: Trigger',
  read_audit_event: 'Audit Event: Read',
}

// An acronym GitLab's `titleize` keeps as the yml's `resource_name` spells it is not derivable from the
// name alone: the table above holds every name patkit declares; another is titleized word by word.
function titleized(words: readonly string[]): string {
  return words.map((w) => (w.length === 0 ? w : w[0]?.toUpperCase() + w.slice(1))).join(' ')
}

/**
 * The label GitLab's 403 prints for an assignable permission (`read_personal_access_token` →
 * `Personal Access Token: Read`): from GitLab's table for the names patkit's routes declare, else the
 * name read as `<action>_<resource>`.
 */
export function permissionLabel(name: string): string {
  const known = LABELS[name]
  if (known !== undefined) return known
  const [action = '', ...resource] = name.split('_')
  return `${titleized(resource)}: ${titleized([action])}`
}

/** The labels of `names`, de-duplicated and sorted, as GitLab lists them in its 403. */
export function permissionLabels(names: readonly string[]): readonly string[] {
  return [...new Set(names.map(permissionLabel))].sort()
}
