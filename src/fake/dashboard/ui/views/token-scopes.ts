import { html } from '../html.js'
import type { GranularScopeRow, TokenRow } from '../types.js'

// Where a fine-grained scope reaches: its access, and the project or group of a selected membership.
function reach(scope: GranularScopeRow): string {
  if (scope.project_id !== null) return `${scope.access}, project ${scope.project_id}`
  if (scope.group_id !== null) return `${scope.access}, group ${scope.group_id}`
  return scope.access
}

/** A token's scopes: a legacy token's list, or a fine-grained token's badge and each scope's permissions. */
export function Scopes(props: { row: TokenRow }) {
  const granular = props.row.granular_scopes
  if (granular === undefined) return html`${props.row.scopes.join(', ')}`
  return html`<span class="fine-grained">fine-grained</span>
    <ul class="granular-scopes" aria-label=${`Fine-grained scopes of token ${props.row.id}`}>
      ${granular.map(
        (scope, index) =>
          html`<li key=${index}><strong>${reach(scope)}</strong>: ${scope.permissions.join(', ')}</li>`,
      )}
    </ul>`
}
