import type { Clock } from '../../domain/clock.js'
import type { ResourceRef } from '../../domain/resource.js'
import type { Hook, HookStore, NoticeInterval } from '../../store/hook-store.js'
import { DEFAULT_DELIVERY_TIMEOUT_MS, type DeliveryRecord, deliver } from '../../webhooks/deliver.js'
import { deliveryQueue } from '../../webhooks/delivery-queue.js'
import type { DestinationPolicy, HostResolver } from '../../webhooks/destination-policy.js'

/** GitLab's trigger name of an access-token expiry delivery (`web_hook_logs.trigger`). */
export const RESOURCE_ACCESS_TOKEN_TRIGGER = 'resource_access_token_hooks'

/** The most deliveries `GET /__patkit/deliveries` keeps, newest first. */
export const KEPT_DELIVERIES = 1000

/**
 * One webhook delivery the fake made, as `GET /__patkit/deliveries` lists it: what was sent (the
 * secret header redacted), what came back, and which notice it was.
 *
 * @example
 * ```ts
 * import type { HookDelivery } from 'patkit/fake'
 * declare const delivery: HookDelivery
 * const answered = delivery.record.status !== null
 * ```
 */
export interface HookDelivery {
  readonly id: number
  readonly hookId: number
  /** The project or group the hook belongs to. */
  readonly resource: ResourceRef
  /** The fake clock's instant when the attempt was made. */
  readonly at: Date
  /** `expiry` for a notice of the daily worker, `test` for the hook test API. */
  readonly cause: 'expiry' | 'test'
  readonly tokenId: number | null
  readonly interval: NoticeInterval | null
  readonly record: DeliveryRecord
}

/** What a delivery is: its hook, its body and headers, and why it is made. */
export interface DeliveryOrder {
  readonly hook: Hook
  /** The hook store of the data the hook belongs to (a reset swaps the store: its log stays with it). */
  readonly hooks: HookStore
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly cause: HookDelivery['cause']
  readonly tokenId: number | null
  readonly interval: NoticeInterval | null
}

/** How the fake delivers: the destination policy, the timeout, the queue's width. */
export interface HookDeliveryOptions {
  readonly clock: Clock
  readonly policy?: DestinationPolicy | undefined
  readonly resolve?: HostResolver | undefined
  readonly timeoutMs?: number | undefined
  readonly concurrency?: number | undefined
  /** Receives each delivery once made (the journal). */
  readonly onDelivery?: ((delivery: HookDelivery) => void) | undefined
}

/**
 * The fake's deliveries: a bounded queue, their log in the store, and the last ones in memory.
 *
 * @example
 * ```ts
 * import type { HookDeliveries } from 'patkit/fake'
 * declare const deliveries: HookDeliveries
 * await deliveries.idle()
 * const newest = deliveries.list()[0]
 * ```
 */
export interface HookDeliveries {
  /** Queues one attempt (no retry); resolves once it is made and logged. */
  enqueue(order: DeliveryOrder): Promise<HookDelivery | null>
  /** Makes one attempt now, outside the queue (the hook test API: GitLab's `force: true`). */
  sendNow(order: DeliveryOrder): Promise<HookDelivery>
  /** Resolves when every delivery queued so far has been made. */
  idle(): Promise<void>
  /** Deliveries waiting or in flight. */
  readonly pending: number
  /** The kept deliveries, newest first. */
  list(): readonly HookDelivery[]
  /** Forgets the kept deliveries (the data was replaced); attempts in flight are not listed. */
  clear(): void
}

// GitLab's WebHookService#log_execution: the status as text, "internal error" without an answer.
function statusText(record: DeliveryRecord): string {
  return record.status === null ? 'internal error' : String(record.status)
}

export function hookDeliveries(options: HookDeliveryOptions): HookDeliveries {
  const timeoutMs = options.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS
  // The queue frees a slot shortly after the delivery's own timeout, should an attempt ignore it.
  const queue = deliveryQueue({ concurrency: options.concurrency, deadlineMs: timeoutMs + 1000 })
  let kept: HookDelivery[] = []
  let nextId = 1
  let generation = 0

  const attempt = async (order: DeliveryOrder, signal?: AbortSignal): Promise<HookDelivery> => {
    const at = options.clock.now()
    const born = generation
    const record = await deliver(
      { url: order.hook.url, headers: order.headers, body: order.body },
      {
        policy: options.policy,
        resolve: options.resolve,
        timeoutMs,
        verifyTls: order.hook.enableSslVerification,
        signal,
      },
    )
    // A failed log write loses the log row, never the delivery (the hook may be gone meanwhile).
    await order.hooks.appendHookLog({
      hookId: order.hook.id,
      trigger: RESOURCE_ACCESS_TOKEN_TRIGGER,
      url: record.url,
      requestHeaders: record.requestHeaders,
      requestData: record.requestBody,
      responseHeaders: record.responseHeaders,
      responseBody: record.responseBody,
      responseStatus: statusText(record),
      executionDuration: record.durationMs / 1000,
      internalErrorMessage: record.error?.message ?? null,
      createdAt: at,
    })
    const delivery: HookDelivery = {
      id: nextId++,
      hookId: order.hook.id,
      resource: order.hook.resource,
      at,
      cause: order.cause,
      tokenId: order.tokenId,
      interval: order.interval,
      record,
    }
    if (born === generation) {
      kept.unshift(delivery)
      if (kept.length > KEPT_DELIVERIES) kept.length = KEPT_DELIVERIES
      options.onDelivery?.(delivery)
    }
    return delivery
  }

  return {
    enqueue: async (order) => {
      let made: HookDelivery | null = null
      await queue.enqueue(async (signal) => {
        made = await attempt(order, signal)
        return made.record
      })
      return made
    },
    sendNow: (order) => attempt(order),
    idle: () => queue.idle(),
    get pending() {
      return queue.pending
    },
    list: () => kept,
    clear: () => {
      kept = []
      generation++
    },
  }
}
