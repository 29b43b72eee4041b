import {
  DefaultQueryCompiler,
  type Dialect,
  DummyDriver,
  Kysely,
  MysqlAdapter,
  MysqlQueryCompiler,
  PostgresAdapter,
  PostgresQueryCompiler,
  type QueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
} from 'kysely'
import { describe, expect, it } from 'vitest'
import { DEFAULT_TABLE_PREFIX, migrate, type SqlDialectName, sqlStore } from '../../src/sql/index.js'
import { droppedMeanwhile } from '../../src/sql/migrate.js'
import { indexes } from '../../src/sql/migrations/0001-tokens-and-users.js'
import { receiptIndexes } from '../../src/sql/migrations/0003-rotation-receipts.js'
import { resourceIndexes } from '../../src/sql/migrations/0007-resources.js'
import { hookIndexes } from '../../src/sql/migrations/0008-hooks-and-audit.js'
import { resolveOptions } from '../../src/sql/options.js'
import { errValue, okValue } from '../../src/testing/conformance/results.js'
import {
  type DatabaseTarget,
  dropTables,
  mariadb,
  pglite,
  postgres,
  sqliteMemory,
  uniquePrefix,
} from './support/databases.js'
import { describeDatabase } from './support/describe-database.js'

const VERSIONS = [
  '0001_tokens_and_users',
  '0002_settings',
  '0003_rotation_receipts',
  '0004_cache_changes',
  '0005_last_used_ips',
  '0006_user_id_type',
  '0007_resources',
  '0008_hooks_and_audit',
  '0009_granular_scopes',
]
const VERSION = '0009_granular_scopes'
const HOOK_TABLES = ['hooks', 'hook_logs', 'token_notices', 'audit_events']

/**
 * Every table of the schema. Kysely lists all of them, also other test files' tables, and one dropped
 * during the listing fails it with PostgreSQL's undefined_table or undefined_column (the store's own
 * rule, `droppedMeanwhile`): listed again then.
 */
async function tablesOf(db: Kysely<unknown>) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.introspection.getTables()
    } catch (error) {
      if (attempt >= 5 || !droppedMeanwhile(error)) throw error
    }
  }
}

/** A Kysely instance that compiles with `compiler` and never connects. */
function offline(compiler: () => QueryCompiler, adapter = new SqliteAdapter()): Kysely<unknown> {
  const dialect: Dialect = {
    createAdapter: () => adapter,
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: compiler,
  }
  return new Kysely({ dialect })
}

class ColonCompiler extends DefaultQueryCompiler {
  protected override getCurrentParameterPlaceholder(): string {
    return ':p'
  }
}

describe("a listing of the schema that meets another file's table dropped meanwhile", () => {
  // Seen in CI: `column "created_at" of relation "t28072_cache_pg_audit_events" does not exist`
  // (42703) from Kysely's introspection while another test file dropped its tables.
  it('is tried again on undefined_table and undefined_column, on nothing else', () => {
    expect(droppedMeanwhile({ code: '42P01' })).toBe(true)
    expect(droppedMeanwhile({ code: '42703' })).toBe(true)
    for (const other of [{ code: '23505' }, { code: '40001' }, new Error('42703'), null, '42P01'])
      expect(droppedMeanwhile(other)).toBe(false)
  })
})

describe('dialect detection (compiling only, no database)', () => {
  const cases: [SqlDialectName, Kysely<unknown>][] = [
    ['postgres', offline(() => new PostgresQueryCompiler(), new PostgresAdapter())],
    ['mysql', offline(() => new MysqlQueryCompiler(), new MysqlAdapter())],
    ['sqlite', offline(() => new SqliteQueryCompiler())],
  ]
  it.each(cases)('recognizes %s from its query compiler', (name, db) => {
    expect(resolveOptions(db, {}).dialect.name).toBe(name)
  })

  it('an explicit dialect wins over detection', () => {
    expect(
      resolveOptions(
        offline(() => new SqliteQueryCompiler()),
        { dialect: 'mysql' },
      ).dialect.name,
    ).toBe('mysql')
  })

  it('an unrecognized compiler needs an explicit dialect, and says so', () => {
    const db = offline(() => new ColonCompiler())
    expect(() => sqlStore(db)).toThrow(/pass \{ dialect: 'postgres' \| 'mysql' \| 'sqlite' \}/)
    expect(() => migrate(db)).toThrow(TypeError)
    expect(resolveOptions(db, { dialect: 'postgres' }).dialect.name).toBe('postgres')
  })

  it.each(['Patkit_', 'patkit-', '1x_', 'x'.repeat(33), 'a b'])('rejects the table prefix %j', (prefix) => {
    expect(() =>
      sqlStore(
        offline(() => new SqliteQueryCompiler()),
        { tablePrefix: prefix },
      ),
    ).toThrow(TypeError)
  })

  it('the default prefix is patkit_, and an empty one is allowed', () => {
    expect(DEFAULT_TABLE_PREFIX).toBe('patkit_')
    expect(
      resolveOptions(
        offline(() => new SqliteQueryCompiler()),
        {},
      ).prefix,
    ).toBe('patkit_')
    expect(
      resolveOptions(
        offline(() => new SqliteQueryCompiler()),
        { tablePrefix: '' },
      ).prefix,
    ).toBe('')
  })

  it('queries name the prefixed tables, and leave other tables alone', () => {
    const { db } = resolveOptions(
      offline(() => new PostgresQueryCompiler(), new PostgresAdapter()),
      {
        tablePrefix: 'auth_',
      },
    )
    const compiled = db
      .selectFrom('tokens')
      .innerJoin('users', 'users.id', 'tokens.user_id')
      .select(['tokens.id', sql<number>`(select 1 from other_tokens)`.as('x')])
      .compile().sql
    expect(compiled).toBe(
      'select "auth_tokens"."id", (select 1 from other_tokens) as "x" from "auth_tokens" inner join "auth_users" on "auth_users"."id" = "auth_tokens"."user_id"',
    )
  })
})

// Indexes as the catalog of each database lists them.
async function indexNames(db: Kysely<unknown>, dialect: SqlDialectName, prefix: string): Promise<string[]> {
  const query =
    dialect === 'postgres'
      ? sql<{ name: string }>`select indexname as name from pg_indexes where tablename like ${`${prefix}%`}`
      : dialect === 'mysql'
        ? sql<{ name: string }>`select distinct index_name as name from information_schema.statistics
            where table_schema = database() and table_name like ${`${prefix}%`}`
        : sql<{
            name: string
          }>`select name from sqlite_master where type = 'index' and tbl_name like ${`${prefix}%`}`
  const { rows } = await query.execute(db)
  return rows.map((r) => r.name)
}

function describeMigrations(target: DatabaseTarget, dialect: SqlDialectName, tag: string): Promise<void> {
  const prefix = uniquePrefix(tag)
  return describeDatabase(target, prefix, (db) => {
    it('migrate applies every version once; running it again is a no-op', async () => {
      expect(await okValue(migrate(db, { tablePrefix: prefix }))).toEqual({
        applied: VERSIONS,
        version: VERSION,
      })
      expect(await okValue(migrate(db, { tablePrefix: prefix }))).toEqual({ applied: [], version: VERSION })
      const tables = (await tablesOf(db)).map((t) => t.name)
      expect(tables).toEqual(
        expect.arrayContaining([
          `${prefix}tokens`,
          `${prefix}users`,
          `${prefix}settings`,
          `${prefix}rotation_receipts`,
          `${prefix}cache_changes`,
          `${prefix}groups`,
          `${prefix}projects`,
          `${prefix}members`,
          ...HOOK_TABLES.map((table) => `${prefix}${table}`),
          `${prefix}migrations`,
        ]),
      )
    })

    it('creates every index of the schema', async () => {
      const names = await indexNames(db, dialect, prefix)
      expect(names).toEqual(
        expect.arrayContaining(
          [
            ...indexes(prefix),
            ...receiptIndexes(prefix),
            ...resourceIndexes(prefix),
            ...hookIndexes(prefix),
          ].map((index) => index.name),
        ),
      )
    })

    it('concurrent migrate calls on a fresh prefix all succeed and apply each version once', async () => {
      const fresh = `${prefix}c_`
      try {
        const reports = await Promise.all([1, 2, 3].map(() => okValue(migrate(db, { tablePrefix: fresh }))))
        expect(reports.flatMap((r) => r.applied)).toEqual(VERSIONS)
      } finally {
        await dropTables(db, fresh)
      }
    })

    it('a migration that stopped half-way runs again to completion', async () => {
      const partial = `${prefix}p_`
      try {
        await okValue(migrate(db, { tablePrefix: partial }))
        // As if the run had died after the tables and one index: drop the rest, forget the version.
        const [, ...rest] = indexes(partial)
        for (const index of rest) {
          await (dialect === 'mysql'
            ? sql`drop index ${sql.id(index.name)} on ${sql.table(partial + index.table)}`
            : sql`drop index ${sql.id(index.name)}`
          ).execute(db)
        }
        await sql`delete from ${sql.table(`${partial}migrations`)}`.execute(db)
        expect(await okValue(migrate(db, { tablePrefix: partial }))).toEqual({
          applied: VERSIONS,
          version: VERSION,
        })
        expect(await indexNames(db, dialect, partial)).toEqual(
          expect.arrayContaining(indexes(partial).map((index) => index.name)),
        )
      } finally {
        await dropTables(db, partial)
      }
    })

    it('0005 adds last_used_ips to a store created before it, keeping its tokens', async () => {
      const older = `${prefix}o_`
      try {
        await okValue(migrate(db, { tablePrefix: older }))
        const store = sqlStore(db, { tablePrefix: older })
        await okValue(store.putUser({ id: 1, username: 'root', admin: true, blocked: false }))
        const token = await okValue(
          store.insert({
            userId: 1,
            name: 'before 0005',
            description: null,
            scopes: ['api'],
            createdAt: new Date('2026-01-01T00:00:00.000Z'),
            lastUsedAt: null,
            expiresAt: null,
            revoked: false,
            impersonation: false,
            previousId: null,
            familyId: null,
            digest: 'digest-before-0005',
          }),
        )
        // As if the schema were still at 0004: no column, no 0005 record, and so no 0006 record (later).
        await sql`alter table ${sql.table(`${older}tokens`)} drop column last_used_ips`.execute(db)
        await sql`delete from ${sql.table(`${older}migrations`)} where name in ('0005_last_used_ips', '0006_user_id_type', '0007_resources', '0008_hooks_and_audit', '0009_granular_scopes')`.execute(
          db,
        )
        expect(await okValue(migrate(db, { tablePrefix: older }))).toEqual({
          applied: [
            '0005_last_used_ips',
            '0006_user_id_type',
            '0007_resources',
            '0008_hooks_and_audit',
            '0009_granular_scopes',
          ],
          version: VERSION,
        })
        expect(await okValue(store.findById(token.id))).toEqual(token)
        expect(
          await okValue(store.touchLastUsed(token.id, new Date('2026-01-02T00:00:00.000Z'), 0, '::1')),
        ).toBe(true)
        expect((await okValue(store.findById(token.id)))?.lastUsedIps).toEqual(['::1'])
      } finally {
        await dropTables(db, older)
      }
    })

    it('0007 adds resources and the user fields to a store created before it, keeping its users', async () => {
      const older = `${prefix}r_`
      try {
        await okValue(migrate(db, { tablePrefix: older }))
        const root = { id: 1, username: 'root', admin: true, blocked: false }
        await okValue(sqlStore(db, { tablePrefix: older }).putUser(root))
        // As if the schema were still at 0006: no resource tables, no user fields, no 0007 record (and
        // so none of 0008's tables, nor its record).
        for (const table of ['members', 'groups', 'projects', ...HOOK_TABLES]) {
          await sql`drop table ${sql.table(older + table)}`.execute(db)
        }
        for (const column of [
          'name',
          'bot',
          'bot_namespace_type',
          'bot_namespace_id',
          'service_account',
          'provisioned_by_group_id',
        ]) {
          await sql`alter table ${sql.table(`${older}users`)} drop column ${sql.id(column)}`.execute(db)
        }
        await sql`delete from ${sql.table(`${older}migrations`)} where name in ('0007_resources', '0008_hooks_and_audit', '0009_granular_scopes')`.execute(
          db,
        )
        expect(await okValue(migrate(db, { tablePrefix: older }))).toEqual({
          applied: ['0007_resources', '0008_hooks_and_audit', '0009_granular_scopes'],
          version: VERSION,
        })
        const store = sqlStore(db, { tablePrefix: older })
        expect(await okValue(store.findUser(1))).toEqual(root)
        const created = await okValue(
          store.resources?.createUser({ username: 'bot', admin: false, blocked: false, bot: true }) ??
            Promise.reject(new Error('no resources')),
        )
        expect(created).toEqual({ id: 2, username: 'bot', admin: false, blocked: false, bot: true })
      } finally {
        await dropTables(db, older)
      }
    })

    it('0008 adds the hook and audit tables and extended_expiry_webhooks to a store created before it, keeping its resources', async () => {
      const older = `${prefix}h_`
      try {
        await okValue(migrate(db, { tablePrefix: older }))
        const before = sqlStore(db, { tablePrefix: older }).resources
        if (before === undefined) throw new Error('no resources')
        const project = {
          id: 7,
          path: 'api',
          fullPath: 'acme/api',
          name: 'API',
          groupId: 1,
          visibility: 'private' as const,
          members: [],
        }
        const group = {
          id: 1,
          path: 'acme',
          fullPath: 'acme',
          name: 'Acme',
          parentId: null,
          visibility: 'public' as const,
          members: [],
        }
        await okValue(before.putProject(project))
        await okValue(before.putGroup(group))
        // As if the schema were still at 0007: no hook or audit tables, no flag columns, no 0008 record.
        for (const table of HOOK_TABLES) await sql`drop table ${sql.table(older + table)}`.execute(db)
        for (const table of ['groups', 'projects']) {
          await sql`alter table ${sql.table(older + table)} drop column extended_expiry_webhooks`.execute(db)
        }
        await sql`delete from ${sql.table(`${older}migrations`)} where name in ('0008_hooks_and_audit', '0009_granular_scopes')`.execute(
          db,
        )
        expect(await okValue(migrate(db, { tablePrefix: older }))).toEqual({
          applied: ['0008_hooks_and_audit', '0009_granular_scopes'],
          version: VERSION,
        })
        const resources = sqlStore(db, { tablePrefix: older }).resources
        if (resources === undefined) throw new Error('no resources')
        expect(await okValue(resources.findProject(7))).toEqual(project)
        expect(await okValue(resources.findGroup(1))).toEqual(group)
        expect(await okValue(resources.putProject({ ...project, extendedExpiryWebhooks: true }))).toEqual({
          ...project,
          extendedExpiryWebhooks: true,
        })
        expect(await okValue(resources.findProject(7))).toEqual({ ...project, extendedExpiryWebhooks: true })
        expect(await okValue(resources.hooks.claimNotice(1, 7, new Date('2026-01-01T00:00:00.000Z')))).toBe(
          true,
        )
        expect(await okValue(resources.hooks.claimNotice(1, 7, new Date('2026-01-02T00:00:00.000Z')))).toBe(
          false,
        )
      } finally {
        await dropTables(db, older)
      }
    })

    it('0009 adds granular_scopes to a store created before it; its tokens read back as legacy', async () => {
      const older = `${prefix}g_`
      try {
        await okValue(migrate(db, { tablePrefix: older }))
        const store = sqlStore(db, { tablePrefix: older })
        await okValue(store.putUser({ id: 1, username: 'root', admin: true, blocked: false }))
        // As if the schema were still at 0008: no column, no 0009 record.
        await sql`alter table ${sql.table(`${older}tokens`)} drop column granular_scopes`.execute(db)
        await sql`delete from ${sql.table(`${older}migrations`)} where name = '0009_granular_scopes'`.execute(
          db,
        )
        expect(await okValue(migrate(db, { tablePrefix: older }))).toEqual({
          applied: ['0009_granular_scopes'],
          version: VERSION,
        })
        const fresh = sqlStore(db, { tablePrefix: older })
        const draft = {
          userId: 1,
          name: 'fine',
          description: null,
          scopes: [],
          createdAt: new Date('2026-06-15T12:00:00.000Z'),
          lastUsedAt: null,
          expiresAt: null,
          revoked: false,
          impersonation: false,
          previousId: null,
          familyId: null,
          digest: 'digest-after-0009',
        }
        const legacy = await okValue(fresh.insert({ ...draft, name: 'legacy', digest: 'legacy-0009' }))
        expect(await okValue(fresh.findById(legacy.id))).not.toHaveProperty('granularScopes')
        const scopes = [
          { access: 'user' as const, permissions: ['read_user'], projectId: null, groupId: null },
        ]
        const fine = await okValue(fresh.insert({ ...draft, granularScopes: scopes }))
        expect((await okValue(fresh.findById(fine.id)))?.granularScopes).toEqual(scopes)
      } finally {
        await dropTables(db, older)
      }
    })

    it('userIdType string creates text user id columns and records the kind; the other kind is refused later', async () => {
      const strings = `${prefix}u_`
      try {
        expect(await okValue(migrate(db, { tablePrefix: strings, userIdType: 'string' }))).toEqual({
          applied: VERSIONS,
          version: VERSION,
        })
        const tables = await tablesOf(db)
        const columnType = (table: string, column: string) =>
          tables.find((t) => t.name === strings + table)?.columns.find((c) => c.name === column)?.dataType
        expect(columnType('users', 'id')).toMatch(/char/i)
        expect(columnType('tokens', 'user_id')).toMatch(/char/i)
        expect(await okValue(migrate(db, { tablePrefix: strings, userIdType: 'string' }))).toEqual({
          applied: [],
          version: VERSION,
        })
        const refused = await errValue(migrate(db, { tablePrefix: strings }))
        expect(String(refused.cause)).toContain(
          `the ${strings} tables hold string user ids, but userIdType is integer`,
        )
      } finally {
        await dropTables(db, strings)
      }
    })

    it('tables created with integer ids before version 0006 are refused string ids, with the reason', async () => {
      const older = `${prefix}v_`
      try {
        await okValue(migrate(db, { tablePrefix: older }))
        // As a database migrated before 0006: its version and its record forgotten.
        await sql`delete from ${sql.table(`${older}migrations`)} where name in ('0006_user_id_type', '0007_resources', '0008_hooks_and_audit', '0009_granular_scopes')`.execute(
          db,
        )
        await sql`delete from ${sql.table(`${older}settings`)} where name = 'user_id_type'`.execute(db)
        const refused = await errValue(migrate(db, { tablePrefix: older, userIdType: 'string' }))
        expect(String(refused.cause)).toContain(
          `the ${older}users table holds integer user ids, but userIdType is string`,
        )
        // The default kind still migrates it.
        expect(await okValue(migrate(db, { tablePrefix: older }))).toEqual({
          applied: ['0006_user_id_type', '0007_resources', '0008_hooks_and_audit', '0009_granular_scopes'],
          version: VERSION,
        })
      } finally {
        await dropTables(db, older)
      }
    })

    it('the store finds its dialect on this database', () => {
      expect(resolveOptions(db, { tablePrefix: prefix }).dialect.name).toBe(dialect)
    })
  })
}

await describeMigrations(sqliteMemory, 'sqlite', 'msqlite')
await describeMigrations(pglite, 'postgres', 'mpglite')
await describeMigrations(postgres, 'postgres', 'mpg')
await describeMigrations(mariadb, 'mysql', 'mmy')

describe('the default prefix', () => {
  it('migrate with no options creates patkit_tokens and patkit_users', async () => {
    const db = sqliteMemory.open()
    try {
      await okValue(migrate(db))
      const tables = (await tablesOf(db)).map((t) => t.name)
      expect(tables).toEqual(expect.arrayContaining(['patkit_tokens', 'patkit_users', 'patkit_migrations']))
    } finally {
      await db.destroy()
    }
  })
})
