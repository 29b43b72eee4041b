import type { ResultAsync } from 'neverthrow'
import type { Authority } from './create-authority.js'
import type { RotateRequestError } from './requests/rotate-request.js'
import type { ResourceRotateError } from './resource/resource-token-rotate.js'

type AnyResult = (...args: never[]) => ResultAsync<unknown, unknown>

/** The names of an object's members that answer a `ResultAsync`. */
type ResultNames<O> = { [M in keyof O & string]: O[M] extends AnyResult ? M : never }[keyof O & string]

/** The groups of {@link Authority} (`users`, `resources`, ...): its object members. */
type Group = {
  [G in keyof Authority & string]: Authority[G] extends object
    ? Authority[G] extends AnyResult | readonly unknown[]
      ? never
      : G
    : never
}[keyof Authority & string]

/**
 * The methods of {@link Authority} that answer a `ResultAsync` (every one but `now`), a group's as
 * `'group.method'` (`'impersonation.revoke'`).
 */
type ResultMethod = ResultNames<Authority> | { [G in Group]: `${G}.${ResultNames<Authority[G]>}` }[Group]

/** The method a {@link ResultMethod} names. */
type MethodOf<M extends ResultMethod> = M extends `${infer G extends Group}.${infer N}`
  ? N extends keyof Authority[G]
    ? Authority[G][N]
    : never
  : M extends keyof Authority
    ? Authority[M]
    : never

/**
 * The errors one method of an {@link Authority} can answer, by the method's name: `AuthorityError<'rotate'>`
 * is the union `authority.rotate` returns; a group's method is named with its group,
 * `AuthorityError<'impersonation.revoke'>`. Without a name, the errors of every method. Each member is a
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
// The two `rotateRequest`s are generic in the caller's own parse errors: their own errors are named without them.
export type AuthorityError<M extends ResultMethod = ResultMethod> = M extends 'requests.rotateRequest'
  ? RotateRequestError
  : M extends 'resources.rotateRequest'
    ? ResourceRotateError
    : M extends ResultMethod
      ? MethodOf<M> extends (...args: never[]) => ResultAsync<unknown, infer E>
        ? E
        : never
      : never
