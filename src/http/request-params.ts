import { err, ok, type Result } from 'neverthrow'
import type { CreateRequest } from '../authority/create.js'
import type { TokenRef } from '../authority/principal.js'
import type { ErrorOf } from '../domain/errors.js'
import { parseIsoDateTime } from '../query/iso-datetime.js'
import type { BodyParams } from './request-body.js'

type InvalidParameter = ErrorOf<'invalid_parameter'>

const invalid = (parameter: string, reason: InvalidParameter['reason'] = 'invalid'): InvalidParameter => ({
  type: 'invalid_parameter',
  parameter,
  reason,
})

/** `:id` is a decimal integer or `self` (design decision); anything else is `id is invalid`. */
export function parseTokenRef(segment: string | undefined): Result<TokenRef, InvalidParameter> {
  if (segment === 'self') return ok('self')
  return parseId(segment, 'id')
}

/** A positive decimal id that fits a JavaScript number exactly. */
export function parseId(segment: string | undefined, parameter: string): Result<number, InvalidParameter> {
  if (segment === undefined || !/^\d{1,15}$/.test(segment)) return err(invalid(parameter))
  const id = Number(segment)
  return id > 0 ? ok(id) : err(invalid(parameter))
}

/** Body keys the route does not know (besides `private_token` and `sudo`, accepted everywhere). */
export function unknownParameter(body: BodyParams, known: readonly string[]): string | undefined {
  return Object.keys(body).find((key) => key !== 'private_token' && key !== 'sudo' && !known.includes(key))
}

/** An optional string parameter; any other JSON type is `<name> is invalid`. */
export function optionalString(body: BodyParams, name: string): Result<string | undefined, InvalidParameter> {
  const value = body[name]
  if (value === undefined) return ok(undefined)
  return typeof value === 'string' ? ok(value) : err(invalid(name))
}

/**
 * GitLab's `CommaSeparatedToArray` coercion of `scopes` (lib/api/validations/types), which never
 * fails: a string is split on commas (Ruby's `split`: trailing empty fields dropped, others kept) and
 * each part stripped; an array gets the same for each element as text (`nil` is empty text); any
 * other value, `null` included, is no scopes. A part left empty is kept, as in GitLab, where it then
 * fails the `values:` check.
 *
 * @example
 * ```ts
 * import { commaSeparatedToArray } from './request-params.js'
 *
 * commaSeparatedToArray('api, read_user') // ['api', 'read_user']
 * commaSeparatedToArray('api,,read_user,') // ['api', '', 'read_user']
 * commaSeparatedToArray(null) // []
 * ```
 */
export function commaSeparatedToArray(value: unknown): string[] {
  if (typeof value === 'string') return rubySplitComma(value)
  if (Array.isArray(value)) return value.flatMap((element) => rubySplitComma(rubyText(element)))
  return []
}

function rubySplitComma(text: string): string[] {
  const parts = text.split(',')
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop()
  // Ruby's `strip`: ASCII whitespace only (a null byte never gets here: such a body is refused).
  return parts.map((part) => part.replace(/^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g, ''))
}

/** Ruby's `to_s` of a JSON value, as far as a scope can tell: `nil` is empty; structures stay unmatched. */
function rubyText(value: unknown): string {
  if (typeof value === 'string') return value
  if (value === null || value === undefined) return ''
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return JSON.stringify(value)
}

/**
 * A Grape `Date` parameter as text for the authority: absent or empty (Grape reads `''` as nil for
 * every typed parameter) is `undefined`; a date-time is its date as written (Grape's `Date` drops the
 * time); anything else is passed on, for the authority to refuse as `<name> is invalid`.
 *
 * @example
 * ```ts
 * import { grapeDate } from './request-params.js'
 *
 * grapeDate({ expires_at: '2026-12-22 23:20:00 UTC' }, 'expires_at') // ok('2026-12-22')
 * grapeDate({ expires_at: '' }, 'expires_at') // ok(undefined)
 * ```
 */
export function grapeDate(body: BodyParams, name: string): Result<string | undefined, InvalidParameter> {
  const value = optionalString(body, name)
  if (value.isErr() || value.value === undefined) return value
  if (value.value === '') return ok(undefined)
  const parsed = parseIsoDateTime(value.value)
  return ok(parsed.isOk() ? parsed.value.day : value.value)
}

/**
 * The body of both create routes, validated as Grape declares them (`requires :name, type: String`;
 * `requires :scopes, type: Array[String], coerce_with: CommaSeparatedToArray, values: allowedScopes`;
 * `description` and `expires_at` optional). Grape runs every validator and reports every failure
 * together, in declaration order. An absent `scopes` is `scopes is missing` and nothing more: its
 * coercion turns the absence into `[]`, which passes `values:`. A present `scopes` is coerced (see
 * {@link commaSeparatedToArray}), so `null`, `''` and `[]` are no scopes, which pass Grape and are the
 * model's `Scopes can't be blank`; a part outside `allowedScopes` (an empty one too) is `scopes does
 * not have a valid value`. A `name` of `null` is present and blank, the model's `Name can't be blank`.
 *
 * @example
 * ```ts
 * import { parseCreateBody } from './request-params.js'
 *
 * parseCreateBody({ name: 'ci', scopes: 'api,read_user' }, ['api', 'read_user']) // ok
 * parseCreateBody({}, ['api']).isErr() // true: name is missing, scopes is missing
 * ```
 */
export function parseCreateBody(
  body: BodyParams,
  allowedScopes: readonly string[],
): Result<CreateRequest, InvalidParameter> {
  const failures: InvalidParameter[] = []
  const name = body['name']
  if (name === undefined) failures.push(invalid('name', 'missing'))
  else if (name !== null && typeof name !== 'string') failures.push(invalid('name'))
  const rawScopes = body['scopes']
  const scopes = commaSeparatedToArray(rawScopes)
  if (rawScopes === undefined) failures.push(invalid('scopes', 'missing'))
  else if (!scopes.every((s) => allowedScopes.includes(s)))
    failures.push(invalid('scopes', 'not_allowed_value'))
  const description = body['description']
  if (description !== undefined && description !== null && typeof description !== 'string') {
    failures.push(invalid('description'))
  }
  const expiresAt = grapeDate(body, 'expires_at')
  if (expiresAt.isErr()) failures.push(expiresAt.error)
  const [first, ...further] = failures
  if (first !== undefined) {
    return err(
      further.length === 0
        ? first
        : { ...first, further: further.map(({ parameter, reason }) => ({ parameter, reason })) },
    )
  }
  return ok({
    // Grape keeps a present `null`; the model finds it blank, as it finds `''`.
    name: typeof name === 'string' ? name : '',
    scopes,
    ...(description === undefined ? {} : { description: description as string | null }),
    ...(expiresAt.isOk() && expiresAt.value !== undefined ? { expiresAt: expiresAt.value } : {}),
  })
}
