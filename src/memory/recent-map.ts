/**
 * A memo of at most `capacity` entries that forgets the oldest first. It serves the memory store's
 * hot reads, whose keys are immutable objects (a stored row, a token handed out for it): a changed
 * token is a new row, so an entry is never stale, only unused, and the bound keeps unused ones few.
 * Insertion order (a `Map`'s) is enough here: a hit costs one lookup, with no reordering as an LRU's.
 */
export class RecentMap<K, V> {
  readonly #entries = new Map<K, V>()
  readonly #capacity: number

  constructor(capacity: number) {
    this.#capacity = capacity
  }

  get(key: K): V | undefined {
    return this.#entries.get(key)
  }

  set(key: K, value: V): void {
    if (this.#entries.size >= this.#capacity) {
      const oldest = this.#entries.keys().next()
      if (oldest.done !== true) this.#entries.delete(oldest.value)
    }
    this.#entries.set(key, value)
  }
}
