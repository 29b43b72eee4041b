import type { RouteRow } from './route.js'

/** What a method and a path (relative to the base path) resolve to. */
export type RouteMatch =
  | { readonly kind: 'route'; readonly row: RouteRow; readonly path: Readonly<Record<string, string>> }
  | { readonly kind: 'method_not_allowed'; readonly allow: string }
  | { readonly kind: 'not_found' }

/** A path template with the rows that serve it, by method. */
interface Template {
  /** A literal segment as sent, or a parameter's name and requirement. */
  readonly segments: readonly (string | { readonly name: string; readonly requirement?: RegExp })[]
  readonly rows: ReadonlyMap<string, RouteRow>
  /** The `Allow` header of a 405: the methods in row order, HEAD after GET. */
  readonly allow: string
}

/** The routes of every module, compiled once: `match` is a split and a few string comparisons. */
export interface RouteTable {
  match(method: string, path: string): RouteMatch
}

const NOT_FOUND: RouteMatch = Object.freeze({ kind: 'not_found' })
const NO_PARAMETERS: Readonly<Record<string, string>> = Object.freeze({})

/**
 * Compiles route rows. Rows with the same path (and requirements) share one template; a path matches
 * the first template that fits it, and a method no row of that template has is a 405 with `Allow`.
 * Literal segments compare as sent (`/personal_%61ccess_tokens` is no route); parameters are
 * percent-decoded (kept as sent when they do not decode). A single trailing slash is ignored.
 */
export function routeTable(rows: readonly RouteRow[]): RouteTable {
  const byPath = new Map<string, { rows: RouteRow[]; requirements: RouteRow['requirements'] }>()
  for (const row of rows) {
    const key = `${row.path} ${Object.entries(row.requirements ?? {})
      .map(([name, pattern]) => `${name}=${pattern.source}`)
      .join(',')}`
    const entry = byPath.get(key)
    if (entry === undefined) byPath.set(key, { rows: [row], requirements: row.requirements })
    else entry.rows.push(row)
  }
  // Templates by number of segments: a path is compared only with those of its length.
  const bySize = new Map<number, Template[]>()
  for (const { rows: served, requirements } of byPath.values()) {
    const template = compile(served, requirements)
    const size = template.segments.length
    bySize.set(size, [...(bySize.get(size) ?? []), template])
  }
  const find = (method: string, path: string): RouteMatch => {
    const normalized = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
    const parts = normalized.split('/')
    // The path starts with `/`: parts[0] is empty.
    const candidates = bySize.get(parts.length - 1)
    if (candidates === undefined) return NOT_FOUND
    for (const template of candidates) {
      if (!fits(template, parts)) continue
      const row = template.rows.get(method)
      if (row === undefined) return Object.freeze({ kind: 'method_not_allowed', allow: template.allow })
      return Object.freeze({ kind: 'route', row, path: parameters(template, parts) })
    }
    return NOT_FOUND
  }
  // Clients ask for the same few paths over and over (`/personal_access_tokens/self` above all): a
  // match is remembered per method and path, in a map cleared when full, so that no variety of paths
  // can grow it. Matches are frozen, so every request may share one.
  const remembered = new Map<string, Map<string, RouteMatch>>()
  for (const method of new Set([...rows.map((row) => row.method), 'HEAD'])) remembered.set(method, new Map())
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

function compile(rows: readonly RouteRow[], requirements: RouteRow['requirements']): Template {
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
  const byMethod = new Map<string, RouteRow>()
  const allow: string[] = []
  for (const row of rows) {
    if (byMethod.has(row.method)) throw new Error(`patkit/http: two ${row.method} rows for ${row.path}`)
    byMethod.set(row.method, row)
    allow.push(row.method)
    if (row.method === 'GET') {
      byMethod.set('HEAD', row)
      allow.push('HEAD')
    }
  }
  return { segments, rows: byMethod, allow: allow.join(', ') }
}

function fits(template: Template, parts: readonly string[]): boolean {
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

function parameters(template: Template, parts: readonly string[]): Readonly<Record<string, string>> {
  let found: Record<string, string> | undefined
  for (let i = 0; i < template.segments.length; i++) {
    const segment = template.segments[i]
    if (segment === undefined || typeof segment === 'string') continue
    found ??= {}
    found[segment.name] = decodeSegment(parts[i + 1] ?? '')
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
