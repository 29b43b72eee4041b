/**
 * Target 2: patkit's authenticate against a peer, better-auth's api-key plugin (`verifyApiKey`) on
 * better-auth's memory adapter, each holding the same number of keys. The better-auth store is filled
 * directly with rows of the shape its own `createApiKey` writes (one key is created through the API
 * first, and every other row copies it), with real SHA-256 hashes of known keys.
 */
import { createHash } from 'node:crypto'
import { apiKey, defaultKeyHasher } from '@better-auth/api-key'
import { betterAuth } from 'better-auth'
import { memoryAdapter } from 'better-auth/adapters/memory'
import { alternate } from '../lib/compare.mjs'
import { sampleIndexes, secretOf } from '../lib/dataset.mjs'
import { memoryPopulation, settle } from '../lib/memory-population.mjs'
import { finish, progress, settings, targetFrom } from '../lib/suite.mjs'

const config = settings()

/**
 * A better-auth instance with the api-key plugin over its memory adapter, holding `n` keys. Rate
 * limiting is off, as patkit has none, so both sides do the same work: look the key up, check it,
 * record the use.
 * @param {number} n
 */
async function betterAuthWith(n) {
  /** @type {Record<string, Record<string, unknown>[]>} */
  const db = { user: [], session: [], account: [], verification: [], apikey: [] }
  const auth = betterAuth({
    database: memoryAdapter(db),
    secret: 'patkit-benchmark-better-auth-secret-0123456789',
    baseURL: 'http://127.0.0.1',
    plugins: [apiKey({ rateLimit: { enabled: false } })],
    logger: { disabled: true },
    telemetry: { enabled: false },
  })
  const context = await auth.$context
  const user = await context.internalAdapter.createUser({
    email: 'alice@example.com',
    name: 'alice',
    emailVerified: true,
  })
  const created = await auth.api.createApiKey({ body: { userId: user.id, name: 'ci' } })
  const template = db['apikey']?.[0]
  if (template === undefined) throw new Error('better-auth stored no api key')
  const hash = (/** @type {string} */ key) => createHash('sha256').update(key).digest('base64url')
  // The plugin hashes with WebCrypto SHA-256 and unpadded base64url: the same bytes as node:crypto's.
  if ((await defaultKeyHasher(created.key)) !== hash(created.key)) throw new Error('key hashes differ')
  const rows = /** @type {Record<string, unknown>[]} */ (db['apikey'])
  rows.length = 0
  for (let i = 1; i <= n; i++) {
    rows.push({
      ...template,
      id: `key${i}`,
      name: `key ${i}`,
      key: hash(secretOf(i)),
      start: secretOf(i).slice(0, 6),
    })
  }
  return auth
}

/**
 * patkit and better-auth with `n` keys each, measured in alternating rounds.
 * @param {number} n
 */
async function compareAt(n) {
  const started = performance.now()
  const { authority } = await memoryPopulation(n)
  const auth = await betterAuthWith(n)
  settle()
  progress(`peer: ${n} keys in each store in ${Math.round(performance.now() - started)} ms`)
  const secrets = sampleIndexes(n, 256).map(secretOf)
  const mask = secrets.length - 1
  let next = 0
  let peerNext = 0
  const verifyOnce = async () => {
    const result = await auth.api.verifyApiKey({ body: { key: secrets[peerNext++ & mask] } })
    if (!result.valid) throw new Error(`better-auth: ${JSON.stringify(result.error)}`)
  }
  await verifyOnce()
  return alternate({
    // At a million keys one verification takes a large fraction of a second: a few calls suffice.
    baseline: { name: 'better-auth verifyApiKey', fn: verifyOnce, minCalls: n > 100_000 ? 2 : 8 },
    subject: {
      name: 'patkit authenticate',
      fn: async () => {
        const principal = await authority.authenticate(secrets[next++ & mask])
        if (principal.isErr()) throw new Error(`authenticate: ${principal.error.type}`)
      },
    },
    rounds: Math.min(config.rounds, 5),
    timeMs: config.timeMs,
    warmupMs: config.warmupMs,
  })
}

const SMALL = 1000
const full = await compareAt(config.n)
const small = await compareAt(SMALL)

finish({
  targets: [
    targetFrom(
      {
        id: '2',
        title: `authenticate vs better-auth 1.7.5 api-key verify, memory adapters (${config.n.toLocaleString('en')} keys)`,
        direction: 'min',
        threshold: 10,
        note: "better-auth's memory adapter scans its whole key array for the lookup and again for the usage update, so its cost grows with the number of keys",
      },
      full,
    ),
    targetFrom(
      {
        id: '2b',
        title: `the same with ${SMALL.toLocaleString('en')} keys each (per-call overhead, scans nearly free)`,
        direction: 'min',
        threshold: 10,
      },
      small,
    ),
  ],
})
