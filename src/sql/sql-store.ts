import type { Kysely } from 'kysely'
import { err, errAsync, ok, ResultAsync } from 'neverthrow'
import { alreadyRevoked, notFound, storeFailure } from '../domain/error-constructors.js'
import type { StoreFailure } from '../domain/errors.js'
import { type UserId, userIdProblem } from '../domain/user-id.js'
import { settledResultAsync } from '../store/settled.js'
import type { TokenStore, TokenWithUser } from '../store/token-store.js'
import { resolveOptions, type SqlStoreOptions } from './options.js'
import { replaceAllRows } from './replace-all.js'
import { revokeDescendants } from './revoke-descendants.js'
import { type RotateOutcome, rotateRow } from './rotate.js'
import { consumeReceipt, pruneReceipts } from './rotation-receipts.js'
import { sqlResources } from './sql-resources.js'
import { prepareStatements } from './statements.js'
import { toStoreFailure } from './store-failure.js'
import { findTokenBy, findTokenWithUser, selectTokenPage } from './token-reads.js'
import { importStoredToken, insertToken, revokeRow, touchLastUsed } from './token-writes.js'
import { selectUser, selectUserById, upsertUser } from './users.js'

/**
 * A {@link TokenStore} on the host's own Kysely instance: PostgreSQL (`pg`, PGlite), MySQL/MariaDB
 * (`mysql2`) or SQLite (`better-sqlite3`). Run {@link migrate} with the same options first.
 *
 * The hot statements (lookups, the joined principal lookup, `touchLastUsed`, rotation's writes, a user's
 * own list) are compiled once per store, with the prefix applied, and run with fresh values.
 *
 * Every method is one statement or one transaction, and every driver failure (a lost connection, a
 * violated constraint, a timeout) comes back as a `store_failure` whose `cause` is the driver's error;
 * nothing throws and nothing rejects. `rotate` is atomic under real concurrency: of N concurrent
 * rotations of a token exactly one succeeds, the others fail with `already_revoked`, and a UNIQUE index
 * on `previous_id` guarantees no token ever has two successors, whatever the isolation level.
 *
 * The dialect is recognized from the SQL the instance's query compiler writes, or given as
 * `options.dialect`; the tables are `<tablePrefix>tokens`, `<tablePrefix>users`, `<tablePrefix>settings` and
 * `<tablePrefix>rotation_receipts` (default `patkit_`).
 *
 * It has the optional `rotationReceipts` capability (`rotateWithReceipt`, `consumeRotationReceipt`)
 * behind the `Idempotency-Key` header on rotate: the receipt is written in the rotation's transaction,
 * and consumed under the family's lock, so of N concurrent replays exactly one gets the successor.
 *
 * It has the optional `resources` capability (projects, groups, members, bots and service accounts;
 * schema version 0007) with integer user ids, and honours `filter.resource` in `list` with one
 * semi-join through the members and users tables.
 *
 * It declares the `userIdType` of its options as `store.userIdType`, known at construction:
 * `createAuthority` throws when the authority's differs. Whether the tables hold that kind is
 * checked by `migrate` (run it with the same options), not by the store.
 *
 * @throws {TypeError} for a malformed `tablePrefix`, or when no dialect is given and none is recognized:
 * configuration mistakes, reported where they are made.
 * @example
 * ```ts
 * import { Kysely, PostgresDialect } from 'kysely'
 * import pg from 'pg'
 * import { migrate, sqlStore } from 'patkit/sql'
 *
 * const connectionString = process.env.DATABASE_URL
 * const db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString }) }) })
 * const migrated = await migrate(db)
 * if (migrated.isErr()) throw migrated.error.cause
 * const store = sqlStore(db)
 * ```
 */
export function sqlStore<DB>(db: Kysely<DB>, options: SqlStoreOptions = {}): TokenStore {
  const context = resolveOptions(db, options)
  const statements = prepareStatements(context)
  // Async wrappers so a synchronous throw (a bad value the query builder rejects) is a rejection too.
  const run = <T>(operation: string, work: () => Promise<T>): ResultAsync<T, StoreFailure> =>
    ResultAsync.fromPromise((async () => work())(), toStoreFailure(operation))
  // One table holds one kind of user id (its column's type): an id of the other kind is refused
  // before the driver could coerce it (PostgreSQL would store the number 7 as the text '7').
  const runFor = <T>(
    operation: string,
    userId: UserId,
    work: () => Promise<T>,
  ): ResultAsync<T, StoreFailure> => {
    const problem = userIdProblem(context.userIdType, userId)
    return problem === null ? run(operation, work) : errAsync(storeFailure(operation, new TypeError(problem)))
  }
  // Authentication's lookup, answered settled when the store reads SQLite directly (synchronously):
  // the authority then decides without waiting, as on the memory store.
  const withUser = (operation: string, digest: string): ResultAsync<TokenWithUser | null, StoreFailure> => {
    try {
      const found = findTokenWithUser(context, statements, digest)
      return found instanceof Promise
        ? ResultAsync.fromPromise(found, toStoreFailure(operation))
        : settledResultAsync(ok(found))
    } catch (cause) {
      return errAsync(toStoreFailure(operation)(cause))
    }
  }
  const rotated = (oldId: number, outcome: RotateOutcome) => {
    switch (outcome.kind) {
      case 'rotated':
        return ok(outcome.token)
      case 'not_found':
        return err(notFound('token'))
      case 'already_revoked':
        return err(alreadyRevoked(oldId))
    }
  }
  return Object.freeze({
    // The kind its options name (`migrate` checks the tables hold the same): createAuthority compares
    // it with its own, so a disagreement fails at start-up.
    userIdType: context.userIdType,
    findByDigest: (digest) => run('findByDigest', () => findTokenBy(context, statements, 'digest', digest)),
    findByDigestWithUser: (digest) => withUser('findByDigestWithUser', digest),
    // Every read here is current: a decision's lookup is the joined one.
    findFreshByDigest: (digest) => withUser('findFreshByDigest', digest),
    findById: (id) => run('findById', () => findTokenBy(context, statements, 'id', id)),
    findSuccessor: (id) => run('findSuccessor', () => findTokenBy(context, statements, 'previous_id', id)),
    list: (query) => run('list', () => selectTokenPage(context, statements, query)),
    insert: (draft) => runFor('insert', draft.userId, () => insertToken(context, draft)),
    importToken: (token) => runFor('importToken', token.userId, () => importStoredToken(context, token)),
    revoke: (id) => run('revoke', () => revokeRow(context, id)),
    rotate: (oldId, successor) =>
      run('rotate', () => rotateRow(context, statements, oldId, successor)).andThen((outcome) =>
        rotated(oldId, outcome),
      ),
    rotateWithReceipt: (oldId, successor, receipt) =>
      run('rotateWithReceipt', async () => {
        await pruneReceipts(context, successor.createdAt)
        return rotateRow(context, statements, oldId, successor, receipt)
      }).andThen((outcome) => rotated(oldId, outcome)),
    consumeRotationReceipt: (tokenId, keyDigest, now) =>
      run('consumeRotationReceipt', () => consumeReceipt(context, statements, tokenId, keyDigest, now)),
    revokeDescendants: (tokenId, now) =>
      run('revokeDescendants', () => revokeDescendants(context, statements, tokenId, now)),
    touchLastUsed: (id, at, throttleMs, ip) =>
      run('touchLastUsed', () => touchLastUsed(context, statements, id, at, throttleMs, ip)),
    putUser: (user) => runFor('putUser', user.id, () => upsertUser(context, user)),
    findUser: (ref) => run('findUser', () => selectUser(context, ref)),
    findUserById: (id) => run('findUserById', () => selectUserById(context, id)),
    // Projects and groups are GitLab's, whose user ids are integers: a string-id store has none.
    ...(context.userIdType === 'integer' ? { resources: sqlResources(context) } : {}),
    // One transaction: the prefix's data rows deleted, the contents inserted a few rows per statement.
    replaceAll: (contents) => run('replaceAll', () => replaceAllRows(context, contents)),
  } satisfies TokenStore)
}
