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
 * Wraps `initial` in a {@link SwappableStore}. Every method forwards to the store in place at the time
 * of the call.
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
    userIdType: initial.userIdType,
    findByDigest: (digest) => current.findByDigest(digest),
    findByDigestWithUser: (digest) => current.findByDigestWithUser(digest),
    findFreshByDigest: (digest) => current.findFreshByDigest(digest),
    findById: (id) => current.findById(id),
    findSuccessor: (id) => current.findSuccessor(id),
    list: (query) => current.list(query),
    insert: (draft) => current.insert(draft),
    importToken: (token) => current.importToken(token),
    revoke: (id) => current.revoke(id),
    rotate: (oldId, successor) => current.rotate(oldId, successor),
    rotateWithReceipt: (oldId, successor, receipt) => current.rotateWithReceipt(oldId, successor, receipt),
    consumeRotationReceipt: (tokenId, keyDigest, now) =>
      current.consumeRotationReceipt(tokenId, keyDigest, now),
    revokeDescendants: (tokenId, now) => current.revokeDescendants(tokenId, now),
    touchLastUsed: (id, at, throttleMs, ip) => current.touchLastUsed(id, at, throttleMs, ip),
    putUser: (user) => current.putUser(user),
    findUser: (ref) => current.findUser(ref),
    findUserById: (id) => current.findUserById(id),
    replaceAll: (contents) => current.replaceAll(contents),
  }
  if (initial.resources !== undefined) {
    // Read at each call: a reset or restore swaps the store, and its resources with it.
    Object.defineProperty(store, 'resources', { enumerable: true, get: () => current.resources })
  }
  return store
}
