import { err, ok, type Result } from 'neverthrow'
import type { StoreFailure } from '../domain/errors.js'
import type { Token } from '../domain/token.js'
import type { TokenFilter } from '../query/filter.js'
import type { TokenStore } from './token-store.js'

const PAGE = 100

/**
 * Every token `filter` finds, in id order, read page by page (`list`'s largest page, 100): all of
 * them, or the first failure. For the callers that need the whole set (a snapshot, expiry notices).
 */
export async function everyToken(
  store: Pick<TokenStore, 'list'>,
  filter: TokenFilter,
  now: Date,
): Promise<Result<Token[], StoreFailure>> {
  const tokens: Token[] = []
  for (let page = 1; ; page++) {
    const found = await store.list({ filter, sort: 'id_asc', page: { page, perPage: PAGE }, now })
    if (found.isErr()) return err(found.error)
    tokens.push(...found.value.items)
    if (page * PAGE >= found.value.total) return ok(tokens)
  }
}
