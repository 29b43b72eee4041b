/**
 * patkit/store: for authors of a `TokenStore`. The port itself (tokens, users, the optional rotation
 * receipts); the one evaluator of the list query (filter, search, order, pages) that every store must
 * agree with (use it as is in memory, or compile the same semantics to your database's query language,
 * see docs/storage.md); the digest a store keeps of a secret (`createDigester`, e.g. for a seed); and
 * the user id rules (`UserIdType`, `userIdProblem`). Prove a store with `describeStoreConformance`
 * from `patkit/testing`.
 * @packageDocumentation
 */

// A store that compiles `state: 'inactive'` compares `expires_at` with today's UTC day.
export { type CalendarDate, utcDay } from '../domain/calendar.js'
export type { StoreConflictKey, StoreFailure } from '../domain/errors.js'
export {
  LAST_USED_IP_WINDOW_MS,
  type LastUsed,
  MAX_LAST_USED_IPS,
  nextLastUsed,
  type UsageRecord,
} from '../domain/last-used.js'
export {
  ACCESS_LEVELS,
  type AccessLevel,
  directAccess,
  effectiveAccess,
  fullPathOf,
  type Group,
  isAccessLevel,
  type Member,
  type Project,
  type ResourceRef,
  type ResourceType,
  type Visibility,
} from '../domain/resource.js'
export { tokensToRevokeOnReuse } from '../domain/reuse-detection.js'
export {
  isRedeemable,
  type RedeemedReceipt,
  type RotationReceipt,
  type RotationReceiptDraft,
} from '../domain/rotation-receipt.js'
// What a store keeps of a secret: its digest under the pepper (a seed or an import computes it).
export { createDigester, type Digester } from '../domain/secret.js'
export type { TokenDraft } from '../domain/token.js'
export {
  isUserIdOf,
  MAX_STRING_USER_ID_LENGTH,
  type UserIdType,
  userIdProblem,
} from '../domain/user-id.js'
export { applyListQuery } from '../query/apply.js'
export {
  type ListQuery,
  type PageRequest,
  SORT_KEYS,
  type SortKey,
  type TokenFilter,
} from '../query/filter.js'
export { type Pagination, paginate } from '../query/pagination.js'
export { filterPredicate, matchesFilter } from '../query/predicate.js'
export { parseSearch, type SearchPlan } from '../query/search.js'
export { compareTokens } from '../query/sort.js'
export { SORT_ORDERS, type SortDirection, type SortField, type SortOrder } from '../query/sort-order.js'
export type {
  AuditEvent,
  AuditEventDraft,
  AuditEventFilter,
  AuditStore,
  Hook,
  HookDraft,
  HookLog,
  HookLogDraft,
  HookStore,
  NoticeInterval,
  StorePage,
} from './hook-store.js'
export type { ResourceStore, UserDraft, UserFilter } from './resource-store.js'
export { type RotationReceiptStore, supportsRotationReceipts } from './rotation-receipts.js'
export { settledResult, settledResultAsync } from './settled.js'
export type { RevokeOutcome, StoreContents, TokenStore, TokenWithUser } from './token-store.js'
export { displayName, type User, type UserDirectory } from './user.js'
