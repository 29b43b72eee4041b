/**
 * GitLab's `status` filter of a hook's events: HTTP codes, or `successful` (2xx), `client_failure`
 * (4xx), `server_failure` (5xx and `internal error`).
 *
 * @example
 * ```ts
 * import type { HookLogStatus } from 'patkit/authority'
 * const statuses: HookLogStatus[] = ['successful', 404]
 * ```
 */
export type HookLogStatus = 'successful' | 'client_failure' | 'server_failure' | number

/** Whether a log's `response_status` (a code as text, or `internal error`) is one of `wanted`; none wanted: all. */
export function hookLogStatusMatches(status: string, wanted: readonly HookLogStatus[]): boolean {
  if (wanted.length === 0) return true
  const code = /^\d{3}$/.test(status) ? Number(status) : null
  return wanted.some((w) => {
    if (typeof w === 'number') return code === w
    if (w === 'successful') return code !== null && code >= 200 && code < 300
    if (w === 'client_failure') return code !== null && code >= 400 && code < 500
    return code === null || code >= 500
  })
}
