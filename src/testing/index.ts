/**
 * patkit/testing: the store conformance suite every `TokenStore` runs, and fixture builders. Needs
 * vitest (an optional peer dependency) for `describeStoreConformance`. The fake GitLab, its seed format
 * and the test clocks are in `patkit/fake`.
 * @packageDocumentation
 */

export { type DraftBuilder, draftFactory, tokenFixture, userFixture } from './fixtures.js'
export {
  type ConformanceSkip,
  describeStoreConformance,
  type StoreConformanceOptions,
} from './store-conformance.js'
