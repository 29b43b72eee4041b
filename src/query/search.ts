/**
 * GitLab's fuzzy name search as data, so the in-memory predicate and a SQL compiler apply the very same
 * rule: `none` matches every name; `exact` a name equal to `value` ignoring case; `terms` a name that
 * contains every term ignoring case. `%` and `_` are ordinary characters in every case.
 *
 * @example
 * ```ts
 * import type { SearchPlan } from 'patkit/store'
 * const plan: SearchPlan = { kind: 'terms', terms: ['deploy', 'prod'] }
 * ```
 */
export type SearchPlan =
  | { readonly kind: 'none' }
  | { readonly kind: 'exact'; readonly value: string }
  | { readonly kind: 'terms'; readonly terms: readonly string[] }

/**
 * Shortest term GitLab matches as a substring (`MIN_CHARS_FOR_PARTIAL_MATCHING`), in characters.
 */
const MIN_SEARCH_TERM_LENGTH = 3

// GitLab's REGEX_QUOTED_TERM: a quoted phrase only counts when it stands alone between spaces.
const QUOTED_TERM = /(?<=^| )"[^"]+"(?= |$)/g

/**
 * Turns a `search` value into a {@link SearchPlan}, as GitLab's `fuzzy_arel_match`
 * (lib/gitlab/sql/pattern.rb) does: squish the query (trim, collapse whitespace); empty means no filter.
 * Split it into terms, a double-quoted phrase standing between spaces being one term without its quotes;
 * keep the terms of at least 3 characters. If any remain, the name must contain all of them; if none
 * does, the name must equal the whole squished query (quotes included).
 *
 * @example
 * ```ts
 * import { parseSearch } from 'patkit/store'
 * parseSearch('  deploy  "prod east" ci ') // { kind: 'terms', terms: ['deploy', 'prod east'] }
 * parseSearch('ci') // { kind: 'exact', value: 'ci' }
 * parseSearch('   ') // { kind: 'none' }
 * ```
 */
export function parseSearch(query: string): SearchPlan {
  const squished = squish(query)
  if (squished === '') return { kind: 'none' }
  const quoted: string[] = []
  const rest = squished.replace(QUOTED_TERM, (phrase) => {
    quoted.push(phrase.slice(1, -1))
    return ''
  })
  const terms = [...rest.split(' ').filter((word) => word !== ''), ...quoted].filter(
    // Ruby counts characters, not UTF-16 units: an emoji is one.
    (term) => [...term].length >= MIN_SEARCH_TERM_LENGTH,
  )
  return terms.length > 0 ? { kind: 'terms', terms } : { kind: 'exact', value: squished }
}

/** Whether a token name satisfies a {@link SearchPlan}, ignoring case through {@link foldCase}. */
export function matchesSearch(name: string, plan: SearchPlan): boolean {
  return searchMatcher(plan)(name)
}

/**
 * {@link matchesSearch} prepared once for many names: the plan's value and terms are folded here, not
 * once per name.
 */
export function searchMatcher(plan: SearchPlan): (name: string) => boolean {
  switch (plan.kind) {
    case 'none':
      return () => true
    case 'exact': {
      const value = foldCase(plan.value)
      return (name) => foldCase(name) === value
    }
    case 'terms': {
      const terms = plan.terms.map(foldCase)
      return (name) => {
        const folded = foldCase(name)
        for (const term of terms) if (!folded.includes(term)) return false
        return true
      }
    }
  }
}

/**
 * The case fold search uses: `String.prototype.toLowerCase` (locale-independent Unicode lower case).
 * Every store must fold names and terms exactly this way to give the same answers. Databases differ
 * beyond ASCII (SQLite's `lower()` and `LIKE` fold ASCII only; PostgreSQL's `ILIKE` follows the
 * collation), so a SQL store that must agree everywhere compares against a name folded here, in
 * JavaScript, with `%`, `_` and the escape character escaped in the pattern.
 */
export function foldCase(text: string): string {
  return text.toLowerCase()
}

// Rails' String#squish: every run of Unicode white space becomes one space, then the ends are trimmed.
function squish(text: string): string {
  return text.replace(/\p{White_Space}+/gu, ' ').replace(/^ | $/g, '')
}
