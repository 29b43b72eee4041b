/**
 * Thrown where a handler asks for the caller of a route no patkit guard ran on: `principalOf(res)`
 * in `patkit/express`, `request.principal` in `patkit/fastify`. A programming error (the route lacks
 * its guard), so it is thrown rather than answered: the application's error handler and logger get
 * the message naming the mistake, and the client a plain 500 (`statusCode` is 500). Fastify would
 * send the message to the client, so `fastifyPatkit` answers `{"message":"500 Internal Server Error"}`
 * in its place.
 *
 * @example
 * ```ts
 * import { MissingPrincipalError } from 'patkit/express'
 *
 * function onError(error: unknown): number {
 *   return error instanceof MissingPrincipalError ? error.statusCode : 400
 * }
 * ```
 */
export class MissingPrincipalError extends Error {
  override readonly name = 'MissingPrincipalError'
  /** The status Express and Fastify answer a thrown error with: 500, the route is at fault. */
  readonly statusCode = 500
}
