import type { TokenStore } from '../../../../src/store/token-store.js'

// Where the ported GitLab specs keep their data: the fake's memory store (project `fast`), or a
// database the project `specs-postgres` puts in place through its setup file (postgres-setup.ts).
// One factory per test file: files of a worker run one after another.

let factory: (() => Promise<TokenStore>) | null = null

/** Sets (or, with null, clears) the store every world of the running file gets. */
export function setSpecStore(next: (() => Promise<TokenStore>) | null): void {
  factory = next
}

/** A fresh, empty store for one world; undefined: the fake's own memory store. */
export async function specStore(): Promise<TokenStore | undefined> {
  return factory === null ? undefined : factory()
}
