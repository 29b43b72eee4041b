import type { StoreFailure } from '../domain/errors.js'
import type { TokenStore } from '../store/token-store.js'

/** The arguments of the store's `touchLastUsed`, whatever they are: the buffer passes them through. */
export type TouchArguments = Parameters<TokenStore['touchLastUsed']>

/** Flushes a buffered call is tried in before it is dropped. */
export const FLUSH_ATTEMPTS = 3

/** A queued call and how many flushes failed to write it. */
interface Queued {
  readonly args: TouchArguments
  failures: number
}

/**
 * Write-behind for `touchLastUsed`: the calls per token wait here, in order, and are written by `flush`
 * (on an interval, and on close), through the store's own conditional write, so the store still
 * decides whether each write is due. Every call is kept, not only the latest: two calls in one flush
 * interval may each record a different client IP (`last_used_ips`). The cache queues only calls that
 * change something (`nextLastUsed`), so a token queues a handful at most. A failed write stays queued,
 * with the calls after it, for the next flush; one that failed {@link FLUSH_ATTEMPTS} flushes is
 * dropped (each failure is reported), as a last-used write is never worth more than the request it
 * records: the calls after it go on.
 */
export class LastUsedBuffer {
  #pending = new Map<number, Queued[]>()
  readonly #store: TokenStore
  readonly #onError: (error: StoreFailure) => void
  #flushing: Promise<void> = Promise.resolve()

  constructor(store: TokenStore, onError: (error: StoreFailure) => void) {
    this.#store = store
    this.#onError = onError
  }

  /** How many tokens have calls queued. */
  get size(): number {
    return this.#pending.size
  }

  /** The instant of the latest call queued for a token, if any. */
  pendingAt(id: number): Date | undefined {
    return this.#pending.get(id)?.at(-1)?.args[1]
  }

  add(args: TouchArguments): void {
    const queued = this.#pending.get(args[0])
    if (queued === undefined) this.#pending.set(args[0], [{ args, failures: 0 }])
    else queued.push({ args, failures: 0 })
  }

  /** Writes everything queued; resolves when written (failures are reported and requeued). */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(() => this.#write())
    return this.#flushing
  }

  async #write(): Promise<void> {
    if (this.#pending.size === 0) return
    const batch = this.#pending
    this.#pending = new Map()
    await Promise.all([...batch.values()].map((calls) => this.#writeInOrder(calls)))
  }

  /**
   * One token's calls, oldest first: a failure requeues it and the calls after it, ahead of newer ones;
   * a call failing for the last time is dropped and the next one written.
   */
  async #writeInOrder(calls: readonly Queued[]): Promise<void> {
    for (const [index, call] of calls.entries()) {
      const written = await this.#store.touchLastUsed(...call.args)
      if (written.isErr()) {
        this.#onError(written.error)
        call.failures++
        if (call.failures >= FLUSH_ATTEMPTS) continue
        const later = this.#pending.get(call.args[0]) ?? []
        this.#pending.set(call.args[0], [...calls.slice(index), ...later])
        return
      }
    }
  }
}
