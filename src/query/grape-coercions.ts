import { err, ok, type Result } from 'neverthrow'

/**
 * The strings Grape's `Boolean` coercion reads as true (dry-types `Params::Bool`), lower case; patkit
 * compares case-insensitively.
 */
export const GRAPE_TRUE_VALUES = ['1', 't', 'true', 'y', 'yes', 'on'] as const

/** The strings Grape's `Boolean` coercion reads as false, lower case; compared case-insensitively. */
export const GRAPE_FALSE_VALUES = ['0', 'f', 'false', 'n', 'no', 'off'] as const

// Ruby's Integer(text, 10), which Grape's Integer coercion calls, allows ASCII blanks around the digits
// and a sign; it refuses fractions and exponents.
const INTEGER = /^[\t\n\v\f\r ]*([+-]?\d+)[\t\n\v\f\r ]*$/

/**
 * Reads a decimal integer the way Grape's `Integer` coercion does: `" 5"`, `"+5"`, `"-3"` and `"007"`
 * are integers; `"1.5"`, `"1e3"`, `"abc"` and `""` are not. The magnitude is not bounded here.
 */
export function parseGrapeInteger(text: string): Result<number, 'invalid_integer'> {
  const digits = INTEGER.exec(text)?.[1]
  return digits === undefined ? err('invalid_integer') : ok(Number(digits))
}
