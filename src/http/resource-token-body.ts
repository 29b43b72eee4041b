import { err, ok, type Result } from 'neverthrow'
import type { ResourceTokenRequest } from '../authority/resource/resource-token-create.js'
import { invalidParameter } from '../domain/error-constructors.js'
import { type AccessLevel, isAccessLevel } from '../domain/resource.js'
import { RESOURCE_BOT_SCOPES } from '../domain/scopes.js'
import type { BodyParams } from './request-body.js'
import type { InvalidParameter } from './request-params.js'
import { parseCreateBody } from './token-body.js'

// `optional :access_level, type: Integer, values: Gitlab::Access.options_with_owner.values, default: 40`.
function accessLevelOf(body: BodyParams): Result<AccessLevel | undefined, InvalidParameter> {
  const raw = body['access_level']
  if (raw === undefined) return ok(undefined)
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : null
  if (text === null || !/^[+-]?\d+$/.test(text)) return err(invalidParameter('access_level', 'invalid'))
  const level = Number(text)
  return isAccessLevel(level) ? ok(level) : err(invalidParameter('access_level', 'not_allowed_value'))
}

/**
 * The body of `POST /{projects,groups}/:id/access_tokens`: the personal access token create body
 * with `resource_bot_scopes` as the scopes' values, then `access_level`; Grape reports every failure
 * together, in declaration order.
 */
export function parseResourceTokenBody(body: BodyParams): Result<ResourceTokenRequest, InvalidParameter> {
  const fields = parseCreateBody(body, RESOURCE_BOT_SCOPES)
  const level = accessLevelOf(body)
  if (fields.isErr()) {
    if (level.isOk()) return err(fields.error)
    const { further = [], ...first } = fields.error
    return err({ ...first, further: [...further, level.error] })
  }
  if (level.isErr()) return err(level.error)
  return ok({ ...fields.value, ...(level.value === undefined ? {} : { accessLevel: level.value }) })
}
