/**
 * The days before expiry at which GitLab mails a token's owner (its `ExpiringWorker`, 60/30/7-day
 * notices), tightest last.
 *
 * @example
 * ```ts
 * import { EXPIRY_NOTICE_DAYS } from './expiry-notice.js'
 *
 * EXPIRY_NOTICE_DAYS // [60, 30, 7]
 * ```
 */
export const EXPIRY_NOTICE_DAYS = Object.freeze([60, 30, 7] as const)

/**
 * One of {@link EXPIRY_NOTICE_DAYS}.
 *
 * @example
 * ```ts
 * import type { ExpiryNoticeDays } from './expiry-notice.js'
 *
 * const days: ExpiryNoticeDays = 7
 * ```
 */
export type ExpiryNoticeDays = (typeof EXPIRY_NOTICE_DAYS)[number]
