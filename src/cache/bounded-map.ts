/**
 * A map holding at most `capacity` entries, evicting the least recently used: a `Map` keeps insertion
 * order, so a hit moves its key to the end and an insertion past capacity drops the first key.
 *
 * @example
 * ```ts
 * import { BoundedMap } from './bounded-map.js'
 *
 * const lru = new BoundedMap<string, number>(2)
 * lru.set('a', 1)
 * lru.set('b', 2)
 * lru.get('a') // 1, and 'a' is now the most recent
 * lru.set('c', 3) // evicts 'b'
 * ```
 */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, V>()
  readonly #capacity: number
  readonly #onEvict: (key: K, value: V) => void

  /** `onEvict` sees each entry dropped for room (not those deleted or cleared). */
  constructor(capacity: number, onEvict: (key: K, value: V) => void = () => {}) {
    this.#capacity = capacity
    this.#onEvict = onEvict
  }

  get size(): number {
    return this.#entries.size
  }

  /** The value, marking it most recently used. */
  get(key: K): V | undefined {
    const value = this.#entries.get(key)
    if (value === undefined) return undefined
    this.#entries.delete(key)
    this.#entries.set(key, value)
    return value
  }

  set(key: K, value: V): void {
    if (this.#capacity <= 0) return
    this.#entries.delete(key)
    this.#entries.set(key, value)
    if (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.entries().next()
      if (oldest.done !== true) {
        this.#entries.delete(oldest.value[0])
        this.#onEvict(oldest.value[0], oldest.value[1])
      }
    }
  }

  delete(key: K): boolean {
    return this.#entries.delete(key)
  }

  clear(): void {
    this.#entries.clear()
  }

  /** Every entry, least recently used first (no reordering). */
  entries(): IterableIterator<[K, V]> {
    return this.#entries.entries()
  }
}
