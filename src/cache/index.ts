/**
 * patkit/cache: a verification cache in front of any token store, invalidated across instances
 * (`postgresInvalidation` and `pollingInvalidation` from `patkit/sql`), with write-behind last-used
 * times. See docs/storage.md, "Many instances on one database".
 * @packageDocumentation
 */
export {
  type CachedStore,
  type CacheOptions,
  type CacheStats,
  cachedStore,
} from './cached-store.js'
export {
  type Invalidation,
  type InvalidationChannel,
  type InvalidationSink,
  localInvalidation,
} from './invalidation.js'
