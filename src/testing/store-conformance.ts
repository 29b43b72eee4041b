import { describe, expect, it } from 'vitest'
import type { TokenStore } from '../store/token-store.js'
import { describeAudit } from './conformance/audit.js'
import { describeConflicts } from './conformance/conflicts.js'
import { CAPABILITY_METHODS, type ConformanceContext, hasCapability } from './conformance/context.js'
import { describedStore } from './conformance/described-store.js'
import { describeFreshLookup } from './conformance/fresh-lookup.js'
import { describeGranularScopes } from './conformance/granular-scopes.js'
import { describeHooks } from './conformance/hooks.js'
import { describeIsolation } from './conformance/isolation.js'
import { describeJoinedLookup } from './conformance/joined-lookup.js'
import { describeListFilters } from './conformance/list-filters.js'
import { describeListSort } from './conformance/list-sort.js'
import { describeLookups } from './conformance/lookups.js'
import { describePagination } from './conformance/pagination.js'
import { describeReplaceAll } from './conformance/replace-all.js'
import { describeResourceList } from './conformance/resource-list.js'
import { describeResourceUsers } from './conformance/resource-users.js'
import { describeResources } from './conformance/resources.js'
import { describeRevocation } from './conformance/revocation.js'
import { describeRotation } from './conformance/rotation.js'
import { describeRotationReceipts } from './conformance/rotation-receipts.js'
import { describeStringUserIds, describeUserIdLookup } from './conformance/string-user-ids.js'
import { describeSuccessorLookup } from './conformance/successor-lookup.js'
import { describeTouch } from './conformance/touch.js'
import { describeUsers } from './conformance/users.js'

/**
 * Tests a store may leave out, always with the reason (a missing capability, a known limitation).
 *
 * @example
 * ```ts
 * import type { ConformanceSkip } from 'patkit/testing'
 * const skip: ConformanceSkip = {
 *   reason: 'this driver serializes every call, so the race is not exercised',
 *   tests: ['of 32 concurrent rotations of one token exactly one succeeds'],
 * }
 * ```
 */
export interface ConformanceSkip {
  readonly reason: string
  /** Test titles, exactly as the suite names them. */
  readonly tests: readonly string[]
}

/**
 * Options of {@link describeStoreConformance}.
 *
 * @example
 * ```ts
 * import type { StoreConformanceOptions } from 'patkit/testing'
 * import { memoryStore } from 'patkit/memory'
 * const options: StoreConformanceOptions = { name: 'memory', create: () => memoryStore() }
 * ```
 */
export interface StoreConformanceOptions {
  /** Shown in the suite's title. */
  readonly name: string
  /** An empty store. Called once per test, or once per suite when `reset` is given. */
  readonly create: () => Promise<TokenStore> | TokenStore
  /**
   * Empties the store between tests (e.g. truncates tables), for stores that are costly to create.
   * With it, `create` is called once and the store is reset before every test.
   */
  readonly reset?: (store: TokenStore) => Promise<void> | void
  readonly skip?: readonly ConformanceSkip[]
  /**
   * The same kind of store holding string user ids (`userIdType: 'string'`), for the suite's
   * `string user ids` tests; without it they are reported as skipped with that reason. `create` and
   * `reset` mean what they mean above.
   */
  readonly stringIds?: {
    readonly create: () => Promise<TokenStore> | TokenStore
    readonly reset?: (store: TokenStore) => Promise<void> | void
  }
}

type StoreSource = Pick<StoreConformanceOptions, 'create' | 'reset'>

/** Gets a store for one test: a new one, or the suite's one just reset. */
function acquirer(source: StoreSource): () => Promise<TokenStore> {
  let shared: Promise<TokenStore> | undefined
  return async () => {
    const { reset } = source
    if (reset === undefined) return source.create()
    shared ??= Promise.resolve(source.create())
    const store = await shared
    await reset(store)
    return store
  }
}

/**
 * Registers every test of the suite with two contexts: the store's, and the one of its string-id twin.
 */
export function describeConformanceTests(ctx: ConformanceContext, stringIds: ConformanceContext): void {
  describeUsers(ctx)
  describeLookups(ctx)
  describeJoinedLookup(ctx)
  describeFreshLookup(ctx)
  describeListFilters(ctx)
  describeListSort(ctx)
  describePagination(ctx)
  describeRotation(ctx)
  describeRotationReceipts(ctx)
  describeSuccessorLookup(ctx)
  describeReplaceAll(ctx)
  describeRevocation(ctx)
  describeTouch(ctx)
  describeGranularScopes(ctx)
  describeConflicts(ctx)
  describeIsolation(ctx)
  describeUserIdLookup(ctx)
  describeResources(ctx)
  describeResourceUsers(ctx)
  describeResourceList(ctx)
  describeHooks(ctx)
  describeAudit(ctx)
  describeStringUserIds(stringIds)
}

/**
 * Runs one test of the suite on a store, as the suite does: through {@link describedStore}, so that
 * a failure names the call (operation and arguments) and the store contract it broke.
 */
export function runConformanceTest<S extends TokenStore>(
  body: (store: S) => Promise<void>,
  store: S,
): Promise<void> {
  return body(describedStore(store))
}

/**
 * Registers the conformance suite of the {@link TokenStore} port with vitest: every method, every list
 * filter with its boundaries, every sort key, pagination, the one optional capability (`resources`:
 * projects, groups, members, created users and `filter.resource`, webhooks, their logs, expiry notices
 * and audit events) where the store has it, and the race contracts (N concurrent rotations or revocations of one token,
 * concurrent `touchLastUsed`, concurrent `createUser` and `setMember`). Each test builds its own data
 * through the store's public methods at explicit instants, on a store of its own (`create`) or one
 * just emptied (`reset`), so tests never depend on one another or on the wall clock.
 *
 * A failing check names the store call with its arguments and, where the check is one of the port's
 * data contracts, the contract's id and rule (the ids docs/storage.md and the `TokenStore` JSDoc
 * list), e.g. `insert(draft "ci" of user 1, previousId 1, …) [token 1 already has successor 2]:
 * expected the store to refuse it [store contract one-successor: …], got ok(token 9 …)`. A store that
 * throws or rejects instead of returning a `store_failure` fails naming the call too.
 *
 * A test named in `skip` is registered as skipped, and each skip's reason is printed once. A skip
 * naming no test of the suite fails the test `every skipped title names a test of the suite`, so a typo cannot silently skip nothing.
 * vitest is an optional peer dependency of `patkit/testing`: only this function needs it.
 *
 * @example
 * ```ts
 * // test/my-store.test.ts
 * import type { TokenStore } from 'patkit/store'
 * import { describeStoreConformance } from 'patkit/testing'
 * // Your store, its connection, and how to empty it (in your own modules):
 * declare function myStore(connection: unknown): TokenStore
 * declare function connect(): Promise<unknown>
 * declare function truncateAll(store: TokenStore): Promise<void>
 *
 * describeStoreConformance({
 *   name: 'my store',
 *   create: async () => myStore(await connect()),
 *   reset: async (store) => truncateAll(store),
 *   skip: [{ reason: 'no case-insensitive collation yet', tests: ['findUser finds a user by username in any case'] }],
 *   // Optional: the same store holding string user ids, for the `string user ids` tests.
 *   stringIds: { create: async () => myStore(await connect()), reset: async (store) => truncateAll(store) },
 * })
 * ```
 */
export function describeStoreConformance(options: StoreConformanceOptions): void {
  const skipped = new Map<string, string>()
  for (const { reason, tests } of options.skip ?? []) {
    for (const title of tests) skipped.set(title, reason)
  }

  const stringIds = options.stringIds

  describe(`TokenStore conformance: ${options.name}`, () => {
    const registered = new Set<string>()
    const contextOver = (acquire: (() => Promise<TokenStore>) | null): ConformanceContext => ({
      group: describe,
      test(title, body) {
        if (registered.has(title)) throw new Error(`store conformance: duplicate test title "${title}"`)
        registered.add(title)
        if (skipped.has(title)) it.skip(title, () => {})
        else if (acquire === null) it.skip(`${title} (no stringIds store given)`, () => {})
        else it(title, async () => runConformanceTest(body, await acquire()))
      },
      testOptional(capability, title, body) {
        if (registered.has(title)) throw new Error(`store conformance: duplicate test title "${title}"`)
        registered.add(title)
        if (skipped.has(title)) it.skip(title, () => {})
        else if (acquire === null) it.skip(`${title} (no stringIds store given)`, () => {})
        else {
          it(title, async (test) => {
            const store = await acquire()
            // Known only once the store exists: report a skip with the reason, never an empty pass.
            if (!hasCapability(store, capability)) {
              test.skip(
                `the store does not implement the optional ${capability} (${CAPABILITY_METHODS[capability].join(', ')})`,
              )
              return
            }
            await runConformanceTest(body, store)
          })
        }
      },
    })
    describeConformanceTests(
      contextOver(acquirer(options)),
      contextOver(stringIds === undefined ? null : acquirer(stringIds)),
    )

    // Nested suites register their tests after this body returns, so the check runs as a test.
    it('every skipped title names a test of the suite', () => {
      const unknown = [...skipped.keys()].filter((title) => !registered.has(title))
      expect(unknown, 'skip names tests this suite does not have (a typo skips nothing)').toEqual([])
    })
    for (const { reason, tests } of options.skip ?? []) {
      // Test helper, not library code: the reason belongs in the test output next to the skips.
      console.info(`store conformance (${options.name}): skipping ${tests.length} test(s): ${reason}`)
    }
  })
}
