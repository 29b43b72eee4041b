import { html } from '../html.js'
import type { LinkState, TokenRow } from '../types.js'

// A token's state as words and a style: never colour alone (the mark and the text say it too).
const LABELS: Readonly<Record<LinkState, { mark: string; text: string }>> = {
  active: { mark: '●', text: 'active' },
  revoked: { mark: '✕', text: 'revoked' },
  expired: { mark: '◌', text: 'expired' },
  reuse_revoked: { mark: '⚠', text: 'revoked on reuse' },
}

/** A row's state; `reused` holds the tokens reuse detection revoked (the family chain's `reuse_revoked`). */
export function rowState(row: TokenRow, reused: ReadonlySet<number> = new Set()): LinkState {
  if (row.revoked) return reused.has(row.id) ? 'reuse_revoked' : 'revoked'
  if (row.expired === true || !row.active) return 'expired'
  return 'active'
}

export function StateBadge(props: { state: LinkState }) {
  const label = LABELS[props.state]
  return html`<span class=${`state state-${props.state}`}><span aria-hidden="true">${label.mark} </span>${label.text}</span>`
}
