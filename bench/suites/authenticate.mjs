/**
 * Target 1: authenticate (secret to principal, memory store, N tokens) against its floor, HMAC-SHA-256
 * of the same secret plus one Map lookup over the same N digests.
 */
import { okAsync } from 'neverthrow'
import { createDigester } from 'patkit/store'
import { alternateMany } from '../lib/compare.mjs'
import { benchDigester, PEPPER, sampleIndexes, secretOf } from '../lib/dataset.mjs'
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

/**
 * The floor with a given digester: the HMAC of each presented secret and one Map.get of it.
 * @param {string} name
 * @param {(secret: string) => string} digestOf
 */
const floorWith = (name, digestOf) => ({
  name,
  batch: BATCH,
  fn: () => {
    for (let k = 0; k < BATCH; k++) {
      if (floorIndex.get(digestOf(/** @type {string} */ (secrets[next++ & mask]))) === undefined) {
        throw new Error('floor: unknown digest')
      }
    }
  },
})
const floor = floorWith('HMAC-SHA-256 + Map.get', digest)
// The floor as an API returning a ResultAsync answers it: the same work, each answer awaited as an
// already settled ResultAsync. What separates it from the floor is the await alone, which no
// asynchronous API escapes; reported beside the target.
const awaitedFloor = {
  name: 'HMAC-SHA-256 + Map.get, awaited as a ResultAsync',
  batch: BATCH,
  fn: async () => {
    for (let k = 0; k < BATCH; k++) {
      const found = await okAsync(floorIndex.get(digest(/** @type {string} */ (secrets[next++ & mask]))))
      if (found.isErr() || found.value === undefined) throw new Error('floor: unknown digest')
    }
  },
}
// The floor again with patkit's own digester (`createDigester`, the HMAC computed as two one-shot
// hashes where Node has `crypto.hash`): what is left of patkit's cost once the hash is the same.
const ownFloor = floorWith("HMAC-SHA-256 (patkit's createDigester) + Map.get", createDigester(PEPPER))
const subject = {
  name: 'authority.authenticate',
  batch: BATCH,
  fn: async () => {
    for (let k = 0; k < BATCH; k++) {
      const principal = await authority.authenticate(secrets[next++ & mask])
      if (principal.isErr()) throw new Error(`authenticate: ${principal.error.type}`)
    }
  },
}
const many = await alternateMany({
  contenders: [floor, awaitedFloor, ownFloor, subject],
  rounds: config.rounds,
  timeMs: config.timeMs,
  warmupMs: config.warmupMs,
})
const [floorOps, awaitedOps, ownOps, subjectOps] = many.contenders
const awaitedRatio = many.ratios[1] ?? Number.NaN
const ownRatio = many.ratios[2] ?? Number.NaN
const subjectRatio = many.ratios[3] ?? Number.NaN
/** @type {import('../lib/compare.mjs').Comparison} */
const comparison = {
  baseline: { name: floor.name, opsPerSec: floorOps?.opsPerSec ?? Number.NaN },
  subject: { name: subject.name, opsPerSec: subjectOps?.opsPerSec ?? Number.NaN },
  ratio: subjectRatio,
  ratios: many.rounds[3] ?? [],
  rounds: config.rounds,
}

finish({
  targets: [
    targetFrom(
      {
        id: '1',
        title: `authenticate vs HMAC + Map lookup (memory, ${config.n.toLocaleString('en')} tokens)`,
        direction: 'min',
        threshold: 0.8,
        note: `in the same rounds: the floor awaited as a settled ResultAsync (the await alone), ${Math.round(awaitedOps?.opsPerSec ?? 0).toLocaleString('en-US')} ops/s, ${awaitedRatio.toFixed(2)} of the floor; the floor with patkit's own digester, ${Math.round(ownOps?.opsPerSec ?? 0).toLocaleString('en-US')} ops/s, ${ownRatio.toFixed(2)} of the floor, of which patkit is ${(subjectRatio / ownRatio).toFixed(2)}`,
      },
      comparison,
    ),
  ],
})
