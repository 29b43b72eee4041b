import type { Token, TokenDraft } from '../../domain/token.js'
import type { UserId } from '../../domain/user-id.js'
import type { ListQuery, SortKey, TokenFilter } from '../../query/filter.js'
import type { TokenStore } from '../../store/token-store.js'
import { type DraftBuilder, draftFactory, userFixture } from '../fixtures.js'
import { okValue } from './results.js'

/**
 * The instant most conformance tests run at: 2026-06-15T12:00:00.000Z.
 */
export const NOW = new Date('2026-06-15T12:00:00.000Z')

/**
 * What a group of conformance tests registers its tests with.
 */
export interface ConformanceContext {
  /** Groups the tests `register` registers under `name` (vitest's `describe` in the suite). */
  group(name: string, register: () => void): void
  /** Registers one test; its body gets an empty store of its own (or one just reset). */
  test(title: string, body: (store: TokenStore) => Promise<void>): void
  /**
   * Registers a test of an optional capability of the port: run when the store implements it,
   * otherwise reported as skipped with that reason (a store is not wrong for leaving it out).
   */
  testOptional<K extends OptionalCapability>(
    capability: K,
    title: string,
    body: (store: WithCapability<K>) => Promise<void>,
  ): void
}

/**
 * The optional members of {@link TokenStore}, by capability: a capability is present when the store
 * has every one of them (its methods, or the `userIdType` it declares).
 */
export const CAPABILITY_METHODS = {
  findByDigestWithUser: ['findByDigestWithUser'],
  freshLookup: ['findFreshByDigest'],
  replaceAll: ['replaceAll'],
  resources: ['resources'],
  resourcesReplaceAll: ['resources', 'replaceAll'],
  rotationReceipts: ['rotateWithReceipt', 'consumeRotationReceipt'],
  successorLookup: ['findSuccessor'],
  userIdLookup: ['findUserById'],
  userIdKind: ['userIdType'],
} as const satisfies Readonly<Record<string, readonly (keyof TokenStore)[]>>

/**
 * The optional capabilities of {@link TokenStore}, which the conformance suite tests only where present.
 */
export type OptionalCapability = keyof typeof CAPABILITY_METHODS

/**
 * A store known to implement a capability's methods.
 */
export type WithCapability<K extends OptionalCapability> = TokenStore &
  Required<Pick<TokenStore, (typeof CAPABILITY_METHODS)[K][number]>>

/**
 * Whether a store implements an optional capability (has every one of its members).
 */
export function hasCapability<K extends OptionalCapability>(
  store: TokenStore,
  capability: K,
): store is WithCapability<K> {
  const methods: readonly (keyof TokenStore)[] = CAPABILITY_METHODS[capability]
  return methods.every((member) =>
    member === 'userIdType' || member === 'resources'
      ? store[member] !== undefined
      : typeof store[member] === 'function',
  )
}

/**
 * Builds a store's contents through its public methods only, creating each token's user first (a
 * SQL store may hold tokens to a foreign key on users).
 */
export interface Seeder {
  readonly draft: DraftBuilder
  user(id: UserId): Promise<void>
  insert(overrides?: Partial<TokenDraft>): Promise<Token>
  /** Inserts one after the other, so ids increase in list order. */
  insertAll(list: readonly Partial<TokenDraft>[]): Promise<Token[]>
  importToken(token: Token): Promise<Token>
}

/**
 * A {@link Seeder} for one store.
 */
export function seeder(store: TokenStore): Seeder {
  const draft = draftFactory()
  const users = new Set<UserId>()
  const user = async (id: UserId): Promise<void> => {
    if (users.has(id)) return
    users.add(id)
    await okValue(store.putUser(userFixture(id)))
  }
  const insert = async (overrides: Partial<TokenDraft> = {}): Promise<Token> => {
    const next = draft(overrides)
    await user(next.userId)
    return okValue(store.insert(next))
  }
  return {
    draft,
    user,
    insert,
    async insertAll(list) {
      const stored: Token[] = []
      for (const overrides of list) stored.push(await insert(overrides))
      return stored
    },
    async importToken(token) {
      await user(token.userId)
      return okValue(store.importToken(token))
    },
  }
}

/**
 * A list query: the filter, sorted by id, first page of 100, evaluated at {@link NOW} unless told.
 */
export function query(
  filter: TokenFilter,
  options: { sort?: SortKey; page?: number; perPage?: number; now?: Date } = {},
): ListQuery {
  return {
    filter,
    sort: options.sort ?? 'id_asc',
    page: { page: options.page ?? 1, perPage: options.perPage ?? 100 },
    now: options.now ?? NOW,
  }
}

/**
 * The names of the tokens a list returns, in order: the easiest way to state an expected answer.
 */
export async function listNames(
  store: TokenStore,
  filter: TokenFilter,
  options: Parameters<typeof query>[1] = {},
): Promise<string[]> {
  const { items } = await okValue(store.list(query(filter, options)))
  return items.map((token) => token.name)
}
