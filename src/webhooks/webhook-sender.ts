import { createHmac, timingSafeEqual } from 'node:crypto'
import { err, ok, type Result } from 'neverthrow'
import type { Clock } from '../domain/clock.js'
import { cryptoRandom, type RandomSource } from '../domain/random.js'
import { uuidFrom } from './hook-headers.js'

/**
 * The header carrying the signature: `Patkit-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>`.
 *
 * @example
 * ```ts
 * import { SIGNATURE_HEADER } from 'patkit/webhooks'
 * SIGNATURE_HEADER // 'Patkit-Signature'
 * ```
 */
export const SIGNATURE_HEADER = 'Patkit-Signature'

/**
 * Options of {@link webhookSender}.
 *
 * @example
 * ```ts
 * import { type WebhookSenderOptions, webhookSender } from 'patkit/webhooks'
 * import { systemClock } from 'patkit/authority'
 * const options: WebhookSenderOptions = { url: 'https://hooks.example.com/', secret: 'whsec', clock: systemClock, retries: 5 }
 * const sender = webhookSender(options)
 * ```
 */
export interface WebhookSenderOptions {
  readonly url: string
  /** The shared secret the receiver verifies with {@link verifyWebhookSignature}. */
  readonly secret: string
  readonly clock: Clock
  /** For the idempotency key; the system CSPRNG by default. */
  readonly random?: RandomSource | undefined
  /** Attempts after the first; default 3. */
  readonly retries?: number | undefined
  /** The wait before retry n (0-based), in ms; default 500 × 2^n. */
  readonly backoff?: ((retry: number) => number) | undefined
  /** Waits; `setTimeout` by default (tests pass one that returns at once). */
  readonly sleep?: ((ms: number) => Promise<void>) | undefined
  /** Each attempt's time limit in ms; default 10 000 (GitLab's webhook timeout). */
  readonly timeoutMs?: number | undefined
  /** `fetch` by default. */
  readonly fetchImpl?: typeof fetch | undefined
}

/**
 * A delivered event.
 *
 * @example
 * ```ts
 * import type { SendSuccess, WebhookSender } from 'patkit/webhooks'
 * declare const sender: WebhookSender
 * const outcome = await sender.send({ type: 'ping' })
 * if (outcome.isOk()) {
 *   const sent: SendSuccess = outcome.value
 *   console.log(sent.status, sent.attempts)
 * }
 * ```
 */
export interface SendSuccess {
  readonly status: number
  readonly attempts: number
  readonly idempotencyKey: string
}

/**
 * An event the sender gave up on.
 *
 * @example
 * ```ts
 * import type { SendFailure, WebhookSender } from 'patkit/webhooks'
 * declare const sender: WebhookSender
 * const outcome = await sender.send({ type: 'ping' })
 * if (outcome.isErr()) {
 *   const failed: SendFailure = outcome.error
 *   console.warn(failed.kind, failed.status, failed.message)
 * }
 * ```
 */
export interface SendFailure {
  readonly kind: 'gave_up' | 'rejected'
  /** The last status, or null when the last attempt had no answer. */
  readonly status: number | null
  readonly attempts: number
  readonly idempotencyKey: string
  readonly message: string
}

/**
 * Sends events to one receiver.
 *
 * @example
 * ```ts
 * import { type WebhookSender, webhookSender } from 'patkit/webhooks'
 * import { systemClock } from 'patkit/authority'
 * const sender: WebhookSender = webhookSender({ url: 'https://hooks.example.com/', secret: 'whsec', clock: systemClock })
 * await sender.send({ type: 'ping' })
 * ```
 */
export interface WebhookSender {
  send(event: unknown): Promise<Result<SendSuccess, SendFailure>>
}

function sign(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')
}

const retryable = (status: number): boolean => status >= 500 || status === 429

/**
 * An opt-in webhook sender for embedders: `send(event)` POSTs the event as JSON, signed with
 * HMAC-SHA256 over `${timestamp}.${body}` in `Patkit-Signature: t=<seconds>,v1=<hex>`, with an
 * `Idempotency-Key` that stays the same across retries. It retries network errors, 5xx and 429 with
 * exponential backoff, and gives up after `retries`; a 4xx other than 429 is not retried.
 *
 * @example
 * ```ts
 * import { webhookSender } from 'patkit/webhooks'
 * import { systemClock } from 'patkit/authority'
 * const sender = webhookSender({ url: 'https://hooks.example.com/patkit', secret: 'whsec', clock: systemClock })
 * const outcome = await sender.send({ type: 'token.expiring', tokenId: 1 })
 * if (outcome.isErr()) console.warn(outcome.error.message)
 * ```
 */
export function webhookSender(options: WebhookSenderOptions): WebhookSender {
  const retries = Math.max(0, options.retries ?? 3)
  const backoff = options.backoff ?? ((n: number) => 500 * 2 ** n)
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const fetchImpl = options.fetchImpl ?? fetch
  const timeoutMs = options.timeoutMs ?? 10_000
  const uuid = uuidFrom(options.random ?? cryptoRandom)
  return {
    async send(event) {
      const body = JSON.stringify(event)
      const idempotencyKey = uuid()
      let status: number | null = null
      let message = ''
      for (let attempt = 1; attempt <= retries + 1; attempt++) {
        if (attempt > 1) await sleep(backoff(attempt - 2))
        const timestamp = Math.floor(options.clock.now().getTime() / 1000)
        try {
          const response = await fetchImpl(options.url, {
            method: 'POST',
            redirect: 'manual',
            signal: AbortSignal.timeout(timeoutMs),
            headers: {
              'Content-Type': 'application/json',
              'Idempotency-Key': idempotencyKey,
              [SIGNATURE_HEADER]: `t=${timestamp},v1=${sign(options.secret, timestamp, body)}`,
            },
            body,
          })
          status = response.status
          await response.body?.cancel()
          if (status >= 200 && status < 300) return ok({ status, attempts: attempt, idempotencyKey })
          message = `the receiver answered ${status}`
          if (!retryable(status))
            return err({ kind: 'rejected', status, attempts: attempt, idempotencyKey, message })
        } catch (cause) {
          status = null
          message = cause instanceof Error ? cause.message : String(cause)
        }
      }
      return err({ kind: 'gave_up', status, attempts: retries + 1, idempotencyKey, message })
    },
  }
}

/**
 * Why {@link verifyWebhookSignature} refused a request.
 *
 * @example
 * ```ts
 * import { type SignatureProblem, verifyWebhookSignature } from 'patkit/webhooks'
 * declare const header: string, rawBody: string
 * const checked = verifyWebhookSignature('whsec', header, rawBody, new Date())
 * const problem: SignatureProblem | null = checked.isErr() ? checked.error : null
 * ```
 */
export type SignatureProblem = 'malformed' | 'mismatch' | 'too_old'

/**
 * Verifies a `Patkit-Signature` header for a receiver: the HMAC-SHA256 of `${t}.${body}` with the
 * shared secret must match one `v1=` value (compared in constant time), and `t` must be within
 * `toleranceSeconds` of `now`.
 *
 * @example
 * ```ts
 * import { verifyWebhookSignature } from 'patkit/webhooks'
 * declare const header: string, rawBody: string
 * const checked = verifyWebhookSignature('whsec', header, rawBody, new Date(), 300)
 * if (checked.isErr()) console.warn('refused:', checked.error)
 * ```
 */
export function verifyWebhookSignature(
  secret: string,
  header: string,
  body: string,
  now: Date,
  toleranceSeconds = 300,
): Result<{ readonly timestamp: number }, SignatureProblem> {
  let timestamp: number | undefined
  const candidates: string[] = []
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2)
    if (key === 't' && value !== undefined && /^\d+$/.test(value)) timestamp = Number(value)
    else if (key === 'v1' && value !== undefined && /^[0-9a-f]{64}$/.test(value)) candidates.push(value)
  }
  if (timestamp === undefined || candidates.length === 0) return err('malformed')
  const expected = Buffer.from(sign(secret, timestamp, body), 'hex')
  if (!candidates.some((c) => timingSafeEqual(Buffer.from(c, 'hex'), expected))) return err('mismatch')
  if (Math.abs(now.getTime() / 1000 - timestamp) > toleranceSeconds) return err('too_old')
  return ok({ timestamp })
}
