/**
 * patkit/fake: the fake GitLab token authority in process, with its control plane (clock, reset,
 * snapshot and restore, journal, faults), and the seed format it shares with `patkit serve`. Needs no
 * test framework: use it from vitest, jest, node:test or a plain script. (The store conformance suite
 * and fixture builders, which need vitest, are in `patkit/testing`.)
 * @packageDocumentation
 */

// Deterministic time and randomness for tests; ManualClock is also the type of createFakeGitLab's
// default clock.
export { type ManualClock, manualClock } from '../domain/clock.js'
export { seededRandom } from '../domain/random.js'
export { CONTROL_PREFIX, type ControlParts, controlHandler } from './control/control-api.js'
export { type ClockStart, type ControllableClock, controllableClock } from './controllable-clock.js'
export { DEMO_USERS, FAKE_GITLAB_START, INSECURE_DEVELOPMENT_PEPPER } from './demo-defaults.js'
export { type FakeAuthority, type FakeAuthorityOptions, fakeAuthority } from './fake-authority.js'
export { createFakeGitLab, type FakeGitLab, type FakeGitLabOptions } from './fake-gitlab.js'
export type { StateSnapshot } from './fake-state.js'
export type { FaultAction, FaultRule, FaultRuleInput, Faults } from './faults.js'
export type { FakeWebhookOptions, FakeWebhooks } from './hooks/fake-webhooks.js'
export type { HookDeliveries, HookDelivery } from './hooks/hook-deliveries.js'
export {
  HOOK_SECRET_KEY_BYTES,
  openHookSecret,
  parseHookSecretKey,
  sealHookSecret,
  type UnreadableHookSecret,
} from './hooks/hook-secret.js'
export type {
  EventEntry,
  Journal,
  JournalEntry,
  JournalQuery,
  RecordedRequest,
  RequestEntry,
} from './journal.js'
export { JOURNAL_ENTRY_SCHEMA, REFUSAL_REASON_SCHEMA } from './journal-schema.js'
export { REFUSAL_CODES, type RefusalReason, type RevokedBy } from './refusal-reason.js'
export type { RequestDetail } from './request-detail.js'
export { loadSeed, type SeedReport, type SeedTarget } from './seed/load-seed.js'
export {
  type SeedGroup,
  type SeedProject,
  seedGroupSchema,
  seedMemberSchema,
  seedProjectSchema,
} from './seed/seed-resource-schema.js'
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
} from './seed/seed-schema.js'
