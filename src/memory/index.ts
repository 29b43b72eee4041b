/**
 * patkit/memory: the embedded, in-process token store.
 * @packageDocumentation
 */
export { type MemoryStoreOptions, memoryStore } from './memory-store.js'
