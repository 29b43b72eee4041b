// GitLab's webhook request headers: `app/services/web_hook_service.rb#build_headers`; the header names
// from `lib/gitlab/web_hooks.rb` and `lib/gitlab/web_hooks/recursion_detection/uuid.rb`.

/**
 * The `X-Gitlab-Event` of an access-token expiry notice (`resource_access_token_hooks` titleized).
 *
 * @example
 * ```ts
 * import { RESOURCE_ACCESS_TOKEN_HOOK_EVENT } from 'patkit/webhooks'
 * RESOURCE_ACCESS_TOKEN_HOOK_EVENT // 'Resource Access Token Hook'
 * ```
 */
export const RESOURCE_ACCESS_TOKEN_HOOK_EVENT = 'Resource Access Token Hook'

/**
 * What {@link hookHeaders} needs.
 *
 * @example
 * ```ts
 * import { type HookHeadersInput, hookHeaders, uuidFrom } from 'patkit/webhooks'
 * import { cryptoRandom } from 'patkit/authority'
 * const input: HookHeadersInput = { gitlabVersion: '18.11.0', instanceUrl: 'http://127.0.0.1:8080', uuid: uuidFrom(cryptoRandom), token: 's3cret' }
 * const headers = hookHeaders(input)
 * ```
 */
export interface HookHeadersInput {
  /** The emulated GitLab version, sent as `User-Agent: GitLab/<version>`. */
  readonly gitlabVersion: string
  /** The instance's base URL, sent as `X-Gitlab-Instance`. */
  readonly instanceUrl: string
  /** The hook's secret token, sent as `X-Gitlab-Token`; absent when the hook has none. */
  readonly token?: string | undefined
  /** A fresh UUID per call (GitLab's `SecureRandom.uuid`). */
  readonly uuid: () => string
  /** The delivery's idempotency key; a fresh UUID when absent. */
  readonly idempotencyKey?: string | undefined
  /**
   * The `X-Gitlab-Event-UUID`: GitLab shares one per hook per worker run; a fresh UUID when absent.
   */
  readonly eventUuid?: string | undefined
  /** The event name; {@link RESOURCE_ACCESS_TOKEN_HOOK_EVENT} when absent. */
  readonly event?: string | undefined
}

/**
 * The headers GitLab sends with a webhook delivery: `Content-Type`, `User-Agent`, `Idempotency-Key`,
 * `X-Gitlab-Event`, `X-Gitlab-Webhook-UUID` (fresh per request), `X-Gitlab-Event-UUID`,
 * `X-Gitlab-Instance`, and `X-Gitlab-Token` only when the hook has a token (line breaks removed, as GitLab).
 *
 * @example
 * ```ts
 * import { hookHeaders } from 'patkit/webhooks'
 * let n = 0
 * const headers = hookHeaders({
 *   gitlabVersion: '18.11.0', instanceUrl: 'http://127.0.0.1:8080',
 *   uuid: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
 * })
 * headers['X-Gitlab-Event'] // 'Resource Access Token Hook'
 * ```
 */
export function hookHeaders(input: HookHeadersInput): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': `GitLab/${input.gitlabVersion}`,
    'Idempotency-Key': input.idempotencyKey ?? input.uuid(),
    'X-Gitlab-Event': input.event ?? RESOURCE_ACCESS_TOKEN_HOOK_EVENT,
    'X-Gitlab-Webhook-UUID': input.uuid(),
    'X-Gitlab-Instance': input.instanceUrl,
  }
  if (input.token !== undefined && input.token !== '')
    headers['X-Gitlab-Token'] = input.token.replace(/[\r\n]/g, '')
  headers['X-Gitlab-Event-UUID'] = input.eventUuid ?? input.uuid()
  return headers
}

/**
 * The value a logged secret header is replaced with (GitLab's `WebHookLog#request_headers`).
 *
 * @example
 * ```ts
 * import { REDACTED } from 'patkit/webhooks'
 * REDACTED // '[REDACTED]'
 * ```
 */
export const REDACTED = '[REDACTED]'

/**
 * The headers as a delivery log keeps them: `X-Gitlab-Token` (any case) becomes `"[REDACTED]"`, as
 * GitLab's `WebHookLog#request_headers` shows it.
 *
 * @example
 * ```ts
 * import { redactHookHeaders } from 'patkit/webhooks'
 * redactHookHeaders({ 'X-Gitlab-Token': 's3cret' }) // { 'X-Gitlab-Token': '[REDACTED]' }
 * ```
 */
export function redactHookHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers))
    out[name] = name.toLowerCase() === 'x-gitlab-token' ? REDACTED : value
  return out
}

/**
 * A UUID v4 string from 16 random bytes: the bridge from patkit's injected `RandomSource` to the
 * `uuid` function {@link hookHeaders} takes.
 *
 * @example
 * ```ts
 * import { uuidFrom } from 'patkit/webhooks'
 * import { cryptoRandom } from 'patkit/authority'
 * const uuid = uuidFrom(cryptoRandom)
 * uuid().length // 36
 * ```
 */
export function uuidFrom(random: { bytes(length: number): Uint8Array }): () => string {
  return () => {
    const b = random.bytes(16)
    b[6] = ((b[6] ?? 0) & 0x0f) | 0x40
    b[8] = ((b[8] ?? 0) & 0x3f) | 0x80
    const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
  }
}
