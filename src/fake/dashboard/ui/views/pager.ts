import type { PageInfo } from '../api.js'
import { html } from '../html.js'

// Previous/next page buttons and "page 2 of 5,000 (100,000)" from GitLab's pagination headers.
export function Pager(props: { label: string; info: PageInfo | null; go: (page: number) => void }) {
  const { info } = props
  if (info === null) return null
  const of = info.totalPages === null ? '' : ` of ${info.totalPages.toLocaleString('en')}`
  const total = info.total === null ? '' : ` (${info.total.toLocaleString('en')} in all)`
  return html`<nav class="pager" aria-label=${`${props.label} pages`}>
    <button type="button" disabled=${info.prev === null} onClick=${() => info.prev !== null && props.go(info.prev)}>
      Previous page
    </button>
    <span aria-live="polite">Page ${info.page}${of}${total}</span>
    <button type="button" disabled=${info.next === null} onClick=${() => info.next !== null && props.go(info.next)}>
      Next page
    </button>
  </nav>`
}
