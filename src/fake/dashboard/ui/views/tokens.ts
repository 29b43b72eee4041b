import { useEffect, useState } from 'preact/hooks'
import { call, failure, type PageInfo, pageInfo } from '../api.js'
import { html } from '../html.js'
import type { TokenRow } from '../types.js'
import { FamilyView } from './family.js'
import { useReuseRevoked, userLabel, useUsernames } from './known.js'
import { Pager } from './pager.js'
import { relativeTime, shortTime } from './time.js'
import { Scopes } from './token-scopes.js'
import { rowState, StateBadge } from './token-state.js'

/** GitLab's list filters of GET /personal_access_tokens, plus the bots of a group or project. */
export type TokenFilters = Readonly<Record<string, string>>

const TEXT_FILTERS = [
  { name: 'user_id', label: 'User ID', type: 'number' },
  { name: 'search', label: 'Name contains', type: 'search' },
  // Dates as ISO text (YYYY-MM-DD), as every date the dashboard shows; a browser's date picker shows
  // them in its locale's order (mm/dd/yyyy).
  { name: 'created_after', label: 'Created after', type: 'iso' },
  { name: 'created_before', label: 'Created before', type: 'iso' },
  { name: 'last_used_after', label: 'Last used after', type: 'iso' },
  { name: 'last_used_before', label: 'Last used before', type: 'iso' },
  { name: 'expires_after', label: 'Expires after', type: 'iso' },
  { name: 'expires_before', label: 'Expires before', type: 'iso' },
] as const

// GitLab's sort keys (src/query/filter.ts's SORT_KEYS), without its aliases.
const SORTS = [
  'id_desc',
  'created_desc',
  'created_asc',
  'expires_asc',
  'expires_desc',
  'last_used_desc',
  'last_used_asc',
  'name_asc',
  'name_desc',
]

function query(filters: TokenFilters, page: number, perPage: number): string {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(filters)) if (value !== '') params.set(name, value)
  params.set('page', String(page))
  params.set('per_page', String(perPage))
  return params.toString()
}

function Filters(props: { filters: TokenFilters; apply: (filters: TokenFilters) => void }) {
  const [draft, setDraft] = useState<Record<string, string>>({ ...props.filters })
  useEffect(() => setDraft({ ...props.filters }), [props.filters])
  const set = (name: string) => (event: Event) => {
    const value = (event.target as HTMLInputElement | HTMLSelectElement).value
    setDraft((old) => ({ ...old, [name]: value }))
  }
  const field = (name: string) => draft[name] ?? ''
  const set_ = Object.values(props.filters).filter((value) => value !== '').length
  // Folded: the tokens come first on a small screen; open, or any filter set, it shows the fields.
  return html`<details class="filter-fold" open=${set_ > 0 ? true : undefined}>
    <summary>Filters${set_ > 0 ? ` (${set_} set)` : ''}</summary>
    <form class="filters" aria-label="Token filters" onSubmit=${(event: Event) => {
      event.preventDefault()
      props.apply(draft)
    }}>
    ${TEXT_FILTERS.map((filter) =>
      filter.type === 'iso'
        ? html`<label key=${filter.name}>${filter.label} (YYYY-MM-DD)
        <input name=${filter.name} type="text" inputmode="numeric" pattern="\d{4}-\d{2}-\d{2}" placeholder="2026-01-31" value=${field(filter.name)} onInput=${set(filter.name)} />
      </label>`
        : html`<label key=${filter.name}>${filter.label}
        <input name=${filter.name} type=${filter.type} value=${field(filter.name)} onInput=${set(filter.name)} />
      </label>`,
    )}
    <label>State
      <select name="state" value=${field('state')} onChange=${set('state')}>
        <option value="">any</option><option value="active">active</option><option value="inactive">inactive</option>
      </select>
    </label>
    <label>Revoked
      <select name="revoked" value=${field('revoked')} onChange=${set('revoked')}>
        <option value="">any</option><option value="true">revoked</option><option value="false">not revoked</option>
      </select>
    </label>
    <label>Bots of
      <select name="resource_type" value=${field('resource_type')} onChange=${set('resource_type')}>
        <option value="">anyone</option><option value="project">a project</option><option value="group">a group</option>
      </select>
    </label>
    <label>Project or group ID
      <input name="resource_id" type="number" value=${field('resource_id')} onInput=${set('resource_id')} />
    </label>
    <label>Sort
      <select name="sort" value=${field('sort')} onChange=${set('sort')}>
        <option value="">id ascending (default)</option>
        ${SORTS.map((sort) => html`<option key=${sort} value=${sort}>${sort.replaceAll('_', ' ').replace(/desc$/, 'descending').replace(/asc$/, 'ascending')}</option>`)}
      </select>
    </label>
    <div class="buttons">
      <button type="submit">Apply filters</button>
      <button type="button" onClick=${() => props.apply({})}>Clear filters</button>
    </div>
  </form>
  </details>`
}

/** One page of tokens from the server's query engine (never all of them), and the family of one. */
export function TokensView(props: {
  filters: TokenFilters
  setFilters: (filters: TokenFilters) => void
  refresh: number
  selected: number | null
  select: (id: number | null) => void
  /** The fake clock's now, for "expires in 3 days". */
  now: string | null
}) {
  const names = useUsernames(props.refresh)
  const reused = useReuseRevoked(props.refresh)
  const [page, setPage] = useState(1)
  const [perPage, setPerPage] = useState(20)
  const [rows, setRows] = useState<readonly TokenRow[]>([])
  const [info, setInfo] = useState<PageInfo | null>(null)
  const [error, setError] = useState<string | null>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: new filters or page size start at page 1
  useEffect(() => setPage(1), [props.filters, perPage])
  // biome-ignore lint/correctness/useExhaustiveDependencies: refresh is the trigger to fetch again
  useEffect(() => {
    let live = true
    call<readonly TokenRow[]>('GET', `tokens?${query(props.filters, page, perPage)}`).then((answer) => {
      if (!live) return
      if (!answer.ok || !Array.isArray(answer.body)) {
        setError(failure(answer))
        setRows([])
        setInfo(null)
        return
      }
      setError(null)
      setRows(answer.body)
      setInfo(pageInfo(answer.headers))
    })
    return () => {
      live = false
    }
  }, [props.filters, page, perPage, props.refresh])
  return html`<section aria-labelledby="tokens-heading">
    <h2 id="tokens-heading">Tokens</h2>
    <${Filters} filters=${props.filters} apply=${props.setFilters} />
    <label class="per-page">Tokens per page
      <select value=${String(perPage)} onChange=${(event: Event) => setPerPage(Number((event.target as HTMLSelectElement).value))}>
        ${[20, 50, 100].map((n) => html`<option key=${n} value=${String(n)}>${n}</option>`)}
      </select>
    </label>
    ${error !== null && html`<p role="alert" class="error">${error}</p>`}
    <div class="table-scroll" role="region" aria-label="Tokens table" tabIndex="0">
    <table class="tokens">
      <caption class="visually-hidden">Tokens matching the filters</caption>
      <thead><tr>
        <th scope="col">ID</th><th scope="col">Name</th><th scope="col">User</th><th scope="col">State</th>
        <th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col">Family</th>
      </tr></thead>
      <tbody>
        ${rows.map(
          (
            row,
          ) => html`<tr key=${row.id} data-token-id=${row.id} class=${row.id === props.selected ? 'selected' : ''}>
            <td>${row.id}</td><td>${row.name}</td><td>${userLabel(names, row.user_id)}</td>
            <td><${StateBadge} state=${rowState(row, reused)} /></td>
            <td><${Scopes} row=${row} /></td>
            <td>${shortTime(row.created_at)}</td>
            <td>${shortTime(row.expires_at)}${row.expires_at !== null && html`<br /><span class="relative">${relativeTime(row.expires_at, props.now)}</span>`}</td>
            <td>${shortTime(row.last_used_at)}${row.last_used_at !== null && html`<br /><span class="relative">${relativeTime(row.last_used_at, props.now)}</span>`}</td>
            <td><button type="button" class="link" onClick=${() => props.select(row.id)}>Family of #${row.id}</button></td>
          </tr>`,
        )}
      </tbody>
    </table>
    </div>
    ${rows.length === 0 && error === null && html`<p>No token matches.</p>`}
    <${Pager} label="Tokens" info=${info} go=${setPage} />
    ${props.selected !== null && html`<${FamilyView} tokenId=${props.selected} row=${rows.find((row) => row.id === props.selected)} refresh=${props.refresh} close=${() => props.select(null)} />`}
  </section>`
}
