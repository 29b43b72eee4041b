// Rack's nested parameter names (Rack::QueryParser#normalize_params, rack/rack
// lib/rack/query_parser.rb), for the arrays of hashes GitLab's Grape params take from a form body:
// `granular_scopes[][access]=user&granular_scopes[][permissions][]=read_user`. The key is the first
// run of characters that are not brackets; what follows decides the shape:
//   `k`                 params[k] = v
//   `k[]`               push v onto the array params[k]
//   `k[][child]`, `k[]…` an array of hashes: `child` goes into the array's last hash, unless that
//                       hash has `child` already (a child name holding `[]` never "has" it), then
//                       into a new hash pushed onto the array
//   `k[child]…`         the hash params[k], recursively
// A name that wants an array where a string or hash is (or the reverse) is Rack's ParameterTypeError,
// which GitLab answers as a bad request: `undefined` here. Rack also bounds the depth of a name.

/** A parsed form's nested hash: no prototype, so `__proto__` and `constructor` are plain names. */
type Hash = Record<string, unknown>

/** A name nested deeper than this is refused, as Rack refuses one past its param_depth_limit. */
const DEPTH_LIMIT = 32

const KEY = /^[[\]]*([^[\]]+)\]*/
const HASH_CHILD = /^\[\]\[([^[\]]+)\]$/
const ANY_CHILD = /^\[\](.+)$/

/** A fresh hash without a prototype. */
function emptyHash(): Hash {
  return Object.create(null) as Hash
}

function isHash(value: unknown): value is Hash {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

// Rack's params_hash_has_key?: a key path such as `a[b]` is there when every step is a hash holding it.
function hasKey(hash: Hash, key: string): boolean {
  if (key.includes('[]')) return false
  let at: unknown = hash
  for (const part of key.split(/[[\]]+/)) {
    if (part === '') continue
    if (!isHash(at) || !Object.hasOwn(at, part)) return false
    at = at[part]
  }
  return true
}

/** Whether a form name is an array of hashes, `k[][…]`: the only nested form the parser reads. */
export function isArrayOfHashesName(name: string): boolean {
  return /^[^[\]]+\[\]\[/.test(name)
}

/**
 * Adds `name=value` to `params` as Rack's normalize_params does. Returns what Rack returns (the hash,
 * or for a name without a key an array or nothing), or `false` where Rack raises.
 */
export function normalizeParam(
  params: Hash,
  name: string,
  value: string,
  depth = DEPTH_LIMIT,
): Hash | string[] | undefined | false {
  if (depth <= 0) return false
  const match = KEY.exec(name)
  const key = match?.[1]
  if (match === null || key === undefined) return name === '[]' ? [value] : undefined
  const after = name.slice(match[0].length)
  if (after === '') {
    params[key] = value
    return params
  }
  if (after === '[') {
    params[name] = value
    return params
  }
  const existing = params[key]
  if (after === '[]') {
    if (existing !== undefined && !Array.isArray(existing)) return false
    params[key] = [...(existing ?? []), value]
    return params
  }
  const child = HASH_CHILD.exec(after)?.[1] ?? ANY_CHILD.exec(after)?.[1]
  if (child !== undefined) {
    if (existing !== undefined && !Array.isArray(existing)) return false
    const list: unknown[] = existing ?? []
    params[key] = list
    const last = list.at(-1)
    if (isHash(last) && !hasKey(last, child)) {
      return normalizeParam(last, child, value, depth - 1) === false ? false : params
    }
    const made = normalizeParam(emptyHash(), child, value, depth - 1)
    if (made === false) return false
    list.push(made)
    return params
  }
  const hash = existing ?? emptyHash()
  if (!isHash(hash)) return false
  const nested = normalizeParam(hash, after, value, depth - 1)
  if (nested === false) return false
  params[key] = nested
  return params
}
