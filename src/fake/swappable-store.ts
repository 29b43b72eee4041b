import { errAsync, okAsync } from 'neverthrow'
import { supportsRotationReceipts } from '../store/rotation-receipts.js'
import type { TokenStore } from '../store/token-store.js'

/**
 * A store whose contents can be replaced wholesale while the authority keeps its reference: what a
 * reset or a restore swaps in.
 */
export interface SwappableStore extends TokenStore {
  /** The store calls go to now. */
  readonly current: TokenStore
  replace(next: TokenStore): void
}

/**
 * Wraps `initial` in a {@link SwappableStore}. Every method, the optional joined lookup included when
 * the current store has it, forwards to the store in place at the time of the call.
 */
export function swappableStore(initial: TokenStore): SwappableStore {
  let current = initial
  const store: SwappableStore = {
    get current() {
      return current
    },
    replace: (next) => {
      current = next
    },
    // The first store's kind, which createAuthority checks (stores swapped in later hold the same).
    ...(initial.userIdType === undefined ? {} : { userIdType: initial.userIdType }),
    findByDigest: (digest) => current.findByDigest(digest),
    // One round trip on a SQL store (the authority asks for it on every request); a store in place
    // without the joined lookup answers it with its two lookups.
    findByDigestWithUser: (digest) =>
      current.findByDigestWithUser !== undefined
        ? current.findByDigestWithUser(digest)
        : current
            .findByDigest(digest)
            .andThen((token) =>
              token === null
                ? okAsync(null)
                : current.findUser(token.userId).map((user) => ({ token, user })),
            ),
    findById: (id) => current.findById(id),
    list: (query) => current.list(query),
    insert: (draft) => current.insert(draft),
    importToken: (token) => current.importToken(token),
    revoke: (id) => current.revoke(id),
    rotate: (oldId, successor) => current.rotate(oldId, successor),
    revokeDescendants: (tokenId, now) => current.revokeDescendants(tokenId, now),
    touchLastUsed: (id, at, throttleMs, ip) => current.touchLastUsed(id, at, throttleMs, ip),
    putUser: (user) => current.putUser(user),
    findUser: (ref) => current.findUser(ref),
  }
  // An optional capability is offered when the first store has it (stores swapped in later are
  // memory stores, which have them too); a store without it answers as a failure, never a throw.
  const missing = (operation: string, what: string) =>
    errAsync({
      type: 'store_failure',
      operation,
      cause: new Error(`the store in place has no ${what}`),
    } as const)
  if (supportsRotationReceipts(initial)) {
    Object.assign(store, {
      rotateWithReceipt: (oldId, successor, receipt) =>
        supportsRotationReceipts(current)
          ? current.rotateWithReceipt(oldId, successor, receipt)
          : missing('rotateWithReceipt', 'rotation receipts'),
      consumeRotationReceipt: (tokenId, keyDigest, now) =>
        supportsRotationReceipts(current)
          ? current.consumeRotationReceipt(tokenId, keyDigest, now)
          : missing('consumeRotationReceipt', 'rotation receipts'),
    } satisfies Pick<TokenStore, 'rotateWithReceipt' | 'consumeRotationReceipt'>)
  }
  if (initial.findUserById !== undefined) {
    store.findUserById = (id) =>
      current.findUserById !== undefined ? current.findUserById(id) : missing('findUserById', 'id lookup')
  }
  if (initial.findFreshByDigest !== undefined) {
    store.findFreshByDigest = (digest) =>
      current.findFreshByDigest !== undefined
        ? current.findFreshByDigest(digest)
        : missing('findFreshByDigest', 'fresh lookup')
  }
  if (initial.resources !== undefined) {
    // Read at each call: a reset or restore swaps the store, and its resources with it.
    Object.defineProperty(store, 'resources', { enumerable: true, get: () => current.resources })
  }
  if (initial.findSuccessor !== undefined) {
    store.findSuccessor = (id) =>
      current.findSuccessor !== undefined
        ? current.findSuccessor(id)
        : missing('findSuccessor', 'successor lookup')
  }
  if (initial.replaceAll !== undefined) {
    store.replaceAll = (contents) =>
      current.replaceAll !== undefined ? current.replaceAll(contents) : missing('replaceAll', 'replaceAll')
  }
  return store
}
