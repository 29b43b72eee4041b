// The path and query of a request as the journal shows them: never a credential. A query parameter
// whose name says it carries one has its value replaced by `[FILTERED]`, as GitLab's logs do with its
// `filter_parameters` (config/application.rb: /token$/, /password/, /secret/, /key$/, otp_attempt),
// here in any case (`private_token`, `PRIVATE_TOKEN`, `access_token`, `job_token`, `api_key`, and
// `passwd` too). A name that only contains `token` (`resource_access_token_events`, `token_id`) is
// shown, as GitLab logs it. A target that does not parse is never shown raw: its query and any user
// information go.

const FILTERED = '[FILTERED]'

// What a credential-bearing parameter name contains (lower case), or how it ends.
const SECRET_NAME = /token$|password|passwd|secret|otp_attempt|key$/

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '))
  } catch {
    return raw // a malformed escape: judge the name as written
  }
}

/**
 * Whether a query parameter's name (decoded) names a credential. A bracketed name (`private_token[]`,
 * `a[api_key]`) does when any of its keys does, as Rails filters nested parameters.
 */
export function isSecretParameter(name: string): boolean {
  const lower = name.toLowerCase()
  if (SECRET_NAME.test(lower)) return true
  return lower.includes('[') && lower.split(/[[\]]+/).some((key) => key !== '' && SECRET_NAME.test(key))
}

// The query (without its `?`) with each credential's value replaced; every other byte kept as sent.
function filteredQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=')
      const name = equals === -1 ? pair : pair.slice(0, equals)
      return equals !== -1 && isSecretParameter(decodedName(name)) ? `${name}=${FILTERED}` : pair
    })
    .join('&')
}

/**
 * The journal's `path` of a request: its URL's path and query with credentials filtered, or, when the
 * target did not parse (`url` null), the raw target up to its query, with user information removed
 * and any query shown as `?[FILTERED]`.
 */
export function journalPath(url: URL | null, raw: string | undefined): string {
  if (url !== null)
    return url.search === '' ? url.pathname : `${url.pathname}?${filteredQuery(url.search.slice(1))}`
  const target = raw ?? ''
  const cut = target.search(/[?#]/)
  const head = cut === -1 ? target : target.slice(0, cut)
  // `scheme://user:password@host/...`: the credentials of an absolute-form target.
  const withoutUser = head.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/]*@/i, `$1${FILTERED}@`)
  return cut === -1 ? withoutUser : `${withoutUser}?${FILTERED}`
}

/**
 * An absolute URL (a hook's) as the journal shows it: its query's credentials and any user information
 * filtered, as {@link journalPath} does for a request's target.
 */
export function journalUrl(raw: string): string {
  if (!URL.canParse(raw)) return journalPath(null, raw)
  const url = new URL(raw)
  const user = url.username === '' && url.password === '' ? '' : `${FILTERED}@`
  return `${url.protocol}//${user}${url.host}${journalPath(url, raw)}`
}
