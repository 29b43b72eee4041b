import type { DeliveryRecord } from './deliver.js'

/**
 * The default number of deliveries in flight at once.
 *
 * @example
 * ```ts
 * import { DEFAULT_DELIVERY_CONCURRENCY } from 'patkit/webhooks'
 * DEFAULT_DELIVERY_CONCURRENCY // 8
 * ```
 */
export const DEFAULT_DELIVERY_CONCURRENCY = 8

/**
 * One queued delivery: it gets a signal that aborts at the queue's deadline.
 *
 * @example
 * ```ts
 * import { deliver, type DeliveryJob } from 'patkit/webhooks'
 * const job: DeliveryJob = (signal) => deliver({ url: 'http://127.0.0.1:9000/', headers: {}, body: '{}' }, { signal })
 * ```
 */
export type DeliveryJob = (signal: AbortSignal) => Promise<DeliveryRecord>

/**
 * How a {@link deliveryQueue} runs its jobs.
 *
 * @example
 * ```ts
 * import { type DeliveryQueueOptions, deliveryQueue } from 'patkit/webhooks'
 * const options: DeliveryQueueOptions = { concurrency: 2, deadlineMs: 12_000, onRecord: (r) => console.log(r.status) }
 * const queue = deliveryQueue(options)
 * ```
 */
export interface DeliveryQueueOptions {
  /** Deliveries in flight at once; default {@link DEFAULT_DELIVERY_CONCURRENCY}. */
  readonly concurrency?: number | undefined
  /**
   * The most time a job may take once started, in milliseconds; its signal aborts then, and its slot is
   * freed even if the job ignores the signal. Default: no deadline beyond the job's own timeout.
   */
  readonly deadlineMs?: number | undefined
  /** Receives every finished record (a job that threw or missed the deadline gives none). */
  readonly onRecord?: ((record: DeliveryRecord) => void) | undefined
}

/**
 * A bounded queue of deliveries.
 *
 * @example
 * ```ts
 * import { type DeliveryQueue, deliveryQueue } from 'patkit/webhooks'
 * const queue: DeliveryQueue = deliveryQueue()
 * await queue.idle()
 * ```
 */
export interface DeliveryQueue {
  /** Queues a delivery; the promise settles with its record, or null if it threw or missed the deadline. */
  enqueue(job: DeliveryJob): Promise<DeliveryRecord | null>
  /** Resolves once every delivery queued so far (and any queued meanwhile) has finished. */
  idle(): Promise<void>
  /** Deliveries waiting plus in flight. */
  readonly pending: number
}

/**
 * A queue that runs at most `concurrency` deliveries at once and frees a slot at each job's deadline,
 * so a hanging receiver never holds up the others. `idle()` is "every delivery due now has been made".
 *
 * @example
 * ```ts
 * import { deliver, deliveryQueue } from 'patkit/webhooks'
 * const queue = deliveryQueue({ concurrency: 4, deadlineMs: 15_000 })
 * void queue.enqueue((signal) =>
 *   deliver({ url: 'http://127.0.0.1:9000/hook', headers: {}, body: '{}' }, { signal }),
 * )
 * await queue.idle()
 * ```
 */
export function deliveryQueue(options: DeliveryQueueOptions = {}): DeliveryQueue {
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? DEFAULT_DELIVERY_CONCURRENCY))
  const waiting: Array<() => void> = []
  let running = 0
  let idleWaiters: Array<() => void> = []

  const settleIdle = (): void => {
    if (running > 0 || waiting.length > 0) return
    const waiters = idleWaiters
    idleWaiters = []
    for (const resolve of waiters) resolve()
  }

  const next = (): void => {
    while (running < concurrency) {
      const start = waiting.shift()
      if (start === undefined) break
      running++
      start()
    }
    settleIdle()
  }

  const run = async (job: DeliveryJob): Promise<DeliveryRecord | null> => {
    const controller = new AbortController()
    let timer: ReturnType<typeof setTimeout> | undefined
    const deadline =
      options.deadlineMs === undefined
        ? undefined
        : new Promise<null>((resolve) => {
            timer = setTimeout(() => {
              controller.abort()
              resolve(null)
            }, options.deadlineMs)
          })
    try {
      const attempt = job(controller.signal).catch(() => null)
      const record = await (deadline === undefined ? attempt : Promise.race([attempt, deadline]))
      if (record !== null) options.onRecord?.(record)
      return record
    } finally {
      if (timer !== undefined) clearTimeout(timer)
    }
  }

  return {
    enqueue(job) {
      return new Promise((resolve) => {
        waiting.push(() => {
          void run(job).then((record) => {
            running--
            resolve(record)
            next()
          })
        })
        next()
      })
    },
    idle() {
      return running === 0 && waiting.length === 0
        ? Promise.resolve()
        : new Promise((resolve) => {
            idleWaiters.push(resolve)
          })
    },
    get pending() {
      return running + waiting.length
    },
  }
}
