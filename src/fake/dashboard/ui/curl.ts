// "Copy as curl" for the GitLab routes of one token: never a real secret, a placeholder the user
// replaces (the dashboard never holds secrets).

export const SECRET_PLACEHOLDER = '<your-token>'

/** One GitLab route of a token: what it does and its method and path. */
export interface TokenRoute {
  readonly label: string
  readonly method: 'GET' | 'POST' | 'DELETE'
  readonly path: string
}

/** The token routes a client calls for token `id` (the self routes act on the presented token). */
export function tokenRoutes(id: number): readonly TokenRoute[] {
  return [
    { label: 'Show', method: 'GET', path: `/api/v4/personal_access_tokens/${id}` },
    { label: 'Rotate', method: 'POST', path: `/api/v4/personal_access_tokens/${id}/rotate` },
    { label: 'Revoke', method: 'DELETE', path: `/api/v4/personal_access_tokens/${id}` },
    { label: 'Show self', method: 'GET', path: '/api/v4/personal_access_tokens/self' },
    { label: 'Rotate self', method: 'POST', path: '/api/v4/personal_access_tokens/self/rotate' },
    { label: 'Revoke self', method: 'DELETE', path: '/api/v4/personal_access_tokens/self' },
  ]
}

/** A shell-ready curl command for `route` against `origin`, the secret a placeholder. */
export function curlCommand(origin: string, route: TokenRoute): string {
  const method = route.method === 'GET' ? '' : ` --request ${route.method}`
  return `curl${method} --header 'PRIVATE-TOKEN: ${SECRET_PLACEHOLDER}' '${origin}${route.path}'`
}
