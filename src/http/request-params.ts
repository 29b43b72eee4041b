import { err, ok, type Result } from 'neverthrow'
import type { TokenRef } from '../authority/core/principal.js'
import { invalidParameter } from '../domain/error-constructors.js'
import type { ErrorOf } from '../domain/errors.js'
import { parseIsoDateTime } from '../query/iso-datetime.js'
import type { BodyParams } from './request-body.js'

/** A parameter Grape refuses: `<name> is missing`, `<name> is invalid`, ... (400). */
export type InvalidParameter = ErrorOf<'invalid_parameter'>

/**
 * Grape's answer to a request with several bad parameters: every failure together, in declaration
 * order (`name is missing, scopes is missing`); ok when there is none.
 */
export function grapeFailures(failures: readonly InvalidParameter[]): Result<void, InvalidParameter> {
  const [first, ...further] = failures
  if (first === undefined) return ok(undefined)
  return err(
    further.length === 0
      ? first
      : { ...first, further: further.map(({ parameter, reason }) => ({ parameter, reason })) },
  )
}

/** The last value of a query parameter given several times (Rack keeps the last), or undefined. */
export function lastValue(params: URLSearchParams, name: string): string | undefined {
  return params.getAll(name).at(-1)
}

/** `:id` is a decimal integer or `self` (design decision); anything else is `id is invalid`. */
export function parseTokenRef(segment: string | undefined): Result<TokenRef, InvalidParameter> {
  if (segment === 'self') return ok('self')
  return parseId(segment, 'id')
}

/** A positive decimal id that fits a JavaScript number exactly. */
export function parseId(segment: string | undefined, parameter: string): Result<number, InvalidParameter> {
  if (segment === undefined || !/^\d{1,15}$/.test(segment)) return err(invalidParameter(parameter, 'invalid'))
  const id = Number(segment)
  return id > 0 ? ok(id) : err(invalidParameter(parameter, 'invalid'))
}

/** Body keys the route does not know (besides `private_token` and `sudo`, accepted everywhere). */
export function unknownParameter(body: BodyParams, known: readonly string[]): string | undefined {
  return Object.keys(body).find((key) => key !== 'private_token' && key !== 'sudo' && !known.includes(key))
}

/** An optional string parameter; any other JSON type is `<name> is invalid`. */
export function optionalString(body: BodyParams, name: string): Result<string | undefined, InvalidParameter> {
  const value = body[name]
  if (value === undefined) return ok(undefined)
  return typeof value === 'string' ? ok(value) : err(invalidParameter(name, 'invalid'))
}

/**
 * GitLab's `CommaSeparatedToArray` coercion of `scopes` (lib/api/validations/types), which never
 * fails: a string is split on commas (Ruby's `split`: trailing empty fields dropped, others kept) and
 * each part stripped; an array gets the same for each element as text (`nil` is empty text); any
 * other value, `null` included, is no scopes. A part left empty is kept, as in GitLab, where it then
 * fails the `values:` check.
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
 */
export function grapeDate(body: BodyParams, name: string): Result<string | undefined, InvalidParameter> {
  const value = optionalString(body, name)
  if (value.isErr() || value.value === undefined) return value
  if (value.value === '') return ok(undefined)
  const parsed = parseIsoDateTime(value.value)
  return ok(parsed.isOk() ? parsed.value.day : value.value)
}
