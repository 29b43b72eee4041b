import { err, ok, type Result } from 'neverthrow'
import type { CreateRequest } from '../authority/core/create.js'
import type { ImpersonationCreateRequest } from '../authority/impersonation/impersonation-tokens.js'
import { invalidParameter } from '../domain/error-constructors.js'
import { parseGranularScopes } from './granular-scopes-param.js'
import type { BodyParams } from './request-body.js'
import {
  commaSeparatedToArray,
  grapeDate,
  grapeFailures,
  type InvalidParameter,
  optionalString,
} from './request-params.js'

// The bodies of the routes that create a token, as GitLab's Grape declarations read them. Both begin
// with `requires :name, type: String` and `optional :description, type: String`: a `name` of `null`
// is present (blank to the model, `Name can't be blank`), any other non-string is `name is invalid`.

function nameFailure(body: BodyParams): InvalidParameter | undefined {
  const name = body['name']
  if (name === undefined) return invalidParameter('name', 'missing')
  return name !== null && typeof name !== 'string' ? invalidParameter('name', 'invalid') : undefined
}

function descriptionFailure(body: BodyParams): InvalidParameter | undefined {
  const description = body['description']
  return description !== undefined && description !== null && typeof description !== 'string'
    ? invalidParameter('description', 'invalid')
    : undefined
}

/** The fields both bodies take as given once their checks passed. */
function nameAndDescription(body: BodyParams): { name: string; description?: string | null } {
  const name = body['name']
  const description = body['description'] as string | null | undefined
  return {
    // Grape keeps a present `null`; the model finds it blank, as it finds `''`.
    name: typeof name === 'string' ? name : '',
    ...(description === undefined ? {} : { description }),
  }
}

/**
 * The body of both personal access token create routes (`requires :scopes, type: Array[String],
 * coerce_with: CommaSeparatedToArray, values: allowedScopes`; `expires_at` a Date). Grape runs every
 * validator and reports every failure together, in declaration order. An absent `scopes` is `scopes
 * is missing` and nothing more: its coercion turns the absence into `[]`, which passes `values:`. A
 * present `scopes` is coerced (see `commaSeparatedToArray`), so `null`, `''` and `[]` are no scopes,
 * which pass Grape and are the model's `Scopes can't be blank`; a part outside `allowedScopes` (an
 * empty one too) is `scopes does not have a valid value`.
 */
export function parseCreateBody(
  body: BodyParams,
  allowedScopes: readonly string[],
  granular = false,
): Result<CreateRequest, InvalidParameter> {
  const failures: InvalidParameter[] = []
  const name = nameFailure(body)
  if (name !== undefined) failures.push(name)
  const rawScopes = body['scopes']
  const rawGranular = granular ? body['granular_scopes'] : undefined
  const scopes = commaSeparatedToArray(rawScopes)
  if (rawScopes === undefined && !granular) failures.push(invalidParameter('scopes', 'missing'))
  else if (rawScopes !== undefined && !scopes.every((s) => allowedScopes.includes(s))) {
    failures.push(invalidParameter('scopes', 'not_allowed_value'))
  }
  const granularScopes = rawGranular === undefined ? undefined : parseGranularScopes(rawGranular)
  if (granularScopes?.isErr()) failures.push(granularScopes.error)
  // Grape's `exactly_one_of :scopes, :granular_scopes` (MR !260958), after the parameters' own checks.
  if (granular && (rawScopes === undefined) === (rawGranular === undefined)) {
    failures.push(
      invalidParameter(
        'scopes, granular_scopes',
        rawScopes === undefined ? 'exactly_one' : 'mutually_exclusive',
      ),
    )
  }
  const description = descriptionFailure(body)
  if (description !== undefined) failures.push(description)
  const expiresAt = grapeDate(body, 'expires_at')
  if (expiresAt.isErr()) failures.push(expiresAt.error)
  const checked = grapeFailures(failures)
  if (checked.isErr()) return err(checked.error)
  return ok({
    ...nameAndDescription(body),
    scopes,
    ...(expiresAt.isOk() && expiresAt.value !== undefined ? { expiresAt: expiresAt.value } : {}),
    ...(granularScopes?.isOk() ? { granularScopes: granularScopes.value } : {}),
  })
}

/**
 * The body of `POST /users/:user_id/impersonation_tokens` (`optional :scopes`, coerced the same way
 * with no `values:`; `expires_at` passed on as text): its first failure only. A present `scopes` is
 * coerced as GitLab coerces it, so `null` and `''` are no scopes and an empty part stays, for the
 * model to refuse.
 */
export function parseImpersonationBody(
  body: BodyParams,
  granular = false,
): Result<ImpersonationCreateRequest, InvalidParameter> {
  const failure = nameFailure(body) ?? descriptionFailure(body)
  if (failure !== undefined) return err(failure)
  const rawGranular = granular ? body['granular_scopes'] : undefined
  // `scopes` is optional here (a missing one is the model's "Scopes can't be blank"): how MR !243990
  // declares the pair was not found, so patkit refuses only both together (mutually exclusive).
  if (rawGranular !== undefined && body['scopes'] !== undefined) {
    return err(invalidParameter('scopes, granular_scopes', 'mutually_exclusive'))
  }
  const granularScopes = rawGranular === undefined ? undefined : parseGranularScopes(rawGranular)
  if (granularScopes?.isErr()) return err(granularScopes.error)
  const expiresAt = optionalString(body, 'expires_at')
  if (expiresAt.isErr()) return err(expiresAt.error)
  const scopes = body['scopes']
  return ok({
    ...nameAndDescription(body),
    ...(scopes === undefined ? {} : { scopes: commaSeparatedToArray(scopes) }),
    ...(expiresAt.value === undefined ? {} : { expiresAt: expiresAt.value }),
    ...(granularScopes?.isOk() ? { granularScopes: granularScopes.value } : {}),
  })
}
