/**
 * Target 4: listing on the memory store.
 * 4a: alice's own list (20 tokens) in a store of 1,000 tokens versus one of N: the cost must not grow
 *     with the tokens of others.
 * 4b: an administrator's `state=active&search=deploy` over N tokens versus a hand-written filter and
 *     sort over an array of the same N tokens (checked to give the same page and total first).
 */
import { alternate } from '../lib/compare.mjs'
import { ALICE, isActiveIndex, ROOT, SEARCH, secretOf, TODAY, USER_TOKENS } from '../lib/dataset.mjs'
import { memoryPopulation, settle } from '../lib/memory-population.mjs'
import { finish, progress, settings, targetFrom } from '../lib/suite.mjs'

const config = settings()
const SMALL = 1000
const ROOT_SECRET = 'glpat-bench-root-0000000000000000'

/**
 * A population of n tokens with principals for root and alice.
 * @param {number} n
 * @param {(token: import('patkit').Token) => void} [onToken]
 */
async function world(n, onToken) {
  const { authority } = await memoryPopulation(n, onToken)
  const issued = await authority.issueToken({
    userId: ROOT.id,
    name: 'admin',
    scopes: ['api'],
    secret: ROOT_SECRET,
  })
  if (issued.isErr()) throw new Error(`issueToken: ${issued.error.type}`)
  const stride = Math.max(1, Math.floor(n / USER_TOKENS))
  const aliceIndex = [...Array(USER_TOKENS).keys()].map((k) => (k + 1) * stride).find(isActiveIndex)
  if (aliceIndex === undefined) throw new Error('alice has no active token')
  const root = (await authority.authenticate(ROOT_SECRET))._unsafeUnwrap()
  const alice = (await authority.authenticate(secretOf(aliceIndex)))._unsafeUnwrap()
  if (alice.user.id !== ALICE.id) throw new Error('not alice')
  return { authority, root, alice }
}

const started = performance.now()
/** @type {import('patkit').Token[]} */
const array = []
const small = await world(SMALL)
const large = await world(config.n, (token) => array.push(token))
settle()
progress(`list: stores of ${SMALL} and ${config.n} tokens in ${Math.round(performance.now() - started)} ms`)

/** @param {Awaited<ReturnType<typeof world>>} w */
const ownList = async (w) => {
  const page = await w.authority.list(w.alice)
  if (page.isErr() || page.value.pagination.total !== USER_TOKENS) throw new Error('alice list')
}
const userList = await alternate({
  baseline: { name: `alice's list, ${SMALL.toLocaleString('en')} tokens`, fn: () => ownList(small) },
  subject: { name: `alice's list, ${config.n.toLocaleString('en')} tokens`, fn: () => ownList(large) },
  rounds: config.rounds,
  timeMs: config.timeMs,
  warmupMs: config.warmupMs,
})

const request = /** @type {const} */ ({ filter: { state: 'active', search: SEARCH } })
const adminList = async () => {
  const page = await large.authority.list(large.root, request)
  if (page.isErr()) throw new Error(`admin list: ${page.error.type}`)
  return page.value
}
// What a developer would write over the array: active at TODAY, name contains the term, by id, page 1.
const handWritten = () => {
  const matches = array.filter(
    (t) =>
      !t.revoked && (t.expiresAt === null || t.expiresAt > TODAY) && t.name.toLowerCase().includes(SEARCH),
  )
  matches.sort((a, b) => a.id - b.id)
  return { items: matches.slice(0, 20), total: matches.length }
}
const expected = handWritten()
const actual = await adminList()
if (
  expected.total !== actual.pagination.total ||
  expected.items.map((t) => t.id).join() !== actual.items.map((t) => t.id).join()
) {
  throw new Error(`the hand-written list differs: ${expected.total} vs ${actual.pagination.total}`)
}
progress(`list: ${expected.total} of ${config.n} tokens match state=active&search=${SEARCH}`)
const filtered = await alternate({
  baseline: { name: 'hand-written filter + sort', fn: handWritten },
  subject: { name: 'authority.list (admin)', fn: adminList },
  rounds: config.rounds,
  timeMs: Math.max(config.timeMs, 500),
  warmupMs: config.warmupMs,
})

finish({
  targets: [
    targetFrom(
      {
        id: '4a',
        title: `a user's own list (${USER_TOKENS} tokens): store of ${config.n.toLocaleString('en')} vs ${SMALL.toLocaleString('en')} tokens`,
        direction: 'max',
        threshold: 1.5,
      },
      userList,
      { invert: true },
    ),
    targetFrom(
      {
        id: '4b',
        title: `admin list state=active&search=${SEARCH} over ${config.n.toLocaleString('en')} tokens vs hand-written filter + sort`,
        direction: 'max',
        threshold: 2,
        note: `${expected.total.toLocaleString('en')} matches; both return page 1 (20 tokens, by id) and the total`,
      },
      filtered,
      { invert: true },
    ),
  ],
})
