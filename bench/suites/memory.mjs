/**
 * Target 7: bytes per token in the memory store at N tokens: the heap grown by storing them (after a
 * full collection before and after) divided by N. Runs with --expose-gc. Only the store is kept
 * alive; the Token objects handed to importToken are garbage once stored, as in an application. The
 * store's users are put in before the first measurement.
 */
import { memoryStore } from 'patkit/memory'
import { benchDigester, tokenAt, usersOf } from '../lib/dataset.mjs'
import { finish, progress, settings } from '../lib/suite.mjs'

const config = settings()
const gc = /** @type {(() => void) | undefined} */ (globalThis.gc)
if (gc === undefined) throw new Error('run with --expose-gc')

const users = usersOf(config.n)
const digest = benchDigester()
// The users are stored first, so the delta is the tokens' alone.
const store = memoryStore({ users })
gc()
gc()
const before = process.memoryUsage().heapUsed
for (let i = 1; i <= config.n; i++) store.importToken(tokenAt(i, config.n, digest))
const last = await store.findById(config.n)
if (last.isErr() || last.value === null) throw new Error('population failed')
gc()
gc()
const after = process.memoryUsage().heapUsed
const perToken = (after - before) / config.n
progress(`memory: heap +${Math.round((after - before) / 2 ** 20)} MiB for ${config.n} tokens`)

finish({
  targets: [
    {
      id: '7',
      title: `memory store: heap bytes per token at ${config.n.toLocaleString('en')} tokens`,
      baseline: null,
      subject: { name: 'heap delta / N', value: perToken, unit: 'B' },
      ratio: perToken,
      ratioLabel: 'bytes per token',
      direction: 'max',
      // Issue 29: at most 350 bytes per token (400 before).
      threshold: 350,
      pass: perToken <= 350,
      note: `rows, every index, and the digest and name strings: ${Math.round(((after - before) / 2 ** 20) * 10) / 10} MiB for the tokens (users stored before the first measurement)`,
    },
  ],
  details: { heapBefore: before, heapAfter: after },
})
