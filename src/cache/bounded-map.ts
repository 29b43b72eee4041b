/**
 * A map holding at most `capacity` entries, evicting one not used recently: the CLOCK approximation
 * of least-recently-used. A `Map` keeps insertion order; a hit only marks its entry, and an insertion
 * past capacity looks at the oldest entries in turn, giving a marked one a second chance (unmarked,
 * moved to the end) and evicting the first unmarked one. A hit thus costs one lookup, with no
 * reordering: the verification cache's hit path runs on every request (docs/benchmarks.md, 14a).
 */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, Slot<V>>()
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

  /** The value, marking it as used. */
  get(key: K): V | undefined {
    const slot = this.#entries.get(key)
    if (slot === undefined) return undefined
    slot.used = true
    return slot.value
  }

  set(key: K, value: V): void {
    if (this.#capacity <= 0) return
    this.#entries.delete(key)
    // Room is made before the new entry goes in, so it is never the one evicted. Each marked entry is
    // passed over once, its mark cleared, so this ends within twice `capacity` steps.
    while (this.#entries.size >= this.#capacity) {
      const oldest = this.#entries.entries().next()
      if (oldest.done === true) break
      const [oldestKey, slot] = oldest.value
      this.#entries.delete(oldestKey)
      if (slot.used) {
        slot.used = false
        this.#entries.set(oldestKey, slot)
      } else {
        this.#onEvict(oldestKey, slot.value)
      }
    }
    this.#entries.set(key, { value, used: false })
  }

  delete(key: K): boolean {
    return this.#entries.delete(key)
  }

  clear(): void {
    this.#entries.clear()
  }

  /** Every entry, oldest stored (or given a second chance) first. */
  *entries(): IterableIterator<[K, V]> {
    for (const [key, slot] of this.#entries) yield [key, slot.value]
  }
}

interface Slot<V> {
  readonly value: V
  used: boolean
}
