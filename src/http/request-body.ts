import { err, ok, type Result } from 'neverthrow'
import type { IncomingRequest } from './incoming.js'
import { error, type Reply } from './responses.js'

/** Request parameters from a body: JSON values, or strings and string arrays from a form. */
export type BodyParams = Readonly<Record<string, unknown>>

/** The largest body the handler reads; larger ones get 413. */
export const DEFAULT_BODY_LIMIT = 64 * 1024

async function readLimited(request: IncomingRequest, limit: number): Promise<Result<string, Reply>> {
  const declared = Number(request.headers.get('content-length') ?? '0')
  if (declared > limit) return err(error(413, '413 Request Entity Too Large'))
  if (request.body === null) return ok('')
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel()
      return err(error(413, '413 Request Entity Too Large'))
    }
    chunks.push(value)
  }
  return ok(Buffer.concat(chunks).toString('utf8'))
}

function formParams(text: string): BodyParams {
  const out: Record<string, unknown> = {}
  for (const [rawKey, value] of new URLSearchParams(text)) {
    // Rails' `scopes[]=a&scopes[]=b` is an array.
    if (rawKey.endsWith('[]')) {
      const key = rawKey.slice(0, -2)
      const list = out[key]
      out[key] = Array.isArray(list) ? [...list, value] : [value]
    } else out[rawKey] = value
  }
  return out
}

/**
 * Reads a request body as parameters: JSON (an object) or `application/x-www-form-urlencoded`. An
 * empty body, or an empty JSON object (gitbeaker sends `{}` on DELETE), gives no parameters.
 * Malformed JSON, a non-object, an unsupported media type or a body over `limit` bytes is a 4xx.
 */
export async function readBodyParams(
  request: IncomingRequest,
  limit: number,
): Promise<Result<BodyParams, Reply>> {
  const text = await readLimited(request, limit)
  if (text.isErr()) return err(text.error)
  if (text.value.trim() === '') return ok({})
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  if (type === 'application/x-www-form-urlencoded') return ok(formParams(text.value))
  if (type === 'application/json' || type === '' || type.endsWith('+json')) {
    let parsed: unknown
    try {
      parsed = JSON.parse(text.value)
    } catch {
      return err(error(400, 'body is not valid JSON'))
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return err(error(400, 'body must be a JSON object'))
    }
    return ok(parsed as BodyParams)
  }
  return err(error(415, '415 Unsupported Media Type'))
}
