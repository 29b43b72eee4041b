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

// Deterministic time and randomness for tests; ManualClock is also the type of createFakeGitLab's
// default clock.
export { type ManualClock, manualClock } from '../domain/clock.js'
export { seededRandom } from '../domain/random.js'
export { DEMO_USERS, FAKE_GITLAB_START, INSECURE_DEVELOPMENT_PEPPER } from './demo-defaults.js'
export { createFakeGitLab, type FakeGitLab, type FakeGitLabOptions } from './fake-gitlab.js'
export { type DraftBuilder, draftFactory, tokenFixture, userFixture } from './fixtures.js'
export { loadSeed, type SeedReport, type SeedTarget } from './load-seed.js'
export {
  type Seed,
  type SeedProblem,
  type SeedToken,
  type SeedUser,
  seedSchema,
  seedTokenSchema,
  seedUserSchema,
  type ValidSeed,
  validateSeed,
} from './seed-schema.js'
export {
  type ConformanceSkip,
  describeStoreConformance,
  type StoreConformanceOptions,
} from './store-conformance.js'
