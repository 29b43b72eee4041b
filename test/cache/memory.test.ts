import { cachedStore, localInvalidation } from '../../src/cache/index.js'
import { memoryStore } from '../../src/memory/index.js'
import { describeCacheConformance } from './support/cache-conformance.js'
import { describeStaleDecisions } from './support/stale-decisions.js'

// One process, one memory store: several caches over it share the in-process channel.
describeCacheConformance({
  name: 'memory, three caches on one in-process channel',
  deploy: async (strict) => {
    const inner = memoryStore()
    const invalidation = localInvalidation()
    const instances = [1, 2, 3].map(() => cachedStore(inner, { invalidation, strict }))
    return {
      instances,
      close: async () => {
        await Promise.all(instances.map((store) => store.close()))
        await invalidation.close()
      },
    }
  },
})

// Two caches on one memory store, each on a channel of its own (the other's messages still on their way).
describeStaleDecisions({ name: 'memory', store: () => memoryStore() })
