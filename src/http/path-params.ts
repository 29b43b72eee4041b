import { err, ok, type Result } from 'neverthrow'
import type { Principal } from '../authority/core/principal.js'
import { type InvalidParameter, parseId } from './request-params.js'
import type { Reply } from './responses.js'
import type { CallerInput, RouteRow, RowShape } from './route.js'

/**
 * How a route reads one path parameter: `'string'` as sent (percent-decoded: a group's id or full
 * path), `'id'` a positive integer whose error names the parameter (`user_id is invalid`), `{ id }`
 * the same with the error naming `id` instead (`impersonation_token_id` for `:id`).
 */
export type PathParam = 'string' | 'id' | { readonly id: string }

/** A row's path parameters by name, in the order the pipeline checks them. */
export type PathParams = Readonly<Record<string, PathParam>>

/** The values a route's handler gets for its declared path parameters. */
export type PathValues<S extends PathParams> = {
  readonly [K in keyof S]: S[K] extends 'string' ? string : number
}

/** A handler's input once its path parameters are parsed. */
export type PathInput<S extends PathParams, P extends Principal | null = Principal> = CallerInput<P> & {
  readonly pathValues: PathValues<S>
}

/** How a row answers an invalid path parameter (after authentication); `errorReply` when absent. */
export type PathRefusal<P extends Principal | null = Principal> = (
  input: CallerInput<P>,
  error: InvalidParameter,
) => Reply | Promise<Reply>

// A row without `pathParams` (most of them, GET /self among them) costs the pipeline no allocation.
const NO_VALUES: Result<Readonly<Record<string, string | number>>, never> = ok(Object.freeze({}))

/** The pipeline's parse of a row's declared path parameters, the first invalid one its error. */
export function parsePathParams(
  declared: PathParams | undefined,
  path: Readonly<Record<string, string>>,
): Result<Readonly<Record<string, string | number>>, InvalidParameter> {
  if (declared === undefined) return NO_VALUES
  const values: Record<string, string | number> = {}
  for (const [name, kind] of Object.entries(declared)) {
    const segment = path[name]
    if (kind === 'string') {
      values[name] = segment ?? ''
      continue
    }
    const id = parseId(segment, kind === 'id' ? name : kind.id)
    if (id.isErr()) return err(id.error)
    values[name] = id.value
  }
  return ok(values)
}

/**
 * A row whose handler takes its path parameters typed: the pipeline parses `pathParams` once, after
 * authentication and the unknown-parameter check, and answers an invalid one with `refusePath`.
 */
export function pathRoute<const S extends PathParams>(
  row: RowShape & {
    readonly caller?: undefined
    readonly pathParams: S
    readonly refusePath?: PathRefusal
    readonly serve: (input: PathInput<S>) => Reply | Promise<Reply>
  },
): RouteRow
export function pathRoute<const S extends PathParams>(
  row: RowShape & {
    readonly caller: 'optional'
    readonly pathParams: S
    readonly refusePath?: PathRefusal<Principal | null>
    readonly serve: (input: PathInput<S, Principal | null>) => Reply | Promise<Reply>
  },
): RouteRow
export function pathRoute(row: RouteRow): RouteRow {
  // The handler's narrower input is what the pipeline gives a row that declares `pathParams`.
  return row
}
