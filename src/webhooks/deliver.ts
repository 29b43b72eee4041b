import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP } from 'node:net'
import { systemMonotonic } from '../domain/clock.js'
import {
  type BlockedDestination,
  type CheckedDestination,
  checkDestination,
  type DestinationPolicy,
  type HostResolver,
  systemResolver,
} from './destination-policy.js'
import { redactHookHeaders } from './hook-headers.js'

/**
 * GitLab's `webhook_timeout` default: 10 seconds (`config/initializers/1_settings.rb`).
 *
 * @example
 * ```ts
 * import { DEFAULT_DELIVERY_TIMEOUT_MS } from 'patkit/webhooks'
 * DEFAULT_DELIVERY_TIMEOUT_MS // 10000
 * ```
 */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000

/**
 * The part of a response body a delivery record keeps: GitLab's log keeps 8 KB.
 *
 * @example
 * ```ts
 * import { RESPONSE_BODY_LIMIT } from 'patkit/webhooks'
 * RESPONSE_BODY_LIMIT // 8192
 * ```
 */
export const RESPONSE_BODY_LIMIT = 8 * 1024

/**
 * Why a delivery got no answer.
 *
 * @example
 * ```ts
 * import type { DeliveryError, DeliveryRecord } from 'patkit/webhooks'
 * declare const record: DeliveryRecord
 * const error: DeliveryError | null = record.error
 * if (error?.kind === 'blocked') console.warn(error.message)
 * ```
 */
export interface DeliveryError {
  readonly kind: 'timeout' | 'refused' | 'blocked' | 'network'
  readonly message: string
}

/**
 * One delivery attempt as a log keeps it; secret headers redacted.
 *
 * @example
 * ```ts
 * import { deliver, type DeliveryRecord } from 'patkit/webhooks'
 * const record: DeliveryRecord = await deliver({ url: 'http://127.0.0.1:9000/', headers: {}, body: '{}' })
 * const ok = record.status !== null && record.status < 300
 * ```
 */
export interface DeliveryRecord {
  readonly url: string
  readonly requestHeaders: Readonly<Record<string, string>>
  readonly requestBody: string
  /** The receiver's HTTP status, or null when there was no answer. A 3xx is an answer: never followed. */
  readonly status: number | null
  readonly responseHeaders: Readonly<Record<string, string>>
  /** At most {@link RESPONSE_BODY_LIMIT} bytes of the body, decoded as UTF-8. */
  readonly responseBody: string
  readonly durationMs: number
  readonly error: DeliveryError | null
}

/**
 * One POST to make.
 *
 * @example
 * ```ts
 * import type { DeliveryRequest } from 'patkit/webhooks'
 * const request: DeliveryRequest = { url: 'http://127.0.0.1:9000/hook', headers: { 'Content-Type': 'application/json' }, body: '{}' }
 * ```
 */
export interface DeliveryRequest {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/**
 * How deliveries are made.
 *
 * @example
 * ```ts
 * import type { DeliveryOptions } from 'patkit/webhooks'
 * const options: DeliveryOptions = { timeoutMs: 5000, policy: { allowHosts: ['hooks.internal'] } }
 * ```
 */
export interface DeliveryOptions {
  readonly policy?: DestinationPolicy | undefined
  readonly resolve?: HostResolver | undefined
  /** Default {@link DEFAULT_DELIVERY_TIMEOUT_MS}. */
  readonly timeoutMs?: number | undefined
  /** Monotonic milliseconds for the duration; `performance.now()` by default. */
  readonly monotonic?: (() => number) | undefined
  /** Verify the receiver's TLS certificate (GitLab's `enable_ssl_verification`). Default true. */
  readonly verifyTls?: boolean | undefined
  /** Aborts the attempt (recorded as a timeout), e.g. a queue's deadline. */
  readonly signal?: AbortSignal | undefined
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value
  return out
}

// GitLab sends a URL's userinfo as basic auth (WebHookService#basic_auth).
function basicAuth(url: URL): { Authorization?: string } {
  if (url.username === '' && url.password === '') return {}
  const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
  return { Authorization: `Basic ${Buffer.from(pair).toString('base64')}` }
}

// TLS SNI takes a host name only; an IP literal sends none.
function serverName(url: URL): { servername?: string } {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  return isIP(host) === 0 ? { servername: host } : {}
}

// The URL as a log keeps it: credentials masked, as GitLab's WebHookLog#obfuscate_basic_auth.
function loggedUrl(raw: string): string {
  try {
    const url = new URL(raw)
    if (url.username === '' && url.password === '') return raw
    url.username = '*****'
    url.password = url.password === '' ? '' : '*****'
    return url.href
  } catch {
    return raw
  }
}

function networkError(cause: unknown): DeliveryError {
  const code = (cause as { code?: unknown }).code
  const message = cause instanceof Error ? cause.message : String(cause)
  return code === 'ECONNREFUSED' ? { kind: 'refused', message } : { kind: 'network', message }
}

interface Answer {
  readonly status: number | null
  readonly headers: Record<string, string>
  readonly body: string
  readonly error: DeliveryError | null
}

function post(
  target: CheckedDestination,
  request: DeliveryRequest,
  timeoutMs: number,
  verifyTls: boolean,
  signal: AbortSignal | undefined,
): Promise<Answer> {
  return new Promise((settle) => {
    let done = false
    const finish = (answer: Answer): void => {
      if (done) return
      done = true
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      settle(answer)
    }
    const { url } = target
    const https = url.protocol === 'https:'
    // Connect to the address the policy checked, so a second DNS answer cannot move the request
    // (DNS rebinding); the Host header and TLS name stay the URL's.
    const req = (https ? httpsRequest : httpRequest)({
      host: target.address,
      family: target.family,
      port: url.port === '' ? (https ? 443 : 80) : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers: {
        ...request.headers,
        Host: url.host,
        'Content-Length': String(Buffer.byteLength(request.body)),
        ...basicAuth(url),
      },
      ...(https ? { rejectUnauthorized: verifyTls, ...serverName(url) } : {}),
    })
    const fail = (error: DeliveryError): void => {
      finish({ status: null, headers: {}, body: '', error })
      req.destroy()
    }
    const timer = setTimeout(
      () => fail({ kind: 'timeout', message: `no answer within ${timeoutMs} ms` }),
      timeoutMs,
    )
    const onAbort = (): void => fail({ kind: 'timeout', message: 'the delivery deadline passed' })
    if (signal?.aborted === true) onAbort()
    signal?.addEventListener('abort', onAbort, { once: true })
    req.on('error', (cause) => finish({ status: null, headers: {}, body: '', error: networkError(cause) }))
    req.on('response', (res) => {
      const chunks: Buffer[] = []
      let kept = 0
      res.on('data', (chunk: Buffer) => {
        if (kept >= RESPONSE_BODY_LIMIT) return
        const part = chunk.subarray(0, RESPONSE_BODY_LIMIT - kept)
        chunks.push(part)
        kept += part.length
        // The rest is not read: the record keeps 8 KB, and a receiver streaming forever must not hold us.
        if (kept >= RESPONSE_BODY_LIMIT) {
          finish(answerOf())
          res.destroy()
        }
      })
      const answerOf = (): Answer => ({
        status: res.statusCode ?? null,
        headers: flatHeaders(res.headers),
        body: Buffer.concat(chunks).toString('utf8'),
        error: null,
      })
      res.on('end', () => finish(answerOf()))
      res.on('error', () => finish(answerOf()))
    })
    req.end(request.body)
  })
}

/**
 * Makes one webhook POST and records it: checks the destination (loopback only unless the policy
 * allows more), connects to the checked address, never follows a redirect (a 3xx is the answer),
 * gives up after the timeout (10 s by default, as GitLab) and keeps 8 KB of the answer. Never throws
 * for a failed delivery: the record's `error` says what happened.
 *
 * @example
 * ```ts
 * import { deliver } from 'patkit/webhooks'
 * const record = await deliver(
 *   { url: 'http://127.0.0.1:9000/hook', headers: { 'Content-Type': 'application/json' }, body: '{}' },
 *   { timeoutMs: 2000 },
 * )
 * record.status // e.g. 200, or null with record.error
 * ```
 */
export async function deliver(
  request: DeliveryRequest,
  options: DeliveryOptions = {},
): Promise<DeliveryRecord> {
  const monotonic = options.monotonic ?? systemMonotonic
  const start = monotonic()
  const base = {
    url: loggedUrl(request.url),
    requestHeaders: redactHookHeaders(request.headers),
    requestBody: request.body,
  }
  const checked = await checkDestination(request.url, options.policy ?? {}, options.resolve ?? systemResolver)
  if (checked.isErr()) return blocked(base, checked.error, monotonic() - start)
  const answer = await post(
    checked.value,
    request,
    options.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS,
    options.verifyTls ?? true,
    options.signal,
  )
  return {
    ...base,
    status: answer.status,
    responseHeaders: answer.headers,
    responseBody: answer.body,
    durationMs: monotonic() - start,
    error: answer.error,
  }
}

function blocked(
  base: Pick<DeliveryRecord, 'url' | 'requestHeaders' | 'requestBody'>,
  error: BlockedDestination,
  durationMs: number,
): DeliveryRecord {
  return {
    ...base,
    status: null,
    responseHeaders: {},
    responseBody: '',
    durationMs,
    error: { kind: 'blocked', message: error.message },
  }
}
