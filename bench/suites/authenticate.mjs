/**
 * Target 1: authenticate (secret to principal, memory store, N tokens) against its floor, HMAC-SHA-256
 * of the same secret plus one Map lookup over the same N digests.
 */
import { alternate } from '../lib/compare.mjs'
import { benchDigester, sampleIndexes, secretOf } from '../lib/dataset.mjs'
import { memoryPopulation } from '../lib/memory-population.mjs'
import { finish, progress, settings, targetFrom } from '../lib/suite.mjs'

const BATCH = 32
const config = settings()
const started = performance.now()
/** @type {Map<string, number>} */
const floorIndex = new Map()
const { authority } = await memoryPopulation(config.n, (token) => floorIndex.set(token.digest, token.id))
progress(`authenticate: ${config.n} tokens stored in ${Math.round(performance.now() - started)} ms`)

const secrets = sampleIndexes(config.n, 1024).map(secretOf)
const mask = secrets.length - 1
const digest = benchDigester()
let next = 0

const comparison = await alternate({
  baseline: {
    name: 'HMAC-SHA-256 + Map.get',
    batch: BATCH,
    fn: () => {
      for (let k = 0; k < BATCH; k++) {
        if (floorIndex.get(digest(/** @type {string} */ (secrets[next++ & mask]))) === undefined) {
          throw new Error('floor: unknown digest')
        }
      }
    },
  },
  subject: {
    name: 'authority.authenticate',
    batch: BATCH,
    fn: async () => {
      for (let k = 0; k < BATCH; k++) {
        const principal = await authority.authenticate(secrets[next++ & mask])
        if (principal.isErr()) throw new Error(`authenticate: ${principal.error.type}`)
      }
    },
  },
  rounds: config.rounds,
  timeMs: config.timeMs,
  warmupMs: config.warmupMs,
})

finish({
  targets: [
    targetFrom(
      {
        id: '1',
        title: `authenticate vs HMAC + Map lookup (memory, ${config.n.toLocaleString('en')} tokens)`,
        direction: 'min',
        threshold: 0.8,
      },
      comparison,
    ),
  ],
})
