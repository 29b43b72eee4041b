import { useEffect, useRef, useState } from 'preact/hooks'
import { call, failure } from '../api.js'
import { html } from '../html.js'
import type { Family, FamilyLink, ReuseEvent, TokenRow } from '../types.js'
import { CurlMenu } from './curl-menu.js'
import { shortTime } from './time.js'
import { Scopes } from './token-scopes.js'
import { StateBadge } from './token-state.js'

function ReuseMark(props: { reuse: ReuseEvent }) {
  const ids = props.reuse.revoked_ids.map((id) => `#${id}`).join(', ')
  return html`<p class="reuse" role="note">
    <strong>Reuse detected</strong> at ${shortTime(props.reuse.at)}: this token was presented again after
    its rotation; ${ids === '' ? 'nothing was revoked' : `revoked ${ids}`}.
  </p>`
}

function Link(props: { link: FamilyLink; reuse: readonly ReuseEvent[]; selected: boolean; last: boolean }) {
  const { link } = props
  return html`<li class=${`link link-${link.state}${props.selected ? ' selected' : ''}`} data-token-id=${link.id} aria-current=${props.selected ? 'true' : undefined}>
    <div class="link-head"><strong>#${link.id}</strong> ${link.name} <${StateBadge} state=${link.state} /></div>
    <dl class="link-facts">
      <dt>Created</dt><dd>${shortTime(link.created_at)}</dd>
      <dt>Expires</dt><dd>${shortTime(link.expires_at)}</dd>
      <dt>Last used</dt><dd>${shortTime(link.last_used_at)}</dd>
    </dl>
    ${props.reuse.map((r) => html`<${ReuseMark} key=${r.at} reuse=${r} />`)}
    ${props.last ? null : html`<span class="rotated-to" aria-hidden="true">rotated to ↓</span>`}
  </li>`
}

/**
 * A token family drawn as a chain, oldest first: each rotation is a link. `row` is the chosen token's
 * row of the table, for its scopes (a rotation keeps them: the chain's are the same).
 */
export function FamilyView(props: {
  tokenId: number
  row: TokenRow | undefined
  refresh: number
  close: () => void
}) {
  const [family, setFamily] = useState<Family | null>(null)
  const [error, setError] = useState<string | null>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: refresh is the trigger to fetch again
  useEffect(() => {
    let live = true
    call<Family>('GET', `tokens/${props.tokenId}/family`).then((answer) => {
      if (!live) return
      if (!answer.ok) setError(failure(answer))
      else {
        setError(null)
        setFamily(answer.body)
      }
    })
    return () => {
      live = false
    }
  }, [props.tokenId, props.refresh])
  const tokens = family?.tokens ?? []
  // The chain opens below the table: brought into view when a token is chosen.
  const section = useRef<HTMLElement>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new token chosen is the trigger to scroll
  useEffect(() => {
    section.current?.scrollIntoView({ block: 'start' })
  }, [props.tokenId])
  return html`<section ref=${section} aria-labelledby="family-heading" class="family">
    <div class="row">
      <h2 id="family-heading">Family of token ${props.tokenId}</h2>
      <button type="button" onClick=${props.close}>Close family</button>
    </div>
    ${error !== null && html`<p role="alert" class="error">${error}</p>`}
    ${family !== null && html`<p>Family ${family.family_id}: ${tokens.length} token${tokens.length === 1 ? '' : 's'}, ${family.reuse.length} reuse event${family.reuse.length === 1 ? '' : 's'}.</p>`}
    ${
      props.row !== undefined &&
      html`<div class="family-scopes">
      <h3 class="detail-heading">Scopes of token ${props.tokenId}</h3>
      <${Scopes} row=${props.row} />
    </div>`
    }
    <ol class="chain" aria-label=${`Rotation chain of token ${props.tokenId}, oldest first`}>
      ${tokens.map(
        (link, index) => html`<${Link}
          key=${link.id}
          link=${link}
          selected=${link.id === props.tokenId}
          last=${index === tokens.length - 1}
          reuse=${(family?.reuse ?? []).filter((r) => r.presented_id === link.id)}
        />`,
      )}
    </ol>
    <${CurlMenu} tokenId=${props.tokenId} />
  </section>`
}
