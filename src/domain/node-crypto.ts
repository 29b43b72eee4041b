import type * as NodeCryptoModule from 'node:crypto'

/** The part of `node:crypto` patkit uses: keyed HMAC and one-shot SHA-256, on Node's native code. */
export type NodeCrypto = Pick<typeof NodeCryptoModule, 'createHmac' | 'createSecretKey'> &
  // One-shot hashing, from Node 20.12 (absent before): the digester's fast path.
  Partial<Pick<typeof NodeCryptoModule, 'hash'>>

interface BuiltinLoader {
  readonly process?: { readonly getBuiltinModule?: (id: string) => unknown }
}

/**
 * `node:crypto` when the runtime is Node (>= 20.16 and 22.3, which have `process.getBuiltinModule`),
 * else undefined (an older Node, or whatever else resolves the "node" condition without it), where
 * patkit computes its HMACs in JavaScript (sha256.ts). Looked up, never imported: a static
 * `import 'node:crypto'` would keep the core from loading where there is no such module, and a dynamic
 * one would make the digest async. The built package loads this file only under the "node" condition
 * (package.json "imports", `#node-crypto`); edge runtimes, workers and browsers get
 * node-crypto-absent.ts, which names no Node API (Next.js's edge sandbox throws on this lookup).
 */
export const nodeCrypto: NodeCrypto | undefined = (globalThis as BuiltinLoader).process?.getBuiltinModule?.(
  'node:crypto',
) as NodeCrypto | undefined
