import type { ResultAsync } from 'neverthrow'
import type { ErrorOf, StoreFailure } from '../domain/errors.js'
import type { Group, Project } from '../domain/resource.js'
import type { RedeemedReceipt, RotationReceiptDraft } from '../domain/rotation-receipt.js'
import type { Token, TokenDraft } from '../domain/token.js'
import type { UserId, UserIdType } from '../domain/user-id.js'
import type { ListQuery } from '../query/filter.js'
import type { ResourceStore } from './resource-store.js'
import type { User, UserDirectory } from './user.js'

/**
 * All the data of a store, as `replaceAll` takes it: users, tokens (in any order; a token's
 * predecessor need not come first), and groups and projects with their members.
 *
 * @example
 * ```ts
 * import type { StoreContents } from 'patkit/store'
 * const empty: StoreContents = { users: [], tokens: [], groups: [], projects: [] }
 * ```
 */
export interface StoreContents {
  readonly users: readonly User[]
  readonly tokens: readonly Token[]
  readonly groups: readonly Group[]
  readonly projects: readonly Project[]
}

/**
 * What `revoke` found: it revoked the token now, the token was already revoked, or there is none.
 *
 * @example
 * ```ts
 * import type { RevokeOutcome } from 'patkit/store'
 * const outcome: RevokeOutcome = 'already_revoked'
 * ```
 */
export type RevokeOutcome = 'revoked' | 'already_revoked' | 'missing'

/**
 * A token found by digest together with its owner as the store's own user directory knows it (`null`
 * when the store holds no such user).
 *
 * @example
 * ```ts
 * import type { TokenWithUser } from 'patkit/store'
 * declare const found: TokenWithUser
 * found.user?.blocked
 * ```
 */
export interface TokenWithUser {
  readonly token: Token
  readonly user: User | null
}

/**
 * The storage port: domain-shaped, every method atomic on its own. A store also serves as the
 * default {@link UserDirectory}.
 *
 * Concurrency contract (checked by `describeStoreConformance` from `patkit/testing`):
 * - `rotate` revokes `oldId` only if it is not revoked and inserts the successor in one atomic step.
 *   Of N concurrent rotations of one token exactly one succeeds; the others fail with
 *   `already_revoked`. A token never has two successors.
 * - `revoke` is a conditional write: of N concurrent revocations exactly one reports `revoked`.
 * - `revokeDescendants` revokes exactly the tokens rotated from the given one (later generations)
 *   that are active at `now`; its effect is durable even though the request that triggered it fails.
 * - `touchLastUsed` applies `nextLastUsed` (GitLab's LastUsedService: `lastUsedAt` at most once per
 *   `throttleMs`, a new `ip` at most once a minute, the last five IPs) to the stored values in one
 *   atomic step, so concurrent requests in one window write once.
 * - Reads see every write that completed before they started. A caching decorator (`cachedStore`)
 *   may answer `findByDigest`, `findByDigestWithUser` and `findUser` from memory, within its bound,
 *   but never `findById` nor `findFreshByDigest`: the authority reads the presented token with
 *   `findFreshByDigest` where it decides (a rotation request, any other write).
 * - `consumeRotationReceipt`: of N concurrent consumptions of one
 *   receipt at most one gets it; it is decided in the same atomic step as the checks on the successor,
 *   so it never hands out a successor that a completed rotation, revocation or use had changed.
 *
 * Data contracts, by the ids that docs/storage.md ("Writing a store for another database") and the
 * failures of `describeStoreConformance` use:
 * - `exact-copy`: a token reads back exactly as stored: `insert` returns the draft with its `id` (and
 *   `familyId = id` when the draft has none), `importToken` the token itself; scopes are kept as the
 *   strings given, instants to the millisecond.
 * - `increasing-ids`: `insert` and `rotate` assign positive safe-integer ids above every id stored
 *   before, imported ones included.
 * - `taken-id-or-digest`: `insert` refuses a digest already stored, `importToken` an id or a digest
 *   already stored (`store_failure`, nothing stored).
 * - `one-successor`: a token has at most one successor: `insert` and `importToken` refuse a token whose
 *   `previousId` already has one (`store_failure`; make it a constraint, not a check).
 * - `conflict-key`: a write refused because a unique key is taken says which in the `store_failure`'s
 *   `conflict`: `'digest'` (`insert`, `importToken`), `'id'` (`importToken`), `'previous_id'` (a second
 *   successor), `'username'` (`putUser`, `resources.createUser`, in any case); no other failure has one.
 * - `failed-rotation-stores-nothing`: `rotate` of an unknown id fails with `not_found` (entity
 *   `token`), of a revoked token with `already_revoked` (its `tokenId`), and stores nothing.
 * - `no-empty-ips`: `lastUsedIps` is absent, never `[]`, when no address is recorded, in every token a
 *   method returns; present, it holds one to five addresses, oldest first.
 * - `snapshots`: a token once returned never changes (hand out copies or frozen objects).
 * - `exact-digest`: digests match exactly, case included.
 * - `tokens-without-users`: a token's user need not be stored: `insert` accepts it, and
 *   `findByDigestWithUser` answers `user: null`.
 * - `user-refs`: `findUser` finds by id, by an integer id written in digits, or by username in any
 *   case (with string ids a string is a username only); `putUser` replaces the user with the same id.
 * - `user-id-kind`: one kind of user id per store; a user or token with an id of the other kind is a
 *   `store_failure` (see `userIdType`).
 * - `list-pages`: `list` returns one page in the query's order and the total of every match; a page
 *   past the end is empty and carries the total.
 *
 * @example
 * ```ts
 * import type { TokenStore } from 'patkit/store'
 * import { memoryStore } from 'patkit/memory'
 * const store: TokenStore = memoryStore()
 * ```
 */
export interface TokenStore extends UserDirectory {
  /**
   * The one capability a store may lack: GitLab's projects, groups, members, bots and service accounts
   * (see {@link ResourceStore}). A store with it honours `filter.resource` in `list`. Absent in a store
   * of string user ids (`sqlStore(db, { userIdType: 'string' })`: GitLab's resources have integer
   * user ids); the authority then answers every project and group as missing.
   */
  readonly resources?: ResourceStore
  /**
   * The kind of user id the store holds, `'integer'` (GitLab's) or `'string'`, as it was configured
   * (`memoryStore({ userIdType })`, `sqlStore(db, { userIdType })`). `createAuthority` compares it with
   * its own `userIdType` and throws `AuthorityConfigError` when they differ, rather than let the first
   * `putUser` fail; a wrapper forwards its store's. The store refuses ids of the other kind
   * (`user-id-kind`).
   */
  readonly userIdType: UserIdType
  /**
   * The user with exactly this id (the number 7 and the string `'7'` are different ids), `null` when
   * there is none or the id is of the other kind. Optional in a separate {@link UserDirectory}, required
   * of a store.
   */
  findUserById(id: UserId): ResultAsync<User | null, StoreFailure>
  findByDigest(digest: string): ResultAsync<Token | null, StoreFailure>
  /**
   * The token with a digest and its owner in one step, with exactly the meaning of `findByDigest`
   * followed by `findUser(token.userId)` (one SQL statement instead of two round trips). When the
   * authority was given a separate `users` directory it asks `findByDigest` and that directory
   * instead. A store that holds the answer in memory may return it
   * as `settledResultAsync(result)` (an in-memory store; a cache on a hit): the authority then decides
   * without waiting for a promise turn (docs/storage.md, "Writing a store for another database").
   */
  findByDigestWithUser(digest: string): ResultAsync<TokenWithUser | null, StoreFailure>
  /**
   * `findByDigestWithUser`'s answer read from the store's own data as it is now, never from a cache.
   * The authority decides a write on it (a rotation and its reuse detection, a revocation, a
   * creation), so such a request looks its token up once. A store whose every read is current (a
   * database, memory) makes it its joined lookup; a caching decorator passes it to the store it wraps.
   */
  findFreshByDigest(digest: string): ResultAsync<TokenWithUser | null, StoreFailure>
  findById(id: number): ResultAsync<Token | null, StoreFailure>
  /**
   * The token rotated from `id` (its `previousId` is `id`; there is at most one), or `null`. The
   * rotation grace window (`rotationGraceMs`) and the fake's token family read it.
   */
  findSuccessor(id: number): ResultAsync<Token | null, StoreFailure>
  /** One page of the tokens matching the filter, in the query's order, and the total count. */
  list(
    query: ListQuery,
  ): ResultAsync<{ readonly items: readonly Token[]; readonly total: number }, StoreFailure>
  /**
   * Stores a new token; assigns its id (above every id stored before), and `familyId = id` when the
   * draft has none. Refuses, with a `store_failure`, a digest already stored and a `previousId` that
   * already has a successor; accepts a user the store does not hold.
   */
  insert(draft: TokenDraft): ResultAsync<Token, StoreFailure>
  revoke(id: number): ResultAsync<RevokeOutcome, StoreFailure>
  /** Atomically revokes `oldId` (only if not revoked) and inserts `successor`; returns the stored successor. */
  rotate(
    oldId: number,
    successor: TokenDraft,
  ): ResultAsync<Token, StoreFailure | ErrorOf<'already_revoked'> | ErrorOf<'not_found'>>
  /**
   * `rotate`, plus a receipt of the rotation stored in the same atomic step, so that a client whose
   * answer was lost can be given the same successor again (an `Idempotency-Key`, the rotation grace
   * window). Either the rotation and its receipt both persist or neither does. The same call deletes
   * every receipt whose `expiresAt` is at or before the successor's `createdAt` (the rotation's
   * instant), so receipts never pile up.
   */
  rotateWithReceipt(
    oldId: number,
    successor: TokenDraft,
    receipt: RotationReceiptDraft,
  ): ResultAsync<Token, StoreFailure | ErrorOf<'already_revoked'> | ErrorOf<'not_found'>>
  /**
   * The receipt stored when `tokenId` was rotated, if its
   * `keyDigest` is the one given and it is redeemable at `now` (`isRedeemable`: before its
   * `expiresAt`, and its successor still active and never used). Deletes it in the same atomic step,
   * so it is handed out once: of N concurrent calls at most one gets it, the others get `null`. A
   * receipt that is not redeemable stays as it is (it never becomes redeemable again).
   */
  consumeRotationReceipt(
    tokenId: number,
    keyDigest: string,
    now: Date,
  ): ResultAsync<RedeemedReceipt | null, StoreFailure>
  /** Revokes the tokens rotated from `tokenId` that are active at `now`; returns them as they are now. */
  revokeDescendants(tokenId: number, now: Date): ResultAsync<readonly Token[], StoreFailure>
  /**
   * Records a use at `at` from `ip` (`null` records no address; required, so a wrapper cannot drop it silently) as `nextLastUsed` says
   * from the stored `lastUsedAt` and `lastUsedIps`: `lastUsedAt = at` unless it was set less than
   * `throttleMs` before `at`, and `ip` appended (the newest five kept) when it is new and the last use
   * is a minute old. True when anything was written.
   */
  touchLastUsed(
    id: number,
    at: Date,
    throttleMs: number,
    ip: string | null,
  ): ResultAsync<boolean, StoreFailure>
  /**
   * Stores a token exactly as given, id and family included (seed files, migrations from another
   * store). Later `insert`s get ids above every imported one. Fails (`store_failure`) if the id or
   * digest is taken, or if the token's `previousId` already has a successor.
   */
  importToken(token: Token): ResultAsync<Token, StoreFailure>
  /** Adds or replaces a user (seeding, tests, the fake authority). */
  putUser(user: User): ResultAsync<User, StoreFailure>
  /**
   * Replaces all the data in one atomic step with
   * `contents`, stored exactly as given (ids and families included, as `importToken` and `putUser`
   * store them): every token, user, group, project and member the store held before is gone, and so
   * is every rotation receipt. When it fails (a `store_failure`: a digest or username twice, a lost
   * connection), nothing changed. The memory store builds the new tables beside the old and swaps them
   * in; the SQL store runs it as one transaction under its table prefix
   * (other prefixes' tables untouched); ids it assigns later stay above every id assigned before. A
   * caching wrapper passes it through, then forgets everything and tells the other instances to
   * (the fake's reset and restore on a database use it).
   *
   * Atomic against concurrent writes as well: a write that completed before it is gone with the old
   * data, and a write that runs during it lands in the new data or waits for it, never in the old data
   * beside the new (a rotation that committed while a reset waited must not leave its successor active
   * beside the contents' token). On PostgreSQL the SQL store locks its data tables first for this.
   */
  replaceAll(contents: StoreContents): ResultAsync<void, StoreFailure>
}
