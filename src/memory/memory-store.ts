import { err, errAsync, ok, okAsync, type Result, type ResultAsync } from 'neverthrow'
import { storeFailure } from '../domain/error-constructors.js'
import type { StoreFailure } from '../domain/errors.js'
import { type UserId, type UserIdType, userIdProblem } from '../domain/user-id.js'
import { settledResultAsync } from '../store/settled.js'
import type { TokenStore, TokenWithUser } from '../store/token-store.js'
import type { User } from '../store/user.js'
import { hookTable } from './hook-table.js'
import { receiptTable } from './receipt-table.js'
import { RecentMap } from './recent-map.js'
import { resourceTable } from './resource-table.js'
import type { StoredRow } from './stored-row.js'
import { tokenTable } from './token-table.js'
import { userTable } from './user-table.js'

/**
 * Options of {@link memoryStore}.
 *
 * @example
 * ```ts
 * import type { MemoryStoreOptions } from 'patkit/memory'
 * const options: MemoryStoreOptions = { users: [{ id: 1, username: 'root', admin: true, blocked: false }] }
 * ```
 */
export interface MemoryStoreOptions {
  /** Users to start with, as if each were passed to `putUser` in order. */
  readonly users?: readonly User[]
  /**
   * The kind of user id the store holds: `'integer'` (GitLab's, the default) or `'string'` (an
   * application's own ids, such as UUIDs). A user or token with an id of the other kind is refused
   * with a `store_failure`. Give the authority the same `userIdType`.
   */
  readonly userIdType?: UserIdType
}

interface Answer {
  readonly row: StoredRow
  readonly users: number
  readonly answer: ResultAsync<TokenWithUser, never>
}
const NOT_FOUND = settledResultAsync(ok(null))
/** As many as the token table keeps built (see token-table.ts). */
const RECENT_ANSWERS = 10_000

/** Runs one synchronous store operation; anything it throws becomes a `store_failure`, never a throw. */
function attempt<T, E>(operation: string, run: () => Result<T, E>): ResultAsync<T, E | StoreFailure> {
  let result: Result<T, E>
  try {
    result = run()
  } catch (cause) {
    return errAsync(storeFailure(operation, cause))
  }
  return result.isOk() ? okAsync(result.value) : errAsync(result.error)
}

/**
 * The embedded, in-process {@link TokenStore}: the default store, and the reference every other store
 * is compared with by `describeStoreConformance`.
 *
 * Atomicity: every method does all its reads and writes synchronously, before it returns its
 * `ResultAsync`. JavaScript runs one such call to completion before starting another, so each method
 * is atomic and concurrent calls (`Promise.all`) behave as if run one after the other, in call order.
 *
 * Cost: `findByDigest` and `findById` are O(1); a `list` whose filter names a `userId` reads only that
 * user's tokens (O(k) however many tokens the store holds); a `list` without `userId` reads every
 * token. Tokens are kept with instants as numbers (about 390 bytes per token at a million, indexes
 * included). Reads hand out frozen `Token`s built from the stored values, so nothing a caller holds
 * ever changes and nothing a caller changes reaches the store. Lookups by digest (authentication's)
 * remember the token and answer they built, up to 10,000, and hand the same objects out again while
 * the token and its owner are unchanged: treat a token's `Date`s as read-only.
 *
 * The store declares its `userIdType` (`store.userIdType`): `createAuthority` throws when the
 * authority's differs.
 *
 * @throws {Error} when `options.users` gives one username (in any case) to two different ids: a
 * configuration mistake, reported where it is made.
 * @throws {TypeError} when `options.userIdType` is neither `'integer'` nor `'string'`.
 *
 * @example
 * ```ts
 * import { createAuthority } from 'patkit'
 * import { memoryStore } from 'patkit/memory'
 * const store = memoryStore({ users: [{ id: 1, username: 'root', admin: true, blocked: false }] })
 * const authority = createAuthority({ store, pepper: 'secret' })
 * ```
 */
export function memoryStore(options: MemoryStoreOptions = {}): TokenStore {
  let tokens = tokenTable()
  let receipts = receiptTable()
  const userIdType = options.userIdType ?? 'integer'
  if (userIdType !== 'integer' && userIdType !== 'string') {
    throw new TypeError(`memoryStore: userIdType ${JSON.stringify(userIdType)} is not 'integer' or 'string'`)
  }
  let users = userTable(userIdType)
  let resources = resourceTable(users)
  let hooks = hookTable()
  // One store holds one kind of id: a token of another kind would belong to no user it can find.
  const checked = <T>(operation: string, userId: UserId, run: () => Result<T, StoreFailure>) => {
    const problem = userIdProblem(userIdType, userId)
    return problem === null ? run() : err(storeFailure(operation, new TypeError(problem)))
  }
  for (const user of options.users ?? []) {
    const put = users.put(user)
    if (put.isErr()) throw new Error(`memoryStore: ${String(put.error.cause)}`)
  }
  // Authentication's answers by digest, each with the row it was built from: a row is replaced
  // whenever its token changes, so an answer is current while its row is the stored one and no user
  // was put since. A hit allocates nothing, and never reads the (cold) row itself.
  const answers = new RecentMap<string, Answer>(RECENT_ANSWERS)
  // `attempt` written out: the closure it takes would be authentication's one allocation here.
  const withUser = (digest: string): ResultAsync<TokenWithUser | null, StoreFailure> => {
    try {
      const row = tokens.rowByDigest(digest)
      if (row === null) return NOT_FOUND
      const known = answers.get(digest)
      if (known !== undefined && known.row === row && known.users === users.version) return known.answer
      const token = tokens.tokenFor(row)
      const answer = settledResultAsync(ok(Object.freeze({ token, user: users.findById(token.userId) })))
      answers.set(digest, { row, users: users.version, answer })
      return answer
    } catch (cause) {
      return errAsync(storeFailure('findByDigestWithUser', cause))
    }
  }
  return {
    // Declared, so that createAuthority refuses an authority of the other kind at start-up.
    userIdType,
    findByDigest: (digest) => attempt('findByDigest', () => ok(tokens.byDigest(digest))),
    // Answered settled (patkit/store's settledResultAsync): the authority reads it without waiting.
    findByDigestWithUser: withUser,
    // Every read here is current: a decision's lookup is the same one.
    findFreshByDigest: withUser,
    findById: (id) => attempt('findById', () => ok(tokens.byId(id))),
    findSuccessor: (id) => attempt('findSuccessor', () => ok(tokens.successorOf(id))),
    // With a userId only that user's tokens are read; the query still applies the whole filter.
    list: (query) =>
      attempt('list', () => {
        const { resource } = query.filter
        return ok(tokens.list(query, resource === undefined ? undefined : resources.botIdsOf(resource)))
      }),
    insert: (draft) => attempt('insert', () => checked('insert', draft.userId, () => tokens.insert(draft))),
    revoke: (id) => attempt('revoke', () => ok(tokens.revoke(id))),
    rotate: (oldId, successor) => attempt('rotate', () => tokens.rotate(oldId, successor)),
    // The rotation and its receipt in one synchronous step: both persist, or (the rotation refused)
    // neither does.
    rotateWithReceipt: (oldId, successor, receipt) =>
      attempt('rotateWithReceipt', () =>
        tokens.rotate(oldId, successor).map((token) => {
          receipts.prune(successor.createdAt)
          receipts.put({ ...receipt, tokenId: oldId, successorId: token.id })
          return token
        }),
      ),
    consumeRotationReceipt: (tokenId, keyDigest, now) =>
      attempt('consumeRotationReceipt', () => ok(receipts.take(tokenId, keyDigest, now, tokens.byId))),
    revokeDescendants: (tokenId, now) =>
      attempt('revokeDescendants', () => ok(tokens.revokeDescendants(tokenId, now))),
    touchLastUsed: (id, at, throttleMs, ip) =>
      attempt('touchLastUsed', () => ok(tokens.touchLastUsed(id, at, throttleMs, ip))),
    importToken: (token) =>
      attempt('importToken', () => checked('importToken', token.userId, () => tokens.importToken(token))),
    putUser: (user) => attempt('putUser', () => users.put(user)),
    findUser: (ref) => attempt('findUser', () => ok(users.find(ref))),
    findUserById: (id) => attempt('findUserById', () => ok(users.findById(id))),
    // Built whole beside the current tables, then swapped in: a failure leaves the data as it was. Ids
    // inserted later stay above every id assigned before, as on SQL.
    replaceAll: (contents) =>
      attempt('replaceAll', () => {
        const nextUsers = userTable(userIdType)
        const nextResources = resourceTable(nextUsers)
        const nextTokens = tokenTable(tokens.nextId)
        const steps: Result<unknown, StoreFailure>[] = []
        for (const user of contents.users) steps.push(nextUsers.put(user))
        for (const group of contents.groups) steps.push(nextResources.putGroup(group))
        for (const project of contents.projects) steps.push(nextResources.putProject(project))
        for (const token of contents.tokens) {
          steps.push(checked('replaceAll', token.userId, () => nextTokens.importToken(token)))
        }
        const failed = steps.find((step) => step.isErr())
        if (failed?.isErr()) return err(failed.error)
        users = nextUsers
        resources = nextResources
        tokens = nextTokens
        // Answers by digest name their row: rows of the new tables never match them.
        receipts = receiptTable()
        // Hooks, their logs, the notices given and audit events belong to the data replaced.
        hooks = hookTable(hooks.nextIds())
        return ok(undefined)
      }),
    resources: {
      findGroup: (ref) => attempt('findGroup', () => ok(resources.findGroup(ref))),
      findProject: (ref) => attempt('findProject', () => ok(resources.findProject(ref))),
      putGroup: (group) => attempt('putGroup', () => resources.putGroup(group)),
      putProject: (project) => attempt('putProject', () => resources.putProject(project)),
      listGroups: () => attempt('listGroups', () => ok(resources.listGroups())),
      listProjects: () => attempt('listProjects', () => ok(resources.listProjects())),
      setMember: (resource, member) => attempt('setMember', () => resources.setMember(resource, member)),
      removeMember: (resource, userId) =>
        attempt('removeMember', () => ok(resources.removeMember(resource, userId))),
      createUser: (draft) => attempt('createUser', () => resources.createUser(draft)),
      listUsers: (filter) => attempt('listUsers', () => ok(resources.listUsers(filter))),
      hooks: {
        insertHook: (draft) => attempt('insertHook', () => ok(hooks.insertHook(draft))),
        updateHook: (hook) => attempt('updateHook', () => ok(hooks.updateHook(hook))),
        findHook: (id) => attempt('findHook', () => ok(hooks.findHook(id))),
        listHooks: (resource) => attempt('listHooks', () => ok(hooks.listHooks(resource))),
        deleteHook: (id) => attempt('deleteHook', () => ok(hooks.deleteHook(id))),
        appendHookLog: (draft) => attempt('appendHookLog', () => hooks.appendHookLog(draft)),
        listHookLogs: (hookId, page, perPage, statuses = []) =>
          attempt('listHookLogs', () => ok(hooks.listHookLogs(hookId, page, perPage, statuses))),
        claimNotice: (tokenId, interval, at) =>
          attempt('claimNotice', () => ok(hooks.claimNotice(tokenId, interval, at))),
        noticesOf: (tokenId) => attempt('noticesOf', () => ok(hooks.noticesOf(tokenId))),
      },
      audit: {
        appendAuditEvent: (draft) => attempt('appendAuditEvent', () => ok(hooks.appendAuditEvent(draft))),
        findAuditEvent: (id) => attempt('findAuditEvent', () => ok(hooks.findAuditEvent(id))),
        listAuditEvents: (filter, page, perPage) =>
          attempt('listAuditEvents', () => ok(hooks.listAuditEvents(filter, page, perPage))),
      },
    },
  }
}
