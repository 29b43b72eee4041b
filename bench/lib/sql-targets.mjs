/**
 * Target 5 on any SQL database: authenticate and a user's own list through patkit's SQL store,
 * against hand-written SQL on the same connection. Four contenders each, measured in rotating rounds:
 * 1. the baseline: one hand-written query of the same meaning (a join for authenticate, a window count
 *    for the list);
 * 2. the baseline's statement, compiled once, sent through Kysely's driver (`db.executeQuery`): the
 *    floor of any store that issues that one statement through Kysely;
 * 3. the same statement built with a bare Kysely query builder on every call (building and compiling
 *    included);
 * 4. patkit.
 */
import { createAuthority } from 'patkit'
import { manualClock } from 'patkit/fake'
import { sqlStore } from 'patkit/sql'
import { alternateMany } from './compare.mjs'
import { NOW, PEPPER, sampleIndexes, secretOf, USER_TOKENS } from './dataset.mjs'
import { PREFIX, presentedIndexes } from './sql-population.mjs'

/**
 * An authority over the SQL store on a Kysely instance.
 * @param {import('kysely').Kysely<any>} db
 */
export function sqlAuthority(db, options = {}) {
  return createAuthority({
    store: sqlStore(db, { tablePrefix: PREFIX, ...options }),
    pepper: PEPPER,
    clock: manualClock(NOW),
  })
}

/**
 * A target row from a four-contender comparison: the ratio is patkit's cost over the baseline's, and
 * the note gives the cost of the two floors.
 * @param {{ id: string, title: string, threshold: number }} meta
 * @param {import('./compare.mjs').ManyComparison} comparison
 * @returns {import('./suite.mjs').Target}
 */
export function costTarget(meta, comparison) {
  const last = comparison.contenders.length - 1
  const cost = comparison.ratios.map((r) => 1 / r)
  const ratio = cost[last] ?? Number.NaN
  const base = comparison.contenders[0]
  const subject = comparison.contenders[last]
  const floors = comparison.contenders
    .slice(1, last)
    .map((c, k) => `${c.name}: ${(cost[k + 1] ?? Number.NaN).toFixed(2)}×`)
    .join('; ')
  return {
    id: meta.id,
    title: meta.title,
    baseline: { name: base?.name ?? '', value: base?.opsPerSec ?? 0, unit: 'ops/s' },
    subject: { name: subject?.name ?? '', value: subject?.opsPerSec ?? 0, unit: 'ops/s' },
    ratio,
    ratioLabel: 'subject cost / baseline cost',
    direction: 'max',
    threshold: meta.threshold,
    pass: ratio <= meta.threshold,
    note: `cost relative to the baseline — ${floors}; patkit: ${ratio.toFixed(2)}×`,
  }
}

/**
 * @typedef {object} RawAccess Hand-written access on the benchmark's connection.
 * @property {(digest: string) => Promise<unknown>} authJoined token and user in one query
 * @property {(digest: string) => Promise<unknown>} authDriver the same query through Kysely's driver
 * @property {(digest: string) => Promise<unknown>} authKysely the same query built by a bare Kysely
 * @property {(userId: number) => Promise<unknown>} listWindow page and total in one query
 * @property {(userId: number) => Promise<unknown>} listDriver the same query through Kysely's driver
 * @property {(userId: number) => Promise<unknown>} listKysely the same query built by a bare Kysely
 */

/**
 * Measures target 5 for one database. `variant`, when given, is patkit on another configuration of the
 * same connection, measured in the same rounds and reported in the note (not as the target's figure).
 * @param {{ label: string, id: string, n: number, authority: ReturnType<typeof sqlAuthority>, raw: RawAccess, digest: (secret: string) => string, settings: import('./suite.mjs').Settings, variant?: { name: string, authority: ReturnType<typeof sqlAuthority> }, authThreshold?: number }} options
 */
export async function measureSql({
  label,
  id,
  n,
  authority,
  raw,
  digest,
  settings,
  variant,
  authThreshold = 1.5,
}) {
  const secrets = sampleIndexes(n, 1024).map(secretOf)
  const mask = secrets.length - 1
  let next = 0
  const take = () => /** @type {string} */ (secrets[next++ & mask])
  const stride = Math.max(1, Math.floor(n / USER_TOKENS))
  const aliceSecret = secretOf(
    presentedIndexes(n).find((i) => i % stride === 0 && i % 20 !== 7 && i % 20 !== 11) ?? 0,
  )
  const alice = (await authority.authenticate(aliceSecret))._unsafeUnwrap()
  // The first use of each sampled token writes last_used_at; afterwards every use is inside the window.
  for (const secret of secrets) (await authority.authenticate(secret))._unsafeUnwrap()
  const timing = {
    rounds: Math.min(settings.rounds, 5),
    timeMs: settings.timeMs,
    warmupMs: settings.warmupMs,
  }

  const variants = variant === undefined ? [] : [variant]
  const auth = await alternateMany({
    contenders: [
      { name: 'hand-written join', fn: () => raw.authJoined(digest(take())) },
      { name: "the same query through Kysely's driver", fn: () => raw.authDriver(digest(take())) },
      { name: 'the same query built by bare Kysely', fn: () => raw.authKysely(digest(take())) },
      ...variants.map((v) => ({
        name: v.name,
        fn: async () => {
          const principal = await v.authority.authenticate(take())
          if (principal.isErr()) throw new Error(`authenticate: ${principal.error.type}`)
        },
      })),
      {
        name: 'patkit authenticate',
        fn: async () => {
          const principal = await authority.authenticate(take())
          if (principal.isErr()) throw new Error(`authenticate: ${principal.error.type}`)
        },
      },
    ],
    ...timing,
  })
  const list = await alternateMany({
    contenders: [
      { name: 'hand-written window count', fn: () => raw.listWindow(alice.user.id) },
      { name: "the same query through Kysely's driver", fn: () => raw.listDriver(alice.user.id) },
      { name: 'the same query built by bare Kysely', fn: () => raw.listKysely(alice.user.id) },
      ...variants.map((v) => ({
        name: v.name,
        fn: async () => {
          const page = await v.authority.list(alice)
          if (page.isErr() || page.value.pagination.total !== USER_TOKENS) throw new Error('list')
        },
      })),
      {
        name: 'patkit list',
        fn: async () => {
          const page = await authority.list(alice)
          if (page.isErr() || page.value.pagination.total !== USER_TOKENS) throw new Error('list')
        },
      },
    ],
    ...timing,
  })
  return [
    costTarget(
      {
        id: `${id}a`,
        title: `${label}: authenticate vs one hand-written query (${n.toLocaleString('en')} tokens)`,
        threshold: authThreshold,
      },
      auth,
    ),
    costTarget(
      {
        id: `${id}b`,
        title: `${label}: a user's list vs one hand-written query (${n.toLocaleString('en')} tokens)`,
        threshold: 1.5,
      },
      list,
    ),
  ]
}

/**
 * Records the SQL patkit issues for authenticate and a user's list, through a logging Kysely instance
 * (kept apart from the measured one, whose queries are not logged).
 * @param {(log: (event: import('kysely').LogEvent) => void) => import('kysely').Kysely<any>} open
 * @param {number} n
 * @returns {Promise<{ authenticate: import('kysely').CompiledQuery[], list: import('kysely').CompiledQuery[] }>}
 */
export async function capturePatkitSql(open, n) {
  /** @type {import('kysely').CompiledQuery[]} */ let captured = []
  const db = open((event) => {
    if (event.level === 'query') captured.push(event.query)
  })
  const authority = sqlAuthority(db)
  const stride = Math.max(1, Math.floor(n / USER_TOKENS))
  const aliceIndex = presentedIndexes(n).find((i) => i % stride === 0 && i % 20 !== 7 && i % 20 !== 11) ?? 0
  const alice = (await authority.authenticate(secretOf(aliceIndex)))._unsafeUnwrap()
  captured = []
  await authority.authenticate(secretOf(aliceIndex))
  const authenticate = captured
  captured = []
  await authority.list(alice)
  const list = captured
  await db.destroy()
  return { authenticate, list }
}
