import type { Token } from '../domain/token.js'

/**
 * How to read the instants of whatever a filter or a sort looks at, as epoch milliseconds (`null` for
 * a token never used): a {@link Token} holds `Date`s, a store's own rows may hold numbers.
 */
export interface InstantReader<T> {
  createdAt(item: T): number
  lastUsedAt(item: T): number | null
}

/** The instants of a {@link Token}. */
export const TOKEN_INSTANTS: InstantReader<Token> = Object.freeze({
  createdAt: (token: Token) => token.createdAt.getTime(),
  lastUsedAt: (token: Token) => (token.lastUsedAt === null ? null : token.lastUsedAt.getTime()),
})
