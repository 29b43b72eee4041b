import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely'
import type { PatkitDatabase } from './schema.js'

/**
 * A placeholder for a value a {@link Prepared} statement is later run with: a unique object, so it can
 * never be mistaken for a real parameter when the compiled statement is searched for it. Typed as the
 * value it stands for, so the query builder accepts it.
 */
export function slot<T>(name: string): T {
  return Object.freeze({ slot: name }) as unknown as T
}

/**
 * A statement built and compiled once (the table-prefix plugin and every host plugin applied then),
 * run with fresh values: what the hot paths use instead of building, transforming and compiling the
 * same query tree on every call. The SQL text is identical to the builder's for the same values.
 */
export interface Prepared<R> {
  /** Runs the statement on `db` (the store's instance or a transaction of it) with the slots' values. */
  run(db: Kysely<PatkitDatabase>, values: readonly unknown[]): Promise<QueryResult<R>>
  /** The compiled SQL text. */
  readonly sql: string
  /** The parameters `run` binds for the slots' values, in the statement's order. */
  bind(values: readonly unknown[]): unknown[]
}

/**
 * Compiles `query` and remembers where each slot's value goes. Throws at store creation if a slot does
 * not reach the compiled parameters (a builder that inlined or dropped it), a programming error.
 */
export function prepare<R>(query: Compilable<R>, slots: readonly unknown[]): Prepared<R> {
  const compiled: CompiledQuery<R> = query.compile()
  const positions = compiled.parameters.map((parameter) => slots.indexOf(parameter))
  for (let k = 0; k < slots.length; k++) {
    if (!positions.includes(k)) throw new Error(`patkit/sql: a prepared statement lost slot ${k}`)
  }
  const bind = (values: readonly unknown[]): unknown[] =>
    compiled.parameters.map((parameter, i) => {
      const position = positions[i] ?? -1
      return position === -1 ? parameter : values[position]
    })
  return {
    run(db, values) {
      return db.executeQuery<R>({ ...compiled, parameters: bind(values) })
    },
    sql: compiled.sql,
    bind,
  }
}
