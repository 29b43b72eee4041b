import { createAuthority } from 'patkit'
import { manualClock } from 'patkit/fake'
import { memoryStore } from 'patkit/memory'
import { benchDigester, NOW, PEPPER, tokenAt, usersOf } from './dataset.mjs'

/**
 * A memory store holding the benchmark population of `n` tokens, filled through `importToken` (the
 * store's own write path, one call per token), and an authority over it with the fixed clock.
 * @param {number} n
 * @param {(token: import('patkit').Token) => void} [onToken] Sees every token as it is stored.
 */
export async function memoryPopulation(n, onToken) {
  const store = memoryStore({ users: usersOf(n) })
  const digest = benchDigester()
  for (let i = 1; i <= n; i++) {
    const token = tokenAt(i, n, digest)
    store.importToken(token)
    onToken?.(token)
  }
  // importToken does its work synchronously; one awaited read proves the last write is in.
  const last = await store.findById(n)
  if (last.isErr() || last.value === null) throw new Error(`population of ${n} tokens failed`)
  const authority = createAuthority({ store, pepper: PEPPER, clock: manualClock(NOW) })
  settle()
  return { store, authority }
}

/**
 * Runs full collections (the runner starts every suite with --expose-gc), so the garbage and the
 * old-generation work left by building a million tokens do not fall into the first measured rounds.
 */
export function settle() {
  const gc = /** @type {(() => void) | undefined} */ (globalThis.gc)
  gc?.()
  gc?.()
}
