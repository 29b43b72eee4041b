import type { ResultAsync } from 'neverthrow'
import type { Authority } from './create-authority.js'
import type { ResourceRotateError } from './resource-token-rotate.js'
import type { RotateRequestError } from './rotate-request.js'

/** The methods of {@link Authority} that answer a `ResultAsync` (every one but `now`). */
type ResultMethod = {
  [M in keyof Authority]: Authority[M] extends (...args: never[]) => ResultAsync<unknown, unknown> ? M : never
}[keyof Authority]

/**
 * The errors one method of an {@link Authority} can answer, by the method's name: `AuthorityError<'rotate'>`
 * is the union `authority.rotate` returns. Without a name, the errors of every method. Each member is a
 * `PatkitError`; discriminate on `type`.
 *
 * @example
 * ```ts
 * import type { AuthorityError } from 'patkit'
 *
 * function status(e: AuthorityError<'rotate'>): number {
 *   switch (e.type) {
 *     case 'already_revoked': return 400
 *     case 'store_failure': return 503
 *     default: return 401
 *   }
 * }
 * ```
 */
// `rotateRequest` and `rotateResourceTokenRequest` are generic in the caller's own parse errors: its own errors are named without them.
export type AuthorityError<M extends ResultMethod = ResultMethod> = M extends 'rotateRequest'
  ? RotateRequestError
  : M extends 'rotateResourceTokenRequest'
    ? ResourceRotateError
    : M extends ResultMethod
      ? Authority[M] extends (...args: never[]) => ResultAsync<unknown, infer E>
        ? E
        : never
      : never
