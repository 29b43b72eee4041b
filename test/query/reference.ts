import type { Token } from '../../src/domain/token.js'
import type { ListQuery, SortKey, TokenFilter } from '../../src/query/filter.js'

// A brute-force reference for the property tests, written from the rules in shared/design.md and
// GitLab's source (lib/gitlab/sql/pattern.rb, the model's scopes); it shares no code with src/query.

const midnightUtc = (d: string) => Date.parse(`${d}T00:00:00.000Z`)

export function referenceSearchMatches(name: string, search: string): boolean {
  const words = search.split(/\p{White_Space}+/u).filter((w) => w.length > 0)
  if (words.length === 0) return true
  // A quoted phrase opens at the start of a word with `"` and closes at the next `"`, which must end a
  // word; the text between must be non-empty.
  const plain: string[] = []
  const phrases: string[] = []
  let i = 0
  while (i < words.length) {
    const word = words[i] as string
    let closedAt = -1
    if (word.startsWith('"')) {
      let joined = word.slice(1)
      for (let j = i; j < words.length; j++) {
        if (j > i) joined += ` ${words[j]}`
        const quote = joined.indexOf('"')
        if (quote === -1) continue
        if (quote === joined.length - 1 && quote > 0) closedAt = j
        break
      }
    }
    if (closedAt === -1) {
      plain.push(word)
      i += 1
    } else {
      phrases.push(
        words
          .slice(i, closedAt + 1)
          .join(' ')
          .slice(1, -1),
      )
      i = closedAt + 1
    }
  }
  const long = [...plain, ...phrases].filter((t) => Array.from(t).length >= 3)
  const lower = name.toLowerCase()
  if (long.length === 0) return lower === words.join(' ').toLowerCase()
  return long.every((t) => lower.indexOf(t.toLowerCase()) !== -1)
}

function referenceMatches(t: Token, f: TokenFilter, now: Date): boolean {
  const checks: boolean[] = []
  if (f.userId !== undefined) checks.push(t.userId === f.userId)
  if (f.excludeImpersonation) checks.push(!t.impersonation)
  if (f.impersonationOnly) checks.push(t.impersonation)
  if (f.createdAfter) checks.push(t.createdAt.toISOString() >= f.createdAfter.toISOString())
  if (f.createdBefore) checks.push(t.createdAt.toISOString() <= f.createdBefore.toISOString())
  if (f.lastUsedAfter) checks.push(t.lastUsedAt !== null && +t.lastUsedAt >= +f.lastUsedAfter)
  if (f.lastUsedBefore) checks.push(t.lastUsedAt !== null && +t.lastUsedAt <= +f.lastUsedBefore)
  if (f.expiresAfter)
    checks.push(t.expiresAt !== null && midnightUtc(t.expiresAt) >= midnightUtc(f.expiresAfter))
  if (f.expiresBefore)
    checks.push(t.expiresAt !== null && midnightUtc(t.expiresAt) < midnightUtc(f.expiresBefore))
  if (f.revoked !== undefined) checks.push(t.revoked === f.revoked)
  const expired = t.expiresAt !== null && +now >= midnightUtc(t.expiresAt)
  if (f.state === 'active') checks.push(!t.revoked && !expired)
  if (f.state === 'inactive') checks.push(t.revoked || expired)
  if (f.search !== undefined) checks.push(referenceSearchMatches(t.name, f.search))
  return checks.every(Boolean)
}

function utf8Compare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))
}

// Ascending comparison of the sort column, NULL being greater than everything (PostgreSQL).
function column(sort: SortKey, a: Token, b: Token): number {
  const nullable = (x: number | null, y: number | null) =>
    x === null && y === null ? 0 : x === null ? 1 : y === null ? -1 : x - y
  if (sort.startsWith('name')) return utf8Compare(a.name, b.name)
  if (sort.startsWith('created')) return +a.createdAt - +b.createdAt
  if (sort.startsWith('expires')) {
    return nullable(a.expiresAt && midnightUtc(a.expiresAt), b.expiresAt && midnightUtc(b.expiresAt))
  }
  if (sort.startsWith('last_used'))
    return nullable(a.lastUsedAt && +a.lastUsedAt, b.lastUsedAt && +b.lastUsedAt)
  return 0
}

export function referenceList(all: Token[], q: ListQuery): { ids: number[]; total: number } {
  const descending = q.sort.endsWith('_desc') || q.sort === 'created_date'
  const kept = all.filter((t) => referenceMatches(t, q.filter, q.now))
  const ordered = kept.sort((a, b) => {
    const c = column(q.sort, a, b) || a.id - b.id
    return descending ? -c : c
  })
  const start = (q.page.page - 1) * q.page.perPage
  return { ids: ordered.slice(start, start + q.page.perPage).map((t) => t.id), total: kept.length }
}
