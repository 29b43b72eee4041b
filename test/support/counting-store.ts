import type { TokenStore } from '../../src/store/index.js'

/** What a {@link countingStore} saw: calls per method, in order. */
export interface StoreCalls {
  readonly log: string[]
  count(method: string): number
  /** The lookups of a token (by digest, fresh or not, or by id). */
  lookups(): number
  reset(): void
}

const LOOKUPS = ['findByDigest', 'findByDigestWithUser', 'findFreshByDigest', 'findById']

/**
 * A real store (no mock) that counts its calls: every method of `store` forwards with all its
 * arguments.
 */
export function countingStore<S extends TokenStore>(
  store: S,
): { readonly store: TokenStore; readonly calls: StoreCalls } {
  const log: string[] = []
  const counted: Record<string, unknown> = {}
  counted['userIdType'] = store.userIdType
  for (const key of Object.keys(store) as (keyof TokenStore)[]) {
    const method: unknown = store[key]
    if (typeof method !== 'function') continue
    counted[key] = (...args: unknown[]) => {
      log.push(key)
      return Reflect.apply(method, store, args)
    }
  }
  const calls: StoreCalls = {
    log,
    count: (method) => log.filter((m) => m === method).length,
    lookups: () => log.filter((m) => LOOKUPS.includes(m)).length,
    reset: () => {
      log.length = 0
    },
  }
  return { store: counted as unknown as TokenStore, calls }
}
