/**
 * Target 22 on PostgreSQL at PATKIT_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/test):
 * one project's resource access tokens (first page of 20 by id, with the total) through the SQL
 * store's `list({ filter: { resource } })`, against hand-written SQL doing the same (a count and a
 * page joining members and users), on one connection. 100,000 tokens (20,000 with --quick) over
 * 2,000 users, of which 200 are bots: 20 projects, each with 10 bot members and 90 human members.
 * Tables `bench22_*`, created by patkit's migrate and dropped afterwards; skipped, with the reason,
 * when the server cannot be reached.
 */
import { CompiledQuery, Kysely, PostgresDialect } from 'kysely'
import { migrate, sqlStore } from 'patkit/sql'
import pg from 'pg'
import { alternateMany } from '../lib/compare.mjs'
import { NOW } from '../lib/dataset.mjs'
import { costTarget } from '../lib/sql-targets.mjs'
import { finish, progress, settings } from '../lib/suite.mjs'

const config = settings()
const URL = process.env['PATKIT_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test'
const PREFIX = 'bench22_'
const TABLES = [
  'tokens',
  'users',
  'settings',
  'rotation_receipts',
  'cache_changes',
  'groups',
  'projects',
  'members',
  'hooks',
  'hook_logs',
  'token_notices',
  'audit_events',
  'migrations',
  'migrations_lock',
].map((t) => PREFIX + t)
const N = config.quick ? 20_000 : 100_000
const USERS = 2_000
const BOTS = 200
const PROJECTS = 20
const TITLE = `PostgreSQL: one project's token list (page of 20 and total) vs hand-written SQL (${N.toLocaleString('en')} tokens, ${PROJECTS} projects)`

const pool = new pg.Pool({ connectionString: URL, max: 1, connectionTimeoutMillis: 3000 })
try {
  await pool.query('select 1')
} catch (error) {
  await pool.end().catch(() => {})
  finish({
    targets: [],
    skipped: [
      {
        id: '22',
        title: TITLE,
        reason: `PostgreSQL unreachable at ${URL}: ${error instanceof Error ? error.message : String(error)}`,
      },
    ],
  })
  await new Promise(() => {})
}

const drop = async () => {
  for (const table of TABLES) await pool.query(`drop table if exists ${table}`)
}

/** Users 1..1800 humans, 1801..2000 bots; bots and humans spread over the projects; tokens over users. */
async function populate() {
  const firstBot = USERS - BOTS + 1
  await pool.query(
    `insert into ${PREFIX}users (id, username, username_lower, admin, blocked, bot, bot_namespace_type, bot_namespace_id)
     select u, 'user' || u, 'user' || u, false, false, u >= $1,
       case when u >= $1 then 'project' end, case when u >= $1 then 1 + (u - $1) % $2 end
     from generate_series(1, $3::bigint) u`,
    [firstBot, PROJECTS, USERS],
  )
  await pool.query(
    `insert into ${PREFIX}projects (id, path, full_path, full_path_lower, name, group_id, visibility)
     select p, 'project' || p, 'acme/project' || p, 'acme/project' || p, 'Project ' || p, null, 'private'
     from generate_series(1, $1::bigint) p`,
    [PROJECTS],
  )
  await pool.query(
    `insert into ${PREFIX}members (source_type, source_id, user_id, access_level)
     select 'project', case when u >= $1 then 1 + (u - $1) % $2 else 1 + u % $2 end, u, 40
     from generate_series(1, $3::bigint) u`,
    [firstBot, PROJECTS, USERS],
  )
  await pool.query(
    `insert into ${PREFIX}tokens (id, user_id, name, description, scopes, created_at, last_used_at, expires_at,
       revoked, impersonation, previous_id, family_id, digest)
     select i, 1 + i % $2, 'token ' || i, null, '["api"]',
       timestamptz '2025-01-01 00:00:00+00' + i * interval '1 second', null, null,
       i % 7 = 0, false, null, i, 'd' || lpad(i::text, 42, '0')
     from generate_series(1, $1::bigint) i`,
    [N, USERS],
  )
  await pool.query(`select setval(pg_get_serial_sequence('${PREFIX}tokens', 'id'), $1::bigint)`, [N])
  for (const table of ['tokens', 'users', 'members', 'projects'])
    await pool.query(`analyze ${PREFIX}${table}`)
}

const BOT_TOKENS = `from ${PREFIX}tokens t
  join ${PREFIX}members m on m.user_id = t.user_id and m.source_type = 'project' and m.source_id = $1
  join ${PREFIX}users u on u.id = m.user_id and u.bot`
const COUNT = `select count(*) as total ${BOT_TOKENS}`
const PAGE = `select t.id, t.user_id, t.name, t.description, t.scopes, t.created_at, t.last_used_at,
  t.last_used_ips, t.expires_at, t.revoked, t.impersonation, t.previous_id, t.family_id, t.digest
  ${BOT_TOKENS} order by t.id limit 20 offset 0`

/** @type {Parameters<typeof finish>[0] | undefined} */
let outcome
try {
  const started = performance.now()
  await drop()
  const db = new Kysely({ dialect: new PostgresDialect({ pool }) })
  const migrated = await migrate(db, { tablePrefix: PREFIX })
  if (migrated.isErr()) throw migrated.error.cause
  await populate()
  progress(`resources: ${N} tokens in ${Math.round(performance.now() - started)} ms`)
  const store = sqlStore(db, { tablePrefix: PREFIX })
  let project = 0
  const nextProject = () => 1 + (project++ % PROJECTS)
  const expected = Math.round(N / USERS) * (BOTS / PROJECTS)
  const check = (/** @type {number} */ total, /** @type {number} */ rows) => {
    if (rows !== 20 || Math.abs(total - expected) > BOTS / PROJECTS) {
      throw new Error(`unexpected page: ${rows} rows of ${total}`)
    }
  }
  const handWritten = async () => {
    const id = nextProject()
    const counted = await pool.query(COUNT, [id])
    const page = await pool.query(PAGE, [id])
    check(Number(counted.rows[0].total), page.rows.length)
  }
  const viaDriver = async () => {
    const id = nextProject()
    const counted = await db.executeQuery(CompiledQuery.raw(COUNT, [id]))
    const page = await db.executeQuery(CompiledQuery.raw(PAGE, [id]))
    check(Number(/** @type {{ total: unknown }} */ (counted.rows[0]).total), page.rows.length)
  }
  const viaPatkit = async () => {
    const listed = await store.list({
      filter: { resource: { type: 'project', id: nextProject() } },
      sort: 'id_asc',
      page: { page: 1, perPage: 20 },
      now: NOW,
    })
    if (listed.isErr()) throw listed.error.cause ?? new Error(listed.error.type)
    check(listed.value.total, listed.value.items.length)
  }
  const comparison = await alternateMany({
    contenders: [
      { name: 'hand-written count + page (pg)', fn: handWritten },
      { name: 'the same through Kysely\u2019s driver', fn: viaDriver },
      { name: 'patkit list({ filter: { resource } })', fn: viaPatkit },
    ],
    rounds: config.rounds,
    timeMs: config.timeMs,
    warmupMs: config.warmupMs,
  })
  const target = costTarget({ id: '22', title: TITLE, threshold: 1.5 }, comparison)
  // EXPLAIN of patkit's statements for one project, on the populated tables.
  /** @type {{ sql: string, parameters: readonly unknown[] }[]} */
  const issued = []
  const logged = new Kysely({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === 'query') issued.push({ sql: event.query.sql, parameters: event.query.parameters })
    },
  })
  await sqlStore(logged, { tablePrefix: PREFIX }).list({
    filter: { resource: { type: 'project', id: 3 } },
    sort: 'id_asc',
    page: { page: 1, perPage: 20 },
    now: NOW,
  })
  const explain = []
  for (const query of issued) {
    const { rows } = await pool.query(`explain (analyze, costs off, timing off, summary off) ${query.sql}`, [
      ...query.parameters,
    ])
    explain.push(`${query.sql}\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`)
  }
  outcome = { targets: [target], details: { explain: { 'resource list': explain } } }
} finally {
  await drop().catch(() => {})
}
finish(outcome ?? { targets: [], failed: [{ suite: 'resources', reason: 'no outcome' }] })
