import type { StoreFailure } from '../domain/errors.js'
import type { TokenStore } from '../store/token-store.js'

/** The arguments of the store's `touchLastUsed`, whatever they are: the buffer passes them through. */
export type TouchArguments = Parameters<TokenStore['touchLastUsed']>

/**
 * Write-behind for `touchLastUsed`: the latest call per token waits here and is written by `flush`
 * (on an interval, and on close), through the store's own conditional write, so the store still
 * decides whether the write is due. A failed write stays queued for the next flush unless a newer
 * call replaced it.
 *
 * @example
 * ```ts
 * import { LastUsedBuffer } from './last-used-buffer.js'
 *
 * const buffer = new LastUsedBuffer(store, () => {})
 * buffer.add([7, now, 600_000, null])
 * await buffer.flush() // one store.touchLastUsed(7, now, 600_000, null)
 * ```
 */
export class LastUsedBuffer {
  #pending = new Map<number, TouchArguments>()
  readonly #store: TokenStore
  readonly #onError: (error: StoreFailure) => void
  #flushing: Promise<void> = Promise.resolve()

  constructor(store: TokenStore, onError: (error: StoreFailure) => void) {
    this.#store = store
    this.#onError = onError
  }

  get size(): number {
    return this.#pending.size
  }

  /** The instant queued for a token, if any. */
  pendingAt(id: number): Date | undefined {
    return this.#pending.get(id)?.[1]
  }

  add(args: TouchArguments): void {
    const queued = this.#pending.get(args[0])
    if (queued === undefined || queued[1].getTime() <= args[1].getTime()) this.#pending.set(args[0], args)
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
    await Promise.all(
      [...batch.values()].map(async (args) => {
        const written = await this.#store.touchLastUsed(...args)
        if (written.isErr()) {
          this.#onError(written.error)
          this.add(args)
        }
      }),
    )
  }
}
