import type { NodeCrypto } from './node-crypto.js'

// What the built package loads in place of node-crypto.ts where the runtime is not Node (package.json
// "imports" maps `#node-crypto` by condition: "edge-light", "workerd", "worker", "browser" and
// "default" get this file, "node" gets node-crypto.ts). It names no Node API at all: Next.js's edge
// sandbox throws on any `process.*` function, `process.getBuiltinModule` included, even behind `?.`.
export const nodeCrypto: NodeCrypto | undefined = undefined
