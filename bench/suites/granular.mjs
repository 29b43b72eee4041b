/**
 * Target 24 (issue 31): `GET /api/v4/personal_access_tokens/self` through `createHandler(authority)`
 * (memory store) presented with a fine-grained token (a `user` scope granting
 * `read_personal_access_token`: authentication plus the granular check) against the same request
 * with a legacy token (authentication and the scope rule only). Both halves of the same population,
 * the same handler, alternated in rounds; the ratio is granular cost over legacy cost (goal ≤ 1.2).
 */
import { createAuthority } from 'patkit'
import { manualClock } from 'patkit/fake'
import { createHandler } from 'patkit/http'
import { memoryStore } from 'patkit/memory'
import { alternate } from '../lib/compare.mjs'
import { benchDigester, NOW, PEPPER, sampleIndexes, secretOf, tokenAt, usersOf } from '../lib/dataset.mjs'
import { settle } from '../lib/memory-population.mjs'
import { finish, progress, settings, targetFrom } from '../lib/suite.mjs'

const BATCH = 32
const config = settings()
const n = Math.min(config.n, 100_000)
const started = performance.now()
const samples = sampleIndexes(n, 1024)
const granular = new Set(samples.filter((_, k) => k % 2 === 1))
const store = memoryStore({ users: usersOf(n) })
const digest = benchDigester()
const SCOPES = Object.freeze([
  Object.freeze({
    access: 'user',
    permissions: Object.freeze(['read_personal_access_token']),
    projectId: null,
    groupId: null,
  }),
])
for (let i = 1; i <= n; i++) {
  const token = tokenAt(i, n, digest)
  store.importToken(granular.has(i) ? { ...token, granularScopes: SCOPES } : token)
}
const last = await store.findById(n)
if (last.isErr() || last.value === null) throw new Error(`population of ${n} tokens failed`)
const authority = createAuthority({ store, pepper: PEPPER, clock: manualClock(NOW) })
const handler = createHandler(authority)
settle()
progress(
  `granular: ${n} tokens (${granular.size} fine-grained) stored in ${Math.round(performance.now() - started)} ms`,
)

const URL_SELF = 'http://gitlab.test/api/v4/personal_access_tokens/self'
/** @param {number[]} indexes */
const requestsOf = (indexes) =>
  indexes.map((i) => new Request(URL_SELF, { headers: { 'private-token': secretOf(i) } }))
const legacyRequests = requestsOf(samples.filter((i) => !granular.has(i)))
const granularRequests = requestsOf([...granular])

/**
 * @param {string} name
 * @param {Request[]} requests
 */
function contender(name, requests) {
  let next = 0
  return {
    name,
    batch: BATCH,
    fn: async () => {
      for (let k = 0; k < BATCH; k++) {
        const request = /** @type {Request} */ (requests[next++ % requests.length])
        const response = await handler(request)
        if (response.status !== 200) throw new Error(`${name}: ${response.status} ${await response.text()}`)
      }
    },
  }
}

const comparison = await alternate({
  baseline: contender('GET /self, legacy token', legacyRequests),
  subject: contender('GET /self, fine-grained token (user scope)', granularRequests),
  rounds: config.rounds,
  timeMs: config.timeMs,
  warmupMs: config.warmupMs,
})

finish({
  targets: [
    targetFrom(
      {
        id: '24',
        title: `GET /personal_access_tokens/self: fine-grained token vs legacy token (createHandler, memory, ${n.toLocaleString('en')} tokens)`,
        direction: 'max',
        threshold: 1.2,
      },
      comparison,
      { invert: true },
    ),
  ],
})
