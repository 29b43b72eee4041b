/**
 * Values by positive integer id, in an array where the ids are dense (as the store's own ids are:
 * 1, 2, 3, ...) and in a `Map` past that. A `Map` entry costs about 37 bytes at a million entries, an
 * array slot 8: at a million tokens this is most of what separates the store from its memory budget.
 * Imported ids can be anything, so an id far past the array's end goes to the map instead of leaving
 * a long run of holes.
 */
export class RowsById<V> {
  // Slot 0 is never used: ids start at 1.
  readonly #dense: (V | undefined)[] = [undefined]
  readonly #sparse = new Map<number, V>()

  get(id: number): V | undefined {
    return id < this.#dense.length ? this.#dense[id] : this.#sparse.get(id)
  }

  has(id: number): boolean {
    return this.get(id) !== undefined
  }

  set(id: number, value: V): void {
    const dense = this.#dense
    if (id < dense.length) {
      dense[id] = value
      return
    }
    if (id - dense.length > MAX_GAP) {
      this.#sparse.set(id, value)
      return
    }
    // The array grows to cover `id`; ids in between that sit in the map move into it, so every id
    // lives in one place.
    while (dense.length < id) {
      const moved = this.#sparse.size === 0 ? undefined : this.#sparse.get(dense.length)
      if (moved !== undefined) this.#sparse.delete(dense.length)
      dense.push(moved)
    }
    // `id` itself may sit in the map from before: it lives in the array from now on.
    if (this.#sparse.size !== 0) this.#sparse.delete(id)
    dense.push(value)
  }

  /** Every value, in no particular order (callers sort). */
  values(): V[] {
    const found: V[] = []
    for (const value of this.#dense) if (value !== undefined) found.push(value)
    for (const value of this.#sparse.values()) found.push(value)
    return found
  }
}

/** How many missing ids the array may skip over in one step before an id goes to the map. */
const MAX_GAP = 1024
