/**
 * The days before expiry at which GitLab mails a token's owner (its `ExpiringWorker`, 60/30/7-day
 * notices), tightest last.
 */
export const EXPIRY_NOTICE_DAYS = Object.freeze([60, 30, 7] as const)

/** One of {@link EXPIRY_NOTICE_DAYS}. */
export type ExpiryNoticeDays = (typeof EXPIRY_NOTICE_DAYS)[number]
