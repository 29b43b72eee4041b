/**
 * Targets 14b and 14c: a revocation on one of 3 processes (each an instance with the verification
 * cache, LISTEN/NOTIFY, on one PostgreSQL), seen by the 2 others. Per round one token is cached by
 * every instance, the 2 observers authenticate it in a loop, and the third revokes it.
 * 14b: the delay from the start of the revoking call to the moment an observer is refused (default
 *   mode), p99 over every observer of every round.
 * 14c: strict mode, the number of accepted authentications that started after the revoking call
 *   returned, over every round (the note gives the strict call's own p99).
 * Skipped, with the reason, when PostgreSQL cannot be reached.
 */
import { fork } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Kysely, PostgresDialect } from 'kysely'
import { migrate, sqlStore } from 'patkit/sql'
import { createDigester } from 'patkit/store'
import pg from 'pg'
import { PEPPER } from '../lib/dataset.mjs'
import { dropPostgres } from '../lib/sql-population.mjs'
import { finish, progress, settings } from '../lib/suite.mjs'

const config = settings()
const ROUNDS = config.quick ? 30 : 150
const INSTANCES = 3
const PREFIX = 'bench_prop_'
const URL = process.env['PATKIT_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test'
const here = dirname(fileURLToPath(import.meta.url))

const pool = new pg.Pool({ connectionString: URL, max: 1, connectionTimeoutMillis: 3000 })
try {
  await pool.query('select 1')
} catch (error) {
  await pool.end().catch(() => {})
  const reason = `PostgreSQL unreachable at ${URL}: ${String(error)}`
  finish({
    targets: [],
    skipped: [
      { id: '14b', title: 'revocation propagation, 3 processes', reason },
      { id: '14c', title: 'uses after a strict revocation returned', reason },
    ],
  })
  await new Promise(() => {})
}
const db = new Kysely({ dialect: new PostgresDialect({ pool }) })
await dropPostgres(pool, PREFIX)
const migrated = await migrate(db, { tablePrefix: PREFIX })
if (migrated.isErr()) throw migrated.error.cause
const store = sqlStore(db, { tablePrefix: PREFIX })
await store.putUser({ id: 2, username: 'alice', admin: false, blocked: false })
const digest = createDigester(PEPPER)
const secretOf = (/** @type {number} */ k) => `glpat-propagation-${String(k).padStart(6, '0')}`
/** @type {{ id: number, secret: string }[]} */
const tokens = []
for (let k = 0; k < 2 * ROUNDS; k++) {
  const inserted = await store.insert({
    userId: 2,
    name: `p${k}`,
    description: null,
    scopes: ['api'],
    createdAt: new Date('2026-01-01T00:00:00.000Z'),
    lastUsedAt: null,
    expiresAt: null,
    revoked: false,
    impersonation: false,
    previousId: null,
    familyId: null,
    digest: digest(secretOf(k)),
  })
  if (inserted.isErr()) throw new Error('insert failed')
  tokens.push({ id: inserted.value.id, secret: secretOf(k) })
}

const children = Array.from({ length: INSTANCES }, () =>
  fork(join(here, '..', 'lib', 'cache-instance.mjs'), [], {
    env: { ...process.env, CACHE_BENCH_PREFIX: PREFIX },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  }),
)
/** @param {import('node:child_process').ChildProcess} child @param {string} type */
const next = (child, type) =>
  new Promise((resolve, reject) => {
    /** @param {any} message */
    const listener = (message) => {
      if (message.type !== type) return
      child.off('message', listener)
      resolve(message)
    }
    child.on('message', listener)
    child.once('exit', (code) => reject(new Error(`instance exited with ${code}`)))
  })
await Promise.all(children.map((child) => next(child, 'ready')))
progress(`cache-propagation: ${INSTANCES} instances ready, ${ROUNDS} rounds per mode`)

/** @param {number[]} values @param {number} q */
const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN
}

/** @param {'default' | 'strict'} mode @param {number} offset */
async function measure(mode, offset) {
  /** @type {number[]} */ const delays = []
  /** @type {number[]} */ const afterReturn = []
  /** @type {number[]} */ const calls = []
  let usesAfterReturn = 0
  for (let round = 0; round < ROUNDS; round++) {
    const token = /** @type {{ id: number, secret: string }} */ (tokens[offset + round])
    for (const child of children) {
      const warmed = next(child, 'warmed')
      child.send({ type: 'warm', mode, secret: token.secret })
      await warmed
    }
    const revoker = /** @type {import('node:child_process').ChildProcess} */ (children[round % INSTANCES])
    const observers = children.filter((child) => child !== revoker)
    const probing = observers.map((child) => next(child, 'probing'))
    const probed = observers.map((child) => next(child, 'probed'))
    for (const child of observers) child.send({ type: 'probe', mode, secret: token.secret })
    await Promise.all(probing)
    const revoked = next(revoker, 'revoked')
    revoker.send({ type: 'revoke', mode, id: token.id })
    const { startedAt, returnedAt } = /** @type {{ startedAt: number, returnedAt: number }} */ (await revoked)
    calls.push(returnedAt - startedAt)
    for (const result of /** @type {{ refusedAt: number, accepted: number[] }[]} */ (
      await Promise.all(probed)
    )) {
      delays.push(result.refusedAt - startedAt)
      afterReturn.push(result.refusedAt - returnedAt)
      usesAfterReturn += result.accepted.filter((at) => at > returnedAt).length
    }
  }
  return { delays, afterReturn, calls, usesAfterReturn }
}

const relaxed = await measure('default', 0)
progress('cache-propagation: default mode measured')
const strict = await measure('strict', ROUNDS)
progress('cache-propagation: strict mode measured')
for (const child of children) child.send({ type: 'stop' })
await Promise.all(children.map((child) => new Promise((resolve) => child.once('exit', resolve))))
await dropPostgres(pool, PREFIX)
await db.destroy()

const ms = (/** @type {number} */ value) => `${value.toFixed(1)} ms`
const p99 = quantile(relaxed.delays, 0.99)
finish({
  targets: [
    {
      id: '14b',
      title: `revocation visible on every instance: 3 processes with the cache on one PostgreSQL (LISTEN/NOTIFY), ${ROUNDS} revocations, default mode`,
      baseline: null,
      subject: { name: 'p99 from the revoking call to an observer refused', value: p99, unit: 'ms' },
      ratio: p99,
      ratioLabel: 'milliseconds',
      direction: 'max',
      threshold: 50,
      pass: p99 <= 50,
      note: `p50 ${ms(quantile(relaxed.delays, 0.5))}, max ${ms(Math.max(...relaxed.delays))}; the revoking call itself p50 ${ms(quantile(relaxed.calls, 0.5))}; after it returned, observers still accepted ${relaxed.usesAfterReturn} times (default mode); strict mode: p99 ${ms(quantile(strict.delays, 0.99))} to refusal`,
    },
    {
      id: '14c',
      title: `uses of a revoked token after the revoking call returned, strict mode (3 processes, PostgreSQL, ${ROUNDS} revocations)`,
      baseline: null,
      subject: {
        name: 'accepted authentications started after the return',
        value: strict.usesAfterReturn,
        unit: 'uses',
      },
      ratio: strict.usesAfterReturn,
      ratioLabel: 'uses',
      direction: 'max',
      threshold: 0,
      pass: strict.usesAfterReturn === 0,
      note: `the strict revoking call: p50 ${ms(quantile(strict.calls, 0.5))}, p99 ${ms(quantile(strict.calls, 0.99))} (it waits for both other instances' acknowledgements)`,
    },
  ],
  details: {
    defaultDelaysMs: relaxed.delays,
    strictCallsMs: strict.calls,
  },
})
