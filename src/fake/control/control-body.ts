import { err, ok, type Result } from 'neverthrow'
import { readLimited } from '../../http/read-limited.js'
import { JSON_ONLY } from './control-guard.js'

/** The largest body a control route reads, except the bulk ones (64 KiB, as GitLab's API). */
export const CONTROL_BODY_LIMIT = 64 * 1024

/** The default limit of the bulk routes (`PUT /__patkit/state`, `POST /__patkit/users`): 16 MiB. */
export const DEFAULT_CONTROL_BULK_LIMIT = 16 * 1024 * 1024

/** Why a body was refused: a status and a sentence for the caller. */
export interface BodyRefusal {
  readonly status: 400 | 413 | 415
  readonly message: string
}

// A strict decoder: bytes that are not UTF-8 are not JSON, rather than JSON with U+FFFD in it.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/**
 * A byte count as people read it: `65536 bytes (64 KiB)`, `16777216 bytes (16 MiB)`, `1000 bytes`.
 */
function formatByteLimit(bytes: number): string {
  const mib = bytes / (1024 * 1024)
  const kib = bytes / 1024
  if (Number.isInteger(mib)) return `${bytes} bytes (${mib} MiB)`
  if (Number.isInteger(kib)) return `${bytes} bytes (${kib} KiB)`
  return `${bytes} bytes`
}

function tooLarge(limit: number, route: string, hint: string): BodyRefusal {
  return {
    status: 413,
    message: `the body is larger than ${formatByteLimit(limit)}, the limit of ${route}${hint}`,
  }
}

/** How {@link readControlBody} reads one route's body. */
interface ControlBodyOptions {
  /** Bytes read at most. */
  readonly limit: number
  /** The route, as the 413 names it: `PUT /__patkit/state`. */
  readonly route: string
  /** Said after the limit in the 413, e.g. how to raise it. */
  readonly hint?: string
  /** Whether the route takes no body: one is read (within the limit) and ignored. */
  readonly ignore?: boolean
}

/**
 * Reads a control request's JSON body, at most `limit` bytes (else 413 naming the limit and the
 * route): the parsed value, or undefined when there is no body (none, or only white space) or the
 * route ignores it. A non-empty body that came without a Content-Type (a stream says neither its
 * length nor its type, so the guard could not see it) is 415; one that is not UTF-8 JSON is 400.
 */
export async function readControlBody(
  request: Request,
  options: ControlBodyOptions,
): Promise<Result<unknown, BodyRefusal>> {
  const { limit, route, hint = '' } = options
  const bytes = await readLimited(request, limit)
  if (bytes === null) return err(tooLarge(limit, route, hint))
  if (options.ignore === true) return ok(undefined)
  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    return err({ status: 400, message: 'the body must be JSON' })
  }
  if (text.trim() === '') return ok(undefined)
  if (request.headers.get('content-type') === null) return err({ status: 415, message: JSON_ONLY })
  try {
    return ok(JSON.parse(text) as unknown)
  } catch {
    return err({ status: 400, message: 'the body must be JSON' })
  }
}
