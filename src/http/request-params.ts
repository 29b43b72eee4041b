import { err, ok, type Result } from 'neverthrow'
import type { CreateRequest } from '../authority/create.js'
import type { TokenRef } from '../authority/principal.js'
import type { ErrorOf } from '../domain/errors.js'
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
    const scopes = value
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '')
    return scopes.length === 0 ? err(invalid('scopes', 'missing')) : ok(scopes)
  }
  if (Array.isArray(value) && value.every((s) => typeof s === 'string')) {
    return value.length === 0 ? err(invalid('scopes', 'missing')) : ok(value)
  }
  return err(invalid('scopes'))
}

/** The body of both create routes: `name` and `scopes` required, `description` and `expires_at` optional. */
export function parseCreateBody(body: BodyParams): Result<CreateRequest, InvalidParameter> {
  const name = body['name']
  if (name === undefined || name === null) return err(invalid('name', 'missing'))
  if (typeof name !== 'string') return err(invalid('name'))
  const scopes = parseScopes(body['scopes'])
  if (scopes.isErr()) return err(scopes.error)
  const description = body['description']
  if (description !== undefined && description !== null && typeof description !== 'string') {
    return err(invalid('description'))
  }
  const expiresAt = optionalString(body, 'expires_at')
  if (expiresAt.isErr()) return err(expiresAt.error)
  return ok({
    name,
    scopes: scopes.value,
    ...(description === undefined ? {} : { description: description as string | null }),
    ...(expiresAt.value === undefined ? {} : { expiresAt: expiresAt.value }),
  })
}
