/**
 * Target 2: patkit's authenticate against a peer, better-auth's api-key plugin (`verifyApiKey`) on
 * better-auth's memory adapter, each holding the same number of keys. The better-auth store is filled
 * directly with rows of the shape its own `createApiKey` writes (bench/lib/better-auth.mjs).
 */
import { betterAuthWith } from '../lib/better-auth.mjs'
import { alternate } from '../lib/compare.mjs'
import { sampleIndexes, secretOf } from '../lib/dataset.mjs'
import { memoryPopulation, settle } from '../lib/memory-population.mjs'
import { finish, progress, settings, targetFrom } from '../lib/suite.mjs'

const config = settings()

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
