import type { RouteRow } from './route.js'

/** What the table reads of a row: its method and path template; the rest is the caller's. */
export interface TableRow {
  readonly method: string
  /** `:name` is a path parameter (one non-empty segment). */
  readonly path: string
  /** Patterns a path parameter must match as sent, else the path is no route. */
  readonly requirements?: Readonly<Record<string, RegExp>> | undefined
}

/** How a table reads paths and methods; GitLab's rules by default. */
export interface RouteTableOptions {
  /**
   * Paths and methods exactly as the rows write them: no HEAD for a GET row, no trailing slash, and
   * parameters as sent (not percent-decoded). The control API's rules; GitLab's API has none of them.
   */
  readonly exact?: boolean
}

/** What a method and a path (relative to the base path) resolve to. */
export type RouteMatch<R extends TableRow = RouteRow> =
  | { readonly kind: 'route'; readonly row: R; readonly path: Readonly<Record<string, string>> }
  | { readonly kind: 'method_not_allowed'; readonly allow: string }
  | { readonly kind: 'not_found' }

/** A path template with the rows that serve it, by method. */
interface Template<R extends TableRow> {
  /** A literal segment as sent, or a parameter's name and requirement. */
  readonly segments: readonly (string | { readonly name: string; readonly requirement?: RegExp })[]
  readonly rows: ReadonlyMap<string, R>
  /** The `Allow` header of a 405: the methods in row order, HEAD after GET. */
  readonly allow: string
}

/** The routes of every module, compiled once: `match` is a split and a few string comparisons. */
export interface RouteTable<R extends TableRow = RouteRow> {
  match(method: string, path: string): RouteMatch<R>
}

const NOT_FOUND: { readonly kind: 'not_found' } = Object.freeze({ kind: 'not_found' })
const NO_PARAMETERS: Readonly<Record<string, string>> = Object.freeze({})

/**
 * Compiles route rows. Rows with the same path (and requirements) share one template; a path matches
 * the first template that fits it, and a method no row of that template has is a 405 with `Allow`.
 * Literal segments compare as sent (`/personal_%61ccess_tokens` is no route); parameters are
 * percent-decoded (kept as sent when they do not decode). A single trailing slash is ignored.
 * With `exact`, none of that leniency: see {@link RouteTableOptions}.
 */
export function routeTable<R extends TableRow = RouteRow>(
  rows: readonly R[],
  options: RouteTableOptions = {},
): RouteTable<R> {
  const exact = options.exact === true
  const byPath = new Map<string, { rows: R[]; requirements: TableRow['requirements'] }>()
  for (const row of rows) {
    const key = `${row.path} ${Object.entries(row.requirements ?? {})
      .map(([name, pattern]) => `${name}=${pattern.source}`)
      .join(',')}`
    const entry = byPath.get(key)
    if (entry === undefined) byPath.set(key, { rows: [row], requirements: row.requirements })
    else entry.rows.push(row)
  }
  // Templates by number of segments: a path is compared only with those of its length.
  const bySize = new Map<number, Template<R>[]>()
  for (const { rows: served, requirements } of byPath.values()) {
    const template = compile(served, requirements, exact)
    const size = template.segments.length
    bySize.set(size, [...(bySize.get(size) ?? []), template])
  }
  const find = (method: string, path: string): RouteMatch<R> => {
    const normalized = !exact && path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
    const parts = normalized.split('/')
    // The path starts with `/`: parts[0] is empty.
    const candidates = bySize.get(parts.length - 1)
    if (candidates === undefined) return NOT_FOUND
    for (const template of candidates) {
      if (!fits(template, parts)) continue
      const row = template.rows.get(method)
      if (row === undefined) return Object.freeze({ kind: 'method_not_allowed', allow: template.allow })
      return Object.freeze({ kind: 'route', row, path: parameters(template, parts, !exact) })
    }
    return NOT_FOUND
  }
  // Clients ask for the same few paths over and over (`/personal_access_tokens/self` above all): a
  // match is remembered per method and path, in a map cleared when full, so that no variety of paths
  // can grow it. Matches are frozen, so every request may share one.
  const remembered = new Map<string, Map<string, RouteMatch<R>>>()
  const methods = rows.map((row) => row.method)
  for (const method of new Set(exact ? methods : [...methods, 'HEAD'])) remembered.set(method, new Map())
  return {
    match(method, path) {
      const byPath = remembered.get(method)
      if (byPath === undefined || path.length > MAX_REMEMBERED_PATH) return find(method, path)
      let match = byPath.get(path)
      if (match === undefined) {
        match = find(method, path)
        if (byPath.size >= MAX_REMEMBERED) byPath.clear()
        byPath.set(path, match)
      }
      return match
    },
  }
}

const MAX_REMEMBERED = 1024
const MAX_REMEMBERED_PATH = 256

function compile<R extends TableRow>(
  rows: readonly R[],
  requirements: TableRow['requirements'],
  exact: boolean,
): Template<R> {
  const [first] = rows
  const segments = (first?.path ?? '/')
    .slice(1)
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment
      const name = segment.slice(1)
      const requirement = requirements?.[name]
      return requirement === undefined ? { name } : { name, requirement }
    })
  const byMethod = new Map<string, R>()
  const allow: string[] = []
  for (const row of rows) {
    if (byMethod.has(row.method)) throw new Error(`patkit/http: two ${row.method} rows for ${row.path}`)
    byMethod.set(row.method, row)
    allow.push(row.method)
    if (row.method === 'GET' && !exact) {
      byMethod.set('HEAD', row)
      allow.push('HEAD')
    }
  }
  return { segments, rows: byMethod, allow: allow.join(', ') }
}

function fits<R extends TableRow>(template: Template<R>, parts: readonly string[]): boolean {
  for (let i = 0; i < template.segments.length; i++) {
    const segment = template.segments[i]
    const part = parts[i + 1] ?? ''
    if (segment === undefined || typeof segment === 'string') {
      if (segment !== part) return false
    } else if (part === '' || (segment.requirement !== undefined && !segment.requirement.test(part))) {
      return false
    }
  }
  return true
}

function parameters<R extends TableRow>(
  template: Template<R>,
  parts: readonly string[],
  decode: boolean,
): Readonly<Record<string, string>> {
  let found: Record<string, string> | undefined
  for (let i = 0; i < template.segments.length; i++) {
    const segment = template.segments[i]
    if (segment === undefined || typeof segment === 'string') continue
    found ??= {}
    const part = parts[i + 1] ?? ''
    found[segment.name] = decode ? decodeSegment(part) : part
  }
  return found === undefined ? NO_PARAMETERS : Object.freeze(found)
}

function decodeSegment(raw: string): string {
  if (!raw.includes('%')) return raw
  try {
    return decodeURIComponent(raw)
  } catch {
    return raw
  }
}
