import { err, ok, type Result } from 'neverthrow'
import { type Params, parseForm } from './form-params.js'
import type { IncomingRequest } from './incoming.js'
import { hasNullByte, MALFORMED } from './malformed-strings.js'
import { readLimited } from './read-limited.js'
import { error, type Reply } from './responses.js'

/** Request parameters from a body: JSON values, or strings and string arrays from a form. */
export type BodyParams = Params

// Fatal: a body to parse that is not UTF-8 is refused as GitLab refuses one, rather than read with
// U+FFFD in it. A leading BOM is kept in the text, so such a body stays what it was: not JSON.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** The body's text, or undefined when its bytes are not UTF-8. */
function decode(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes)
  } catch {
    return undefined
  }
}

/**
 * The largest body the handler reads by default (64 KiB); larger ones get 413. `bodyLimit` changes it.
 *
 * @example
 * ```ts
 * import { createHandler, DEFAULT_BODY_LIMIT } from 'patkit/http'
 *
 * const handler = createHandler(authority, { bodyLimit: 4 * DEFAULT_BODY_LIMIT })
 * ```
 */
export const DEFAULT_BODY_LIMIT = 64 * 1024

/** Parameters with a null byte in a value are refused as GitLab refuses them (see malformed-strings.ts). */
function checked(params: BodyParams | undefined): Result<BodyParams, Reply> {
  return params === undefined || hasNullByte(params) ? err(MALFORMED) : ok(params)
}

function jsonParams(text: string): Result<BodyParams, Reply> {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return err(error(400, 'body is not valid JSON'))
  }
  // go-gitlab sends `null` for a nil options pointer; GitLab (Grape) merges only an object body into
  // the parameters, so `null` is no parameters, as an empty body is.
  if (parsed === null) return ok({})
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return err(error(400, 'body must be a JSON object'))
  }
  return checked(parsed as BodyParams)
}

/**
 * Reads a request body as parameters: JSON (an object) or `application/x-www-form-urlencoded`. An
 * empty body, an empty JSON object (gitbeaker sends `{}` on DELETE) or JSON `null` (go-gitlab's nil
 * options) gives no parameters.
 * Malformed JSON, a non-object, an unsupported media type or a body over `limit` bytes is a 4xx; a
 * body that is not UTF-8, a bad `%` escape in a form, or a null byte in a value is GitLab's 400
 * `Bad Request` ({@link MALFORMED}).
 */
export async function readBodyParams(
  request: IncomingRequest,
  limit: number,
): Promise<Result<BodyParams, Reply>> {
  const bytes = await readLimited(request, limit)
  if (bytes === null) return err(error(413, '413 Request Entity Too Large'))
  const text = decode(bytes)
  if (text !== undefined && text.trim() === '') return ok({})
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  const form = type === 'application/x-www-form-urlencoded'
  if (!form && !(type === 'application/json' || type === '' || type.endsWith('+json'))) {
    // A body GitLab does not parse is never looked into, whatever its bytes.
    return err(error(415, '415 Unsupported Media Type'))
  }
  if (text === undefined) return err(MALFORMED)
  return form ? checked(parseForm(text)) : jsonParams(text)
}
