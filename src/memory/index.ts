/**
 * patkit/memory: the embedded, in-process token store.
 *
 * @example
 * ```ts
 * import { memoryStore } from 'patkit/memory'
 * const store = memoryStore()
 * ```
 * @packageDocumentation
 */
export { type MemoryStoreOptions, memoryStore } from './memory-store.js'
