/**
 * A user's id: a number (GitLab's integer ids, the default) or a string (an application's own ids,
 * such as UUIDs, with `userIdType: 'string'`). One authority and its store hold one kind; the
 * `userIdType` option says which.
 *
 * @example
 * ```ts
 * import type { UserId } from 'patkit'
 * const gitlab: UserId = 2
 * const app: UserId = '0b8f6c9e-5d2a-4f8e-9c1e-2f4a6b8d0e13'
 * ```
 */
export type UserId = number | string

/**
 * Which kind of {@link UserId} an authority and its store hold: `'integer'` (GitLab's, the default)
 * or `'string'`.
 *
 * @example
 * ```ts
 * import type { UserIdType } from 'patkit/store'
 * const kind: UserIdType = 'string'
 * ```
 */
export type UserIdType = 'integer' | 'string'

/**
 * Whether a value is a user id of the given kind: a safe integer for `'integer'`; for `'string'`, a
 * string of 1 to 255 characters (the SQL store's `varchar(255)`) without leading or trailing
 * whitespace (MySQL's collations ignore trailing spaces, so `'a'` and `'a '` would be one id there).
 *
 * @example
 * ```ts
 * import { isUserIdOf } from 'patkit/store'
 * isUserIdOf('integer', 2) // true
 * isUserIdOf('integer', '2') // false
 * isUserIdOf('string', '0b8f6c9e-5d2a-4f8e-9c1e-2f4a6b8d0e13') // true
 * ```
 */
export function isUserIdOf(kind: UserIdType, value: unknown): value is UserId {
  return kind === 'integer'
    ? typeof value === 'number' && Number.isSafeInteger(value)
    : typeof value === 'string' &&
        value.length > 0 &&
        value.length <= MAX_STRING_USER_ID_LENGTH &&
        value.trim() === value
}

/**
 * The longest string user id, in UTF-16 code units: the SQL store's `varchar(255)` column.
 *
 * @example
 * ```ts
 * import { MAX_STRING_USER_ID_LENGTH } from 'patkit/store'
 * MAX_STRING_USER_ID_LENGTH // 255
 * ```
 */
export const MAX_STRING_USER_ID_LENGTH = 255

/**
 * Why a value cannot be a user id of the given kind (a sentence for a `store_failure`'s cause), or
 * `null` when it can. Stores check every id they are given to keep, so one table never mixes kinds.
 *
 * @example
 * ```ts
 * import { userIdProblem } from 'patkit/store'
 * userIdProblem('integer', 'alice') // 'user id "alice" is not an integer (userIdType is integer)'
 * userIdProblem('string', 'alice') // null
 * ```
 */
export function userIdProblem(kind: UserIdType, value: UserId): string | null {
  if (isUserIdOf(kind, value)) return null
  const shown = JSON.stringify(value)
  return kind === 'integer'
    ? `user id ${shown} is not an integer (userIdType is integer)`
    : `user id ${shown} is not a string of 1 to ${MAX_STRING_USER_ID_LENGTH} characters without leading or trailing whitespace (userIdType is string)`
}
