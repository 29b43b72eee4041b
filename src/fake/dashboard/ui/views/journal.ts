import { useEffect, useState } from 'preact/hooks'
import type { AuthorityEvent } from '../../../../authority/core/events.js'
import { call, failure } from '../api.js'
import { html } from '../html.js'
import { readStream } from '../sse.js'
import type { Delivery, JournalEntry } from '../types.js'
import { deliveryCause } from './deliveries.js'
import { shortTime } from './time.js'

// The journal, live: the last entries matching the filters from GET /journal, then every later one
// from the stream (which takes the same filters). At most KEEP entries stay on the page.
const KEEP = 500
const FIRST = 200
// The event types the filter offers: a Record over the authority's union (a type-only import, nothing
// of it is bundled), so a new event type fails to compile here until the filter lists it.
const EVENT_TYPE_SET: Readonly<Record<AuthorityEvent['type'], true>> = {
  created: true,
  rotated: true,
  revoked: true,
  reuse_detected: true,
  used: true,
  rotation_replayed: true,
  token_expiring: true,
  last_used_write_failed: true,
}

/** The `type` values the journal's filter offers: every event type the journal records, webhook deliveries too. */
export const EVENT_TYPES: readonly (AuthorityEvent['type'] | 'webhook_delivery')[] = [
  ...(Object.keys(EVENT_TYPE_SET) as AuthorityEvent['type'][]),
  'webhook_delivery',
]

type Filters = Readonly<Record<string, string>>

function params(filters: Filters): URLSearchParams {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(filters)) if (value.trim() !== '') search.set(name, value.trim())
  return search
}

// A token in an event is shown as `#id`, a list of them as `#a, #b`: the full rows are in GET /journal.
function brief(value: unknown): string {
  const id = (item: unknown) =>
    item !== null && typeof item === 'object' && 'id' in item
      ? `#${String((item as { id: unknown }).id)}`
      : null
  if (Array.isArray(value)) return value.map((item) => id(item) ?? JSON.stringify(item)).join(', ')
  return id(value) ?? (typeof value === 'string' ? value : JSON.stringify(value))
}

// The token an event is about, and its owner: the token, the presented one, or the one rotated away.
function subject(entry: JournalEntry): { token: string; user: string } {
  if (entry.kind === 'request')
    return { token: String(entry.tokenId ?? ''), user: String(entry.userId ?? '') }
  const event = entry.event ?? {}
  const about = event['token'] ?? event['presented'] ?? event['previous']
  if (about !== null && typeof about === 'object') {
    const row = about as { id?: unknown; userId?: unknown }
    return { token: String(row.id ?? ''), user: String(row.userId ?? '') }
  }
  return {
    token: String(event['tokenId'] ?? event['token_id'] ?? ''),
    user: String(event['userId'] ?? ''),
  }
}

// A webhook delivery in one line, as a request is: what was sent where, the answer and its time, and
// why (the Deliveries view has its payload, headers and answer).
// The entry's data is the delivery as GET /__patkit/deliveries gives it (`deliveryJson`).
function deliveryLine(event: Readonly<Record<string, unknown>>): string {
  const delivery = event as unknown as Delivery
  const status = delivery.error === null ? String(delivery.status ?? '') : delivery.error.kind
  return `webhook_delivery POST ${delivery.url} → ${status} (${Math.round(delivery.duration_ms)} ms), ${deliveryCause(delivery)}, hook #${delivery.hook_id}`
}

function describe(entry: JournalEntry): string {
  if (entry.kind === 'event' && entry.type === 'webhook_delivery') return deliveryLine(entry.event ?? {})
  if (entry.kind === 'request') {
    const fault = entry.fault === null || entry.fault === undefined ? '' : ` (fault ${entry.fault})`
    return `${entry.method ?? ''} ${entry.path ?? ''} → ${entry.status === 0 ? 'dropped' : entry.status}${fault}`
  }
  const fields = Object.entries(entry.event ?? {})
    .filter(([name, value]) => name !== 'type' && name !== 'at' && value !== null && value !== undefined)
    .map(([name, value]) => `${name}=${brief(value)}`)
  return `${entry.type ?? 'event'} ${fields.join(' ')}`
}

function pairs(record: Readonly<Record<string, string>>) {
  const entries = Object.entries(record)
  if (entries.length === 0) return html`<p>none</p>`
  return html`<dl class="pairs">${entries.map(([name, value]) => html`<dt key=${`n-${name}`}>${name}</dt><dd key=${`v-${name}`}>${value}</dd>`)}</dl>`
}

// A request's reason (refused ones) and its detail, opened on demand: credentials are filtered by the fake.
function RequestDetail(props: { entry: JournalEntry }) {
  const { reason, detail } = props.entry
  return html`${
    reason !== null &&
    reason !== undefined &&
    html`<p class="reason"><strong class="reason-code">${reason.code}</strong>: ${reason.message}</p>`
  }
  ${
    detail !== null &&
    detail !== undefined &&
    html`<details class="entry-detail">
      <summary>Request and answer</summary>
      <h3 class="detail-heading">Headers (credentials filtered)</h3>
      ${pairs(detail.headers)}
      <h3 class="detail-heading">Query parameters</h3>
      ${pairs(detail.params)}
      <h3 class="detail-heading">Answer ${detail.answer.status === 0 ? '(none: connection closed)' : detail.answer.status}</h3>
      <pre>${detail.answer.body ?? '(no body)'}</pre>
    </details>`
  }`
}

export function JournalView() {
  const [draft, setDraft] = useState<Record<string, string>>({})
  const [filters, setFilters] = useState<Filters>({})
  const [entries, setEntries] = useState<readonly JournalEntry[]>([])
  const [status, setStatus] = useState('connecting')
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    const abort = new AbortController()
    setEntries([])
    setStatus('connecting')
    const search = params(filters)
    const first = new URLSearchParams(search)
    first.set('limit', String(FIRST))
    call<{ entries: JournalEntry[] }>('GET', `journal?${first}`).then((answer) => {
      if (abort.signal.aborted) return
      if (!answer.ok) {
        setError(failure(answer))
        setStatus('stopped')
        return
      }
      setError(null)
      const initial = answer.body.entries
      setEntries(initial)
      const last = initial.at(-1)
      const since = last === undefined ? null : String(last.seq)
      readStream(`journal/stream?${search}`, since, abort.signal, {
        onEvent: (event) => {
          if (event.event !== 'entry') return
          const entry = JSON.parse(event.data) as JournalEntry
          setEntries((old) => (old.some((e) => e.seq === entry.seq) ? old : [...old, entry].slice(-KEEP)))
        },
        onStatus: (state, detail) => {
          setStatus(state === 'open' ? 'live' : state === 'closed' ? 'closed by the fake' : 'stopped')
          if (detail !== undefined) setError(detail)
        },
      })
    })
    return () => abort.abort()
  }, [filters])
  const set = (name: string) => (event: Event) => {
    const value = (event.target as HTMLInputElement).value
    setDraft((old) => ({ ...old, [name]: value }))
  }
  const newestFirst = [...entries].reverse()
  return html`<section aria-labelledby="journal-heading">
    <h2 id="journal-heading">Journal</h2>
    <form class="filters" aria-label="Journal filters" onSubmit=${(event: Event) => {
      event.preventDefault()
      setFilters({ ...draft })
    }}>
      <label>Token ID <input name="token_id" type="number" value=${draft['token_id'] ?? ''} onInput=${set('token_id')} /></label>
      <label>User ID <input name="user_id" type="number" value=${draft['user_id'] ?? ''} onInput=${set('user_id')} /></label>
      <label>Route contains <input name="path" type="text" value=${draft['path'] ?? ''} onInput=${set('path')} placeholder="/api/v4/personal_access_tokens" /></label>
      <label>Event type
        <select name="type" value=${draft['type'] ?? ''} onChange=${set('type')}>
          <option value="">any (requests and events)</option>
          ${EVENT_TYPES.map((type) => html`<option key=${type} value=${type}>${type}</option>`)}
        </select>
      </label>
      <div class="buttons"><button type="submit">Apply filters</button></div>
    </form>
    <p role="status">Stream: ${status}. ${entries.length} entries shown, newest first.</p>
    ${error !== null && html`<p role="alert" class="error">${error}</p>`}
    <div class="table-scroll" role="region" aria-label="Journal table" tabIndex="0">
    <table class="journal">
      <caption class="visually-hidden">Journal entries, newest first</caption>
      <thead><tr><th scope="col">Seq</th><th scope="col">At (fake time)</th><th scope="col">Kind</th><th scope="col">Token</th><th scope="col">User</th><th scope="col">What</th></tr></thead>
      <tbody>
        ${newestFirst.map((entry) => {
          const { token, user } = subject(entry)
          return html`<tr key=${entry.seq} class=${`entry-${entry.kind}${entry.type === 'reuse_detected' ? ' entry-reuse' : ''}`}>
            <td>${entry.seq}</td><td>${shortTime(entry.at)}</td><td>${entry.kind === 'event' ? `event: ${entry.type}` : 'request'}</td>
            <td>${token}</td><td>${user}</td><td><code>${describe(entry)}</code>${entry.kind === 'request' && html`<${RequestDetail} entry=${entry} />`}</td>
          </tr>`
        })}
      </tbody>
    </table>
    </div>
  </section>`
}
