import type { Result } from 'neverthrow'
import type { PatkitError } from '../domain/errors.js'
import { errorReply } from './error-response.js'
import { jsonText, type Reply } from './responses.js'

/**
 * The answer to a rotate request, a personal or a resource token's: an error as GitLab's (a parameter
 * the route refused included), else 200 with `body`. A client can tell a replay of its
 * first answer (`Idempotent-Replayed`); the grace window's replay is answered as the rotation was.
 */
export function rotationReply<R extends { readonly replayed: boolean }>(
  rotated: Result<R, PatkitError>,
  idempotencyKey: string | null,
  body: (rotation: R) => string,
): Reply {
  if (rotated.isErr()) return errorReply(rotated.error)
  const replayed = rotated.value.replayed && idempotencyKey !== null
  return jsonText(200, body(rotated.value), replayed ? { 'idempotent-replayed': 'true' } : {})
}
