import { err, ok, type Result } from 'neverthrow'
import { invalidParameter, validationFailed } from './error-constructors.js'
import type { ErrorOf } from './errors.js'
import { SCOPES } from './scopes.js'

/**
 * GitLab's column limit for `name` and `description`.
 *
 * @example
 * ```ts
 * import { MAX_TEXT_LENGTH } from './token-fields.js'
 *
 * 'x'.repeat(MAX_TEXT_LENGTH + 1) // a name validateTokenFields refuses
 * ```
 */
export const MAX_TEXT_LENGTH = 255

/**
 * The described fields of a token, as a caller gives them.
 *
 * @example
 * ```ts
 * import type { TokenFieldsInput } from './token-fields.js'
 *
 * const fields: TokenFieldsInput = { name: ' ci ', scopes: ['api', 'api'], description: null }
 * ```
 */
export interface TokenFieldsInput {
  readonly name: string
  readonly scopes: readonly string[]
  readonly description?: string | null
}

/**
 * The described fields of a token once checked: the name trimmed, the description `null` when
 * absent, and the scopes known and each listed once.
 *
 * @example
 * ```ts
 * import type { TokenFields } from './token-fields.js'
 *
 * const fields: TokenFields = { name: 'ci', scopes: ['api'], description: null }
 * ```
 */
export interface TokenFields {
  readonly name: string
  readonly scopes: readonly string[]
  readonly description: string | null
}

/**
 * GitLab's model rules for a token's name, description and scopes, the one place they are written:
 * every way a token comes into being (`createToken` for the API, `issueToken` for seeds and fixtures)
 * runs them, so every store receives only what fits its columns. In GitLab's order: name present,
 * name and description at most {@link MAX_TEXT_LENGTH} characters, scopes present and known: of
 * `vocabulary`, the authority's `scopes` option, GitLab's {@link SCOPES} by default.
 *
 * @example
 * ```ts
 * import { validateTokenFields } from './token-fields.js'
 *
 * validateTokenFields({ name: 'ci', scopes: ['api'] }) // ok({ name: 'ci', scopes: ['api'], description: null })
 * validateTokenFields({ name: 'x'.repeat(300), scopes: ['api'] }).isErr() // true: validation_failed
 * ```
 */
export function validateTokenFields(
  input: TokenFieldsInput,
  vocabulary: readonly string[] = SCOPES,
): Result<TokenFields, ErrorOf<'invalid_parameter' | 'validation_failed'>> {
  const name = input.name.trim()
  if (name === '') return err(validationFailed("Name can't be blank"))
  if (name.length > MAX_TEXT_LENGTH) {
    return err(validationFailed(`Name is too long (maximum is ${MAX_TEXT_LENGTH} characters)`))
  }
  const description = input.description ?? null
  if (description !== null && description.length > MAX_TEXT_LENGTH) {
    return err(validationFailed(`Description is too long (maximum is ${MAX_TEXT_LENGTH} characters)`))
  }
  if (input.scopes.length === 0) return err(validationFailed("Scopes can't be blank"))
  if (!input.scopes.every((s) => vocabulary.includes(s))) {
    return err(invalidParameter('scopes', 'not_allowed_value'))
  }
  return ok({ name, description, scopes: [...new Set(input.scopes)] })
}
