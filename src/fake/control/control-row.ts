import type { ControlParts } from './control-parts.js'
import type { Schema } from './openapi-schema.js'

/** The names of a path template's parameters: `'id'` for `/faults/:id`. */
export type PathParameterNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParameterNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never

/** A path's parameters by name, as the route table read them (as sent, never empty). */
export type PathParameters<P extends string> = { readonly [K in PathParameterNames<P>]: string }

/** What a control route's handler gets: the request as the control handler has read it. */
export interface ControlInput<P extends string = string> {
  readonly parts: ControlParts
  readonly request: Request
  readonly url: URL
  /** The path's parameters, typed by the row's path. */
  readonly path: PathParameters<P>
  /** The JSON body (within the route's limit); `undefined` for GET, for an empty body and for `body: 'none'`. */
  readonly body: unknown
}

/** An OpenAPI operation of a row, without its path parameters (from `pathSchemas`) and the guard's refusals. */
export interface RouteDoc {
  readonly operationId: string
  readonly summary: string
  readonly parameters?: readonly Schema[]
  readonly requestBody?: Schema
  readonly responses: Readonly<Record<string, unknown>>
}

/** What every control row declares. */
interface ControlRowShape<P extends string> {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** Relative to `/__patkit`; `:name` is a path parameter. */
  readonly path: P
  /**
   * The body the route reads: none (a body sent is still read within 64 KiB, then ignored), JSON
   * within 64 KiB, or JSON within `controlBodyLimit` (a whole data set, a batch of users). Default none.
   */
  readonly body?: 'none' | 'json' | 'bulk'
  /** The route in the OpenAPI document. */
  readonly doc: RouteDoc
  readonly serve: (input: ControlInput<P>) => Response | Promise<Response>
}

/** The schema of each path parameter, for the document: required exactly when the path has some. */
type PathSchemas<P extends string> = [PathParameterNames<P>] extends [never]
  ? { readonly pathSchemas?: undefined }
  : { readonly pathSchemas: { readonly [K in PathParameterNames<P>]: Schema } }

/** One control route as the table holds it: its handler takes the parameters by name. */
export interface ControlRow extends Omit<ControlRowShape<string>, 'serve'> {
  readonly pathSchemas?: Readonly<Record<string, Schema>> | undefined
  readonly serve: (input: ControlInput) => Response | Promise<Response>
}

/**
 * A control row, its handler typed by its path: `/faults/:id` gives `input.path.id`, a string the
 * route table read once.
 */
export function controlRoute<const P extends string>(row: ControlRowShape<P> & PathSchemas<P>): ControlRow {
  // The table gives every parameter of the template: the typed view is the same object.
  return row as unknown as ControlRow
}
