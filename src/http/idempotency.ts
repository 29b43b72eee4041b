import type { Authority } from '../authority/create-authority.js'
import type { RotationIdempotency } from '../authority/rotate.js'
import { errorReply } from './error-response.js'
import type { IncomingRequest } from './incoming.js'
import { parseTokenRef } from './request-params.js'
import { json, type Reply } from './responses.js'
import { tokenJson } from './token-json.js'

/**
 * The `Idempotency-Key` header of a rotate request as sent (`null` when absent, or on another route,
 * where it is ignored as GitLab ignores any unknown header). Its validity is the authority's to judge.
 *
 * @example
 * ```ts
 * import { idempotencyKeyOf } from './idempotency.js'
 *
 * idempotencyKeyOf(request, true) // 'retry-1' or null on a rotate route
 * idempotencyKeyOf(request, false) // null on any other route
 * ```
 */
export function idempotencyKeyOf(request: IncomingRequest, isRotate: boolean): string | null {
  return isRotate ? request.headers.get('idempotency-key') : null
}

/**
 * What `rotate` is given for a request with the header: the key, and the secret that authenticated it.
 *
 * @example
 * ```ts
 * import { rotationIdempotency } from './idempotency.js'
 *
 * rotationIdempotency('retry-1', 'glpat-...') // { key: 'retry-1', presentedSecret: 'glpat-...' }
 * ```
 */
export function rotationIdempotency(
  key: string | null,
  secret: string | null,
): RotationIdempotency | undefined {
  return key === null || secret === null ? undefined : { key, presentedSecret: secret }
}

/**
 * The answer to a retried rotation: the same 200 and body as the first answer (the successor as it is
 * now, with its secret), plus `Idempotent-Replayed: true`, so a client can tell. `null` when there is
 * nothing to replay: the request then goes on exactly as one without the header. With `key` `null`
 * (no header), the grace window's replay (`rotationGraceMs`), answered as the rotation was, without
 * the header (always `null` when the window is off).
 *
 * @example
 * ```ts
 * import { replayedRotation } from './idempotency.js'
 *
 * const replayed = await replayedRotation(authority, secret, 'self', 'retry-1')
 * if (replayed !== null) console.log(replayed.status, replayed.headers['idempotent-replayed']) // 200 'true'
 * ```
 */
export async function replayedRotation(
  authority: Authority,
  secret: string | null,
  segment: string | undefined,
  key: string | null,
): Promise<Reply | null> {
  const ref = parseTokenRef(segment)
  if (ref.isErr()) return null
  const replayed = await authority.replayRotation(secret, ref.value, key)
  if (replayed.isErr()) return errorReply(replayed.error)
  if (replayed.value === null) return null
  const { token, secret: successorSecret } = replayed.value
  return json(
    200,
    { ...tokenJson(token, authority.now()), token: successorSecret },
    key === null ? {} : { 'idempotent-replayed': 'true' },
  )
}
