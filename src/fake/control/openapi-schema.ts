// The small builders of the control API's OpenAPI document: its rows and its components use them.

/** A JSON Schema (2020-12, as OpenAPI 3.1 has it). */
export type Schema = Readonly<Record<string, unknown>>

/** A JSON body of this schema: a request's or an answer's `content`. */
export const json = (schema: Schema) => ({ content: { 'application/json': { schema } } })

/** A reference to one of the document's component schemas. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

/** An answer with a JSON body. */
export const answer = (description: string, schema: Schema) => ({ description, ...json(schema) })

/** A refusal: `{"error": "..."}`, with `problems` where fields are named. */
export const failure = (description: string) => answer(description, ref('Error'))

/** A type that may also be `null`. */
export const nullable = (type: string, extra: Schema = {}) => ({ type: [type, 'null'], ...extra })

/** An integer from `minimum`. */
export const integer = (minimum: number, extra: Schema = {}) => ({ type: 'integer', minimum, ...extra })

/** An object with these properties and no other. */
export const closed = (properties: Record<string, Schema>, required: readonly string[] = []) => ({
  type: 'object',
  ...(required.length === 0 ? {} : { required }),
  properties,
  additionalProperties: false,
})

/** Query parameters, none required. */
export const queryParameters = (parameters: readonly Schema[]) =>
  parameters.map((parameter) => ({ in: 'query', required: false, ...parameter }))

/** The 400 of a route that validates its input. */
export const INVALID = { '400': failure('invalid input: the sentence names the field') }
