import { isArrayOfHashesName, normalizeParam } from './nested-form-params.js'

/**
 * Request parameters: JSON values from a JSON body, or from a form or a query strings, string arrays
 * and arrays of hashes (`granular_scopes[][access]=…`).
 */
export type Params = Readonly<Record<string, unknown>>

// A `%` not followed by two hex digits: Rack refuses to unescape it, in a name as in a value.
const BAD_ESCAPE = /%(?![0-9A-Fa-f]{2})/

/**
 * Decodes one `application/x-www-form-urlencoded` component strictly (`+` is a space), or returns
 * undefined for a bad `%` escape or bytes that are not UTF-8, which Rack and Rails refuse too. (A
 * `URLSearchParams` would keep `%zz` as is and turn `%C0` into U+FFFD instead.)
 */
export function decodeComponent(text: string): string | undefined {
  const spaced = text.includes('+') ? text.replaceAll('+', ' ') : text
  if (!spaced.includes('%')) return spaced
  try {
    return decodeURIComponent(spaced)
  } catch {
    return undefined
  }
}

/**
 * Parses a form body or a query string (without its `?`) as GitLab's Rack does, or returns undefined
 * where Rack refuses it: a bad `%` escape anywhere, or a value that is not UTF-8 (Rails checks the
 * encoding of values only, so such a name is kept, decoded leniently). Rails' `scopes[]=a&scopes[]=b`
 * is an array; a repeated plain name keeps its last value, as Rack does. An array of hashes
 * (`granular_scopes[][access]=user&granular_scopes[][permissions][]=read_user`) is grouped as Rack
 * groups it (nested-form-params.ts), and a name that conflicts with its shape is refused as Rack
 * refuses it. Other bracketed names (`a[b]`, `a[0][b]`) stay plain names.
 */
export function parseForm(text: string): Params | undefined {
  // No prototype: a name such as `__proto__[]` or `constructor` is a parameter like any other.
  const out: Record<string, unknown> = Object.create(null)
  if (text === '') return out
  for (const pair of text.split('&')) {
    if (pair === '') continue
    const at = pair.indexOf('=')
    const rawName = at === -1 ? pair : pair.slice(0, at)
    if (BAD_ESCAPE.test(rawName)) return undefined
    const value = at === -1 ? '' : decodeComponent(pair.slice(at + 1))
    if (value === undefined) return undefined
    const name = decodeComponent(rawName) ?? new URLSearchParams(`${rawName}=`).keys().next().value ?? rawName
    if (isArrayOfHashesName(name)) {
      if (normalizeParam(out, name, value) === false) return undefined
    } else if (name.endsWith('[]')) {
      const key = name.slice(0, -2)
      const list = out[key]
      out[key] = Array.isArray(list) ? [...list, value] : [value]
    } else out[name] = value
  }
  return out
}
