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

/** Scopes as GitLab's users API takes them: an array of strings, or one comma-separated string. */
function parseScopes(value: unknown): Result<readonly string[], InvalidParameter> {
  if (value === undefined || value === null) return err(invalid('scopes', 'missing'))
  if (typeof value === 'string') {
    return ok(
      value
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    )
  }
  if (Array.isArray(value) && value.every((s) => typeof s === 'string')) return ok(value)
  return err(invalid('scopes'))
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
 * The body of both create routes, validated as Grape declares them: `name` and `scopes` required,
 * `scopes` one of `allowedScopes` (GitLab's `values:`), `description` and `expires_at` optional. Grape
 * runs every validator and reports every failure together, in declaration order; a missing `scopes`
 * also fails its `values:` check (`name is missing, scopes is missing, scopes does not have a valid
 * value`). An empty `scopes` passes Grape and is the model's `Scopes can't be blank`.
 *
 * @example
 * ```ts
 * import { parseCreateBody } from './request-params.js'
 *
 * parseCreateBody({ name: 'ci', scopes: 'api,read_user' }, ['api', 'read_user']) // ok
 * parseCreateBody({}, ['api']).isErr() // true: name is missing, scopes is missing, scopes does not have a valid value
 * ```
 */
export function parseCreateBody(
  body: BodyParams,
  allowedScopes: readonly string[],
): Result<CreateRequest, InvalidParameter> {
  const failures: InvalidParameter[] = []
  const name = body['name']
  if (name === undefined || name === null) failures.push(invalid('name', 'missing'))
  else if (typeof name !== 'string') failures.push(invalid('name'))
  const scopes = parseScopes(body['scopes'])
  if (scopes.isErr()) {
    failures.push(scopes.error)
    if (scopes.error.reason === 'missing') failures.push(invalid('scopes', 'not_allowed_value'))
  } else if (!scopes.value.every((s) => allowedScopes.includes(s))) {
    failures.push(invalid('scopes', 'not_allowed_value'))
  }
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
    name: name as string,
    scopes: scopes.isOk() ? scopes.value : [],
    ...(description === undefined ? {} : { description: description as string | null }),
    ...(expiresAt.isOk() && expiresAt.value !== undefined ? { expiresAt: expiresAt.value } : {}),
  })
}
