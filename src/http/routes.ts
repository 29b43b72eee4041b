/** The operations the handler serves. */
export type RouteName = 'list' | 'get' | 'revoke' | 'rotate' | 'create_for_user' | 'create_self'

interface RouteShape {
  readonly pattern: RegExp
  readonly methods: Readonly<Record<string, RouteName>>
  /** Body parameters the route knows; anything else is refused. */
  readonly bodyParams: Readonly<Partial<Record<RouteName, readonly string[]>>>
}

const CREATE_PARAMS = ['name', 'scopes', 'description', 'expires_at']

// `/self` needs no special pattern: it is the `:id` segment, resolved by the handler.
const ROUTES: readonly RouteShape[] = [
  { pattern: /^\/personal_access_tokens$/, methods: { GET: 'list', HEAD: 'list' }, bodyParams: {} },
  {
    pattern: /^\/personal_access_tokens\/([^/]+)$/,
    methods: { GET: 'get', HEAD: 'get', DELETE: 'revoke' },
    bodyParams: { revoke: [] },
  },
  {
    pattern: /^\/personal_access_tokens\/([^/]+)\/rotate$/,
    methods: { POST: 'rotate' },
    bodyParams: { rotate: ['expires_at'] },
  },
  {
    pattern: /^\/users\/([^/]+)\/personal_access_tokens$/,
    methods: { POST: 'create_for_user' },
    bodyParams: { create_for_user: CREATE_PARAMS },
  },
  {
    pattern: /^\/user\/personal_access_tokens$/,
    methods: { POST: 'create_self' },
    bodyParams: { create_self: CREATE_PARAMS },
  },
]

/** What the path and method resolve to. */
export type RouteMatch =
  | {
      readonly kind: 'route'
      readonly name: RouteName
      readonly segment: string | undefined
      readonly bodyParams: readonly string[] | undefined
    }
  | { readonly kind: 'method_not_allowed'; readonly allow: readonly string[] }
  | { readonly kind: 'not_found' }

/** Matches a path relative to the base path. A single trailing slash is ignored. */
export function matchRoute(method: string, path: string): RouteMatch {
  const normalized = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
  for (const route of ROUTES) {
    const match = route.pattern.exec(normalized)
    if (match === null) continue
    const name = route.methods[method]
    if (name === undefined) return { kind: 'method_not_allowed', allow: Object.keys(route.methods) }
    let segment: string | undefined
    try {
      segment = match[1] === undefined ? undefined : decodeURIComponent(match[1])
    } catch {
      segment = match[1]
    }
    return { kind: 'route', name, segment, bodyParams: route.bodyParams[name] }
  }
  return { kind: 'not_found' }
}
