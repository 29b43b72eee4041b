/**
 * The escape character of every `LIKE` the store writes. `!` has no meaning in any dialect's string
 * literals (a backslash does in MySQL's), so `ESCAPE '!'` reads the same everywhere.
 */
export const LIKE_ESCAPE = '!'

/**
 * Escapes a literal for a `LIKE` pattern: `%`, `_` and the escape character itself match only
 * themselves.
 */
export function escapeLike(literal: string): string {
  return literal.replace(/[!%_]/g, (char) => LIKE_ESCAPE + char)
}
