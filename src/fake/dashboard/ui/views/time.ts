// Instants as the fake's clock gives them, shortened for tables; the full ISO text in the title.
export function shortTime(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) return 'never'
  return iso.replace('T', ' ').replace(/\.\d{3}Z$|Z$/, ' UTC')
}

const DAY = 86_400_000

/**
 * An instant or a day relative to the fake clock's now: `today`, `in 3 days`, `2 days ago`, `in 5 hours`;
 * empty when either is unknown.
 */
export function relativeTime(iso: string | null | undefined, now: string | null | undefined): string {
  if (iso === null || iso === undefined || now === null || now === undefined) return ''
  const then = Date.parse(iso.length === 10 ? `${iso}T00:00:00Z` : iso)
  const at = Date.parse(now)
  if (Number.isNaN(then) || Number.isNaN(at)) return ''
  const ms = then - at
  const days = Math.round(Math.abs(ms) / DAY)
  if (days === 0) {
    const hours = Math.round(Math.abs(ms) / 3_600_000)
    if (hours === 0) return 'now'
    return ms > 0 ? `in ${hours} hour${hours === 1 ? '' : 's'}` : `${hours} hour${hours === 1 ? '' : 's'} ago`
  }
  return ms > 0 ? `in ${days} day${days === 1 ? '' : 's'}` : `${days} day${days === 1 ? '' : 's'} ago`
}
