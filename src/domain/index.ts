// The domain barrel: internal (patkit's own tests import it). The package's entry points (src/index.ts,
// src/store/index.ts, ...) each export a chosen few of these names.
export {
  addCalendarDays,
  type CalendarDate,
  calendarDaysBetween,
  parseCalendarDate,
  startOfUtcDay,
  utcDay,
} from './calendar.js'
export { type Clock, type ManualClock, manualClock, systemClock } from './clock.js'
export type { MintContext } from './context.js'
export { type CreateTokenInput, createToken, MAX_TEXT_LENGTH, type Minted } from './create-token.js'
export { type ErrorCode, type ErrorOf, ErrorType, type PatkitError } from './errors.js'
export {
  DEFAULT_MAX_LIFETIME_DAYS,
  type ExpiryPolicy,
  ROTATION_DEFAULT_DAYS,
  resolveExpiry,
} from './expiry.js'
export { EXPIRY_NOTICE_DAYS, type ExpiryNoticeDays } from './expiry-notice.js'
export { IDEMPOTENCY_KEY_MAX_LENGTH, parseIdempotencyKey } from './idempotency-key.js'
export type { TokenFormat } from './mint-secret.js'
export { cryptoRandom, type RandomSource, seededRandom } from './random.js'
export {
  createReceiptSealer,
  type ReceiptBinding,
  type ReceiptSealer,
  type UnreadableReceipt,
} from './receipt-seal.js'
export { tokensToRevokeOnReuse } from './reuse-detection.js'
export { type Rotation, rotateToken } from './rotate-token.js'
export {
  isRedeemable,
  type RedeemedReceipt,
  type RotationReceipt,
  type RotationReceiptDraft,
  receiptExpiry,
} from './rotation-receipt.js'
export {
  ADMIN_ONLY_SCOPES,
  isScope,
  SCOPES,
  type Scope,
  USER_CREATABLE_SCOPES,
} from './scopes.js'
export { createDigester, DEFAULT_TOKEN_PREFIX, type Digester } from './secret.js'
export { isActive, isExpired, type Token, type TokenDraft } from './token.js'
