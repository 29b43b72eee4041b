import { err, ok, type Result } from 'neverthrow'
import { invalidParameter, validationFailed } from './error-constructors.js'
import type { ErrorOf } from './errors.js'
import { SCOPES } from './scopes.js'

/** GitLab's model message for a scope the token may not carry. */
export const UNAVAILABLE_SCOPES = 'Scopes can only contain available scopes'

/** GitLab's column limit for `name` and `description`. */
export const MAX_TEXT_LENGTH = 255

/** The described fields of a token, as a caller gives them. */
interface TokenFieldsInput {
  readonly name: string
  readonly scopes: readonly string[]
  readonly description?: string | null
}

/** The fields once checked: the name trimmed, the description `null` when absent, each scope once. */
export interface TokenFields {
  readonly name: string
  readonly scopes: readonly string[]
  readonly description: string | null
}

/**
 * GitLab's model rules for a token's name, description and scopes, in GitLab's order: name present,
 * name and description at most {@link MAX_TEXT_LENGTH} characters (so every store receives only what
 * fits its columns), scopes present and of `vocabulary` (the authority's `scopes` option). An unknown
 * scope fails as `unknown` says (see `ScopeRule`). A `fineGrained` token has no scopes.
 */
export function validateTokenFields(
  input: TokenFieldsInput,
  vocabulary: readonly string[] = SCOPES,
  unknown: 'invalid_parameter' | 'validation_failed' = 'invalid_parameter',
  fineGrained = false,
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
  // A fine-grained token's rights are its granular scopes: it has no scopes.
  if (fineGrained) return ok({ name, description, scopes: [] })
  if (input.scopes.length === 0) return err(validationFailed("Scopes can't be blank"))
  if (!input.scopes.every((s) => vocabulary.includes(s))) {
    return err(
      unknown === 'invalid_parameter'
        ? invalidParameter('scopes', 'not_allowed_value')
        : validationFailed(UNAVAILABLE_SCOPES),
    )
  }
  return ok({ name, description, scopes: [...new Set(input.scopes)] })
}
