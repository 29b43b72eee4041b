// Instants as the fake's clock gives them, shortened for tables; the full ISO text in the title.
export function shortTime(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) return 'never'
  return iso.replace('T', ' ').replace(/\.\d{3}Z$|Z$/, ' UTC')
}
