/**
 * Target 2p: patkit's authenticate against better-auth's api-key plugin (`verifyApiKey`), both on the
 * same PostgreSQL database (PATKIT_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/test),
 * each with N keys (1,000,000; `--quick`: the quick N). Both live in one schema of their own
 * (`patkit_peer_pg`, dropped afterwards), so parallel runs of the other suites never meet them:
 * - patkit: the SQL store's tables from patkit's `migrate`, filled as target 5 fills them;
 * - better-auth: its own migrations (`getMigrations`), one key created through its API, then N rows
 *   copying that row with generated keys hashed in SQL as better-auth hashes them (SHA-256, unpadded
 *   base64url: `defaultKeyHasher`), its indexes dropped during the fill and rebuilt from their
 *   definitions.
 * Every presented key is used once on each side before measuring, so patkit runs in its steady state
 * (a token used in the last minute is not written again). Each side runs its calls one after the other on a pool (patkit: Kysely over one pg connection;
 * better-auth: the pg Pool it is given), with rate limiting off as patkit has none. Skipped, with the
 * reason, when the server cannot be reached.
 */
import { createHash } from 'node:crypto'
import { apiKey, defaultKeyHasher } from '@better-auth/api-key'
import { betterAuth } from 'better-auth'
import { getMigrations } from 'better-auth/db/migration'
import { Kysely, PostgresDialect } from 'kysely'
import { migrate } from 'patkit/sql'
import pg from 'pg'
import { alternate } from '../lib/compare.mjs'
import { sampleIndexes, secretOf } from '../lib/dataset.mjs'
import { PREFIX, populatePostgres } from '../lib/sql-population.mjs'
import { sqlAuthority } from '../lib/sql-targets.mjs'
import { finish, progress, settings, targetFrom } from '../lib/suite.mjs'

const config = settings()
const URL = process.env['PATKIT_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test'
const SCHEMA = 'patkit_peer_pg'
const THRESHOLD = 3
const title = `PostgreSQL: authenticate vs better-auth 1.7.5 api-key verify, same database (${config.n.toLocaleString('en')} keys each)`

/** A pool whose connections work in the suite's schema. @param {number} max */
const poolOf = (max) =>
  new pg.Pool({
    connectionString: URL,
    max,
    options: `-c search_path=${SCHEMA}`,
    connectionTimeoutMillis: 3000,
  })

const admin = new pg.Pool({ connectionString: URL, max: 1, connectionTimeoutMillis: 3000 })
/** @type {Parameters<typeof finish>[0] | undefined} */
let outcome
try {
  await admin.query('select 1')
} catch (error) {
  await admin.end().catch(() => {})
  finish({
    targets: [],
    skipped: [
      {
        id: '2p',
        title,
        reason: `PostgreSQL unreachable at ${URL}: ${error instanceof Error ? error.message : String(error)}`,
      },
    ],
  })
  await new Promise(() => {})
}

// better-auth's key hash, written in SQL: base64url(SHA-256(key)) without padding.
const SQL_HASH = (/** @type {string} */ key) =>
  `rtrim(translate(encode(sha256(convert_to(${key}, 'UTF8')), 'base64'), '+/', '-_'), '=')`
// secretOf(i) in SQL.
const SQL_SECRET = `'glpat-bench' || lpad(i::text, 22, '0')`

/**
 * better-auth with the api-key plugin on `pool`, its tables migrated, holding `n` keys.
 * @param {pg.Pool} pool @param {number} n
 */
async function betterAuthWith(pool, n) {
  const options = {
    database: pool,
    secret: 'patkit-benchmark-better-auth-secret-0123456789',
    baseURL: 'http://127.0.0.1',
    plugins: [apiKey({ rateLimit: { enabled: false } })],
    logger: { disabled: true },
    telemetry: { enabled: false },
  }
  const { runMigrations } = await getMigrations(/** @type {any} */ (options))
  await runMigrations()
  const auth = betterAuth(/** @type {any} */ (options))
  const context = await auth.$context
  const user = await context.internalAdapter.createUser({
    email: 'alice@example.com',
    name: 'alice',
    emailVerified: true,
  })
  const created = await auth.api.createApiKey({ body: { userId: user.id, name: 'ci' } })
  const sha = createHash('sha256').update(created.key).digest('base64url')
  if ((await defaultKeyHasher(created.key)) !== sha) throw new Error('key hashes differ')
  const check = await pool.query(`select ${SQL_HASH('$1::text')} as hash`, [created.key])
  if (check.rows[0]?.hash !== sha)
    throw new Error(`SQL hash ${check.rows[0]?.hash} is not better-auth's ${sha}`)

  const { rows: columns } = await pool.query(
    `select column_name from information_schema.columns where table_schema = $1 and table_name = 'apikey'
     order by ordinal_position`,
    [SCHEMA],
  )
  /** @type {Record<string, string>} */
  const generated = {
    id: `'key' || i`,
    name: `'key ' || i`,
    key: SQL_HASH(SQL_SECRET),
    start: `left(${SQL_SECRET}, 6)`,
  }
  const names = columns.map((c) => /** @type {string} */ (c.column_name))
  const list = names.map((c) => `"${c}"`).join(', ')
  const values = names.map((c) => generated[c] ?? `t."${c}"`).join(', ')
  const { rows: indexes } = await pool.query(
    `select indexname, indexdef from pg_indexes
     where tablename = 'apikey' and schemaname = $1 and indexname not like '%pkey'`,
    [SCHEMA],
  )
  for (const index of indexes) await pool.query(`drop index "${index.indexname}"`)
  await pool.query(
    `insert into apikey (${list}) select ${values}
     from apikey t cross join generate_series(1, $1::bigint) i where t.id = $2`,
    [n, created.id],
  )
  await pool.query('delete from apikey where id = $1', [created.id])
  for (const index of indexes) await pool.query(index.indexdef)
  await pool.query('analyze apikey')
  return { auth, indexes: indexes.map((i) => i.indexdef) }
}

const patkitPool = poolOf(1)
const betterPool = poolOf(10)
try {
  const started = performance.now()
  await admin.query(`drop schema if exists ${SCHEMA} cascade`)
  await admin.query(`create schema ${SCHEMA}`)
  const db = new Kysely({ dialect: new PostgresDialect({ pool: patkitPool }) })
  const migrated = await migrate(db, { tablePrefix: PREFIX })
  if (migrated.isErr()) throw migrated.error.cause
  const client = await patkitPool.connect()
  try {
    await populatePostgres(client, config.n)
  } finally {
    client.release()
  }
  progress(`peer-postgres: patkit's ${config.n} tokens in ${Math.round(performance.now() - started)} ms`)
  const betterStarted = performance.now()
  const { auth, indexes } = await betterAuthWith(betterPool, config.n)
  progress(
    `peer-postgres: better-auth's ${config.n} keys in ${Math.round(performance.now() - betterStarted)} ms`,
  )

  const authority = sqlAuthority(db)
  // The indexes whose real digests populatePostgres writes (the rest hold placeholders).
  const secrets = sampleIndexes(config.n, 1024).map(secretOf)
  const mask = secrets.length - 1
  let next = 0
  let peerNext = 0
  const verifyOnce = async () => {
    const result = await auth.api.verifyApiKey({ body: { key: secrets[peerNext++ & mask] } })
    if (!result.valid) throw new Error(`better-auth: ${JSON.stringify(result.error)}`)
  }
  const authenticateOnce = async () => {
    const principal = await authority.authenticate(secrets[next++ & mask])
    if (principal.isErr()) throw new Error(`authenticate: ${principal.error.type}`)
  }
  // Every presented key once on each side before measuring: patkit's steady state, where a token used
  // within the last minute is not written again (before it, every first use writes last_used_at).
  for (let k = 0; k < secrets.length; k++) {
    await verifyOnce()
    await authenticateOnce()
  }
  const comparison = await alternate({
    baseline: { name: 'better-auth verifyApiKey', fn: verifyOnce },
    subject: { name: 'patkit authenticate', fn: authenticateOnce },
    rounds: config.rounds,
    timeMs: config.timeMs,
    warmupMs: config.warmupMs,
  })
  await db.destroy().catch(() => {})
  outcome = {
    targets: [
      targetFrom(
        {
          id: '2p',
          title,
          direction: 'min',
          threshold: THRESHOLD,
          note: `calls one after the other on each side; better-auth's apikey indexes: ${indexes.length}; patkit writes last_used_at at most once a minute per token (GitLab's throttle), better-auth updates its key row on every verification`,
        },
        comparison,
      ),
    ],
    details: { peerPostgres: { betterAuthIndexes: indexes } },
  }
} finally {
  await admin.query(`drop schema if exists ${SCHEMA} cascade`).catch(() => {})
  await Promise.all([admin.end(), betterPool.end()].map((p) => p.catch(() => {})))
}
// finish() exits the process: the clean-up above must run first.
finish(outcome)
