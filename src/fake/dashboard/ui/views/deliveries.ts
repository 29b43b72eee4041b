import { useEffect, useState } from 'preact/hooks'
import { call, failure } from '../api.js'
import { html } from '../html.js'
import type { Delivery } from '../types.js'
import { shortTime } from './time.js'

// GET /__patkit/deliveries, newest first; read again on every journal event (each delivery is one,
// `webhook_delivery`), so a delivery shows as it is made.

/** Why a delivery was made, in words: the journal's delivery line says it the same way. */
export function deliveryCause(delivery: Pick<Delivery, 'cause' | 'interval'>): string {
  if (delivery.cause === 'test') return 'test trigger'
  return delivery.interval === null ? 'expiry notice' : `expiry notice, ${delivery.interval} days`
}

// Why no answer came, in words (`error.kind` of the delivery).
const FAILURES: Record<NonNullable<Delivery['error']>['kind'], string> = {
  timeout: 'timed out',
  refused: 'connection refused',
  blocked: 'blocked by the destination policy',
  network: 'connection error',
}

function outcome(delivery: Delivery) {
  if (delivery.error !== null)
    return html`<span class="delivery-failed">${FAILURES[delivery.error.kind]}</span>: ${delivery.error.message}`
  const status = delivery.status ?? 0
  return status >= 200 && status < 300
    ? html`${status}`
    : html`<span class="delivery-failed">${status}</span>`
}

// The request as sent (the hook's secret token redacted by the fake) and the receiver's answer.
function DeliveryDetail(props: { delivery: Delivery }) {
  const { delivery } = props
  const headers = Object.entries(delivery.request_headers)
  return html`<details class="entry-detail">
    <summary>Payload, headers and answer</summary>
    <h3 class="detail-heading">Headers (X-Gitlab-Token redacted)</h3>
    <dl class="pairs">${headers.map(([name, value]) => html`<dt key=${`n-${name}`}>${name}</dt><dd key=${`v-${name}`}>${value}</dd>`)}</dl>
    <h3 class="detail-heading">Payload</h3>
    <pre>${JSON.stringify(delivery.payload, null, 2)}</pre>
    <h3 class="detail-heading">Answer ${delivery.status ?? '(none)'}</h3>
    <pre>${delivery.response_body === '' ? '(no body)' : delivery.response_body}</pre>
  </details>`
}

// The owner of the token a notice is about, from the payload GitLab sends (object_attributes.user_id).
function ownerOf(delivery: Delivery): number | null {
  const payload = delivery.payload
  if (payload === null || typeof payload !== 'object') return null
  const attributes = (payload as { object_attributes?: unknown }).object_attributes
  if (attributes === null || typeof attributes !== 'object') return null
  const userId = (attributes as { user_id?: unknown }).user_id
  return typeof userId === 'number' ? userId : null
}

// The token a notice is about, a link to its family; a test trigger's is GitLab's sample, no token.
function TokenCell(props: {
  delivery: Delivery
  showFamily: (tokenId: number, userId: number | null) => void
}) {
  const { delivery } = props
  const tokenId = delivery.token_id
  if (tokenId === null) return html`${delivery.cause === 'test' ? 'sample' : ''}`
  return html`<button type="button" class="link" aria-label=${`Family of token ${tokenId}`} onClick=${() =>
    props.showFamily(tokenId, ownerOf(delivery))}>#${tokenId}</button>`
}

/** The webhook deliveries the fake made: expiry notices and hook tests, each with what was sent. */
export function DeliveriesView(props: {
  refresh: number
  /** Opens the tokens view at a token's family (its owner's tokens listed). */
  showFamily: (tokenId: number, userId: number | null) => void
}) {
  const [deliveries, setDeliveries] = useState<readonly Delivery[]>([])
  const [pending, setPending] = useState(0)
  const [error, setError] = useState<string | null>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: refresh is the trigger to fetch again
  useEffect(() => {
    let live = true
    call<{ deliveries: Delivery[]; pending: number }>('GET', 'deliveries').then((answer) => {
      if (!live) return
      if (!answer.ok) {
        setError(failure(answer))
        return
      }
      setError(null)
      setDeliveries(answer.body.deliveries)
      setPending(answer.body.pending)
    })
    return () => {
      live = false
    }
  }, [props.refresh])
  return html`<section aria-labelledby="deliveries-heading">
    <h2 id="deliveries-heading">Deliveries</h2>
    <p role="status">${deliveries.length} webhook deliver${deliveries.length === 1 ? 'y' : 'ies'}, newest first; ${pending} waiting or in flight.</p>
    ${error !== null && html`<p role="alert" class="error">${error}</p>`}
    ${
      deliveries.length === 0
        ? html`<p>No webhook delivery yet: a hook with <code>resource_access_token_events</code> hears a project or group bot's token 7 days before it expires (move the clock), or its test trigger.</p>`
        : html`<div class="table-scroll" role="region" aria-label="Deliveries table" tabIndex="0">
    <table class="deliveries">
      <caption class="visually-hidden">Webhook deliveries, newest first</caption>
      <thead><tr><th scope="col">At (fake time)</th><th scope="col">Hook</th><th scope="col">What</th><th scope="col">Token</th><th scope="col">Answer</th><th scope="col">Duration</th></tr></thead>
      <tbody>
        ${deliveries.map(
          (delivery) => html`<tr key=${delivery.id} data-delivery-id=${delivery.id}>
            <td>${shortTime(delivery.at)}</td>
            <td>${delivery.resource.type} ${delivery.resource.id}, hook #${delivery.hook_id}<br /><code>${delivery.url}</code></td>
            <td>${deliveryCause(delivery)}<${DeliveryDetail} delivery=${delivery} /></td>
            <td><${TokenCell} delivery=${delivery} showFamily=${props.showFamily} /></td>
            <td>${outcome(delivery)}</td>
            <td>${Math.round(delivery.duration_ms)} ms</td>
          </tr>`,
        )}
      </tbody>
    </table>
    </div>`
    }
  </section>`
}
