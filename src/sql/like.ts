/**
 * The escape character of every `LIKE` the store writes. `!` has no meaning in any dialect's string
 * literals (a backslash does in MySQL's), so `ESCAPE '!'` reads the same everywhere.
 *
 * @example
 * ```ts
 * import { sql } from 'kysely'
 * import { escapeLike, LIKE_ESCAPE } from './like.js'
 *
 * sql`name like ${escapeLike('50%')} escape '${sql.raw(LIKE_ESCAPE)}'`
 * ```
 */
export const LIKE_ESCAPE = '!'

/**
 * Escapes a literal for a `LIKE` pattern: `%`, `_` and the escape character itself match only
 * themselves.
 *
 * @example
 * ```ts
 * import { escapeLike } from './like.js'
 *
 * escapeLike('50%_off!') // '50!%!_off!!'
 * ```
 */
export function escapeLike(literal: string): string {
  return literal.replace(/[!%_]/g, (char) => LIKE_ESCAPE + char)
}
