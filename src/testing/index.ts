/**
 * patkit/testing: the store conformance suite every `TokenStore` runs, and fixture builders. Needs
 * vitest (an optional peer dependency) for `describeStoreConformance`.
 *
 * @example
 * ```ts
 * import { describeStoreConformance } from 'patkit/testing'
 * import { memoryStore } from 'patkit/memory'
 * describeStoreConformance({ name: 'memory', create: () => memoryStore() })
 * ```
 * @packageDocumentation
 */

// Everything of patkit/fake (the fake authority, its control plane, the seed format, deterministic
// time and randomness), listed once there.
export * from '../control/index.js'
export { type DraftBuilder, draftFactory, tokenFixture, userFixture } from './fixtures.js'
export {
  type ConformanceSkip,
  describeStoreConformance,
  type StoreConformanceOptions,
} from './store-conformance.js'
