import { type Kysely, sql } from 'kysely'
import type { Group, Project } from '../domain/resource.js'
import type { StoreContents } from '../store/token-store.js'
import type { SqlDialect } from './dialect/sql-dialect.js'
import type { SqlContext } from './options.js'
import { distinctMembers } from './resource-rows.js'
import type { PatkitDatabase } from './schema.js'
import { retrying } from './store-failure.js'
import { bumpSequence } from './token-insert.js'
import { encodeToken } from './token-row.js'
import { writeTransaction } from './transaction.js'
import { encodeUser } from './users.js'

// The tables holding the data, children first. The settings (the pepper fingerprint) stay: they
// describe the tables, not the data; the cache change log stays: other instances read it by number.
// Hooks, their logs, the notices given and audit events are data: a reset starts without them.
const DATA_TABLES = [
  'members',
  'rotation_receipts',
  'tokens',
  'projects',
  'groups',
  'users',
  'hook_logs',
  'hooks',
  'token_notices',
  'audit_events',
] as const

// Every data table, taken in one statement before the deletes where the dialect locks tables
// (PostgreSQL): EXCLUSIVE waits for every open writer of them (a rotation, a mint, a `FOR UPDATE`) to
// finish and holds off the next ones until the commit, while plain reads go on. The deletes then see
// every committed row: nothing written before the reset survives it, and nothing written during it
// lands in the old data. Tokens first: the order rotations take them, so fewer deadlocks to retry;
// hooks before their logs: the order appendHookLog and deleteHook take them.
const LOCK_ORDER = [
  'tokens',
  'rotation_receipts',
  'users',
  'groups',
  'projects',
  'members',
  'hooks',
  'hook_logs',
  'token_notices',
  'audit_events',
] as const

async function lockDataTables(trx: Kysely<PatkitDatabase>, prefix: string): Promise<void> {
  const tables = sql.join(LOCK_ORDER.map((table) => sql.table(`${prefix}${table}`)))
  await sql`lock table ${tables} in exclusive mode`.execute(trx)
}

/** Rows per INSERT: far under every dialect's bound on parameters (14 columns x 500). */
const CHUNK = 500

function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = []
  for (let at = 0; at < rows.length; at += CHUNK) out.push(rows.slice(at, at + CHUNK))
  return out
}

function resourceColumns(dialect: SqlDialect, resource: Group | Project) {
  return {
    extended_expiry_webhooks: dialect.bool(resource.extendedExpiryWebhooks === true),
    id: resource.id,
    path: resource.path,
    full_path: resource.fullPath,
    full_path_lower: resource.fullPath.toLowerCase(),
    name: resource.name,
    visibility: resource.visibility,
  }
}

async function insertResources(
  trx: Kysely<PatkitDatabase>,
  dialect: SqlDialect,
  groups: readonly Group[],
  projects: readonly Project[],
): Promise<void> {
  // Parents before children is no concern: the tables have no foreign keys.
  for (const part of chunks(groups)) {
    await trx
      .insertInto('groups')
      .values(part.map((group) => ({ ...resourceColumns(dialect, group), parent_id: group.parentId })))
      .execute()
  }
  for (const part of chunks(projects)) {
    await trx
      .insertInto('projects')
      .values(part.map((project) => ({ ...resourceColumns(dialect, project), group_id: project.groupId })))
      .execute()
  }
  const members = [
    ...groups.flatMap((group) => distinctMembers(group.members).map((m) => ['group', group.id, m] as const)),
    ...projects.flatMap((project) =>
      distinctMembers(project.members).map((m) => ['project', project.id, m] as const),
    ),
  ].map(([type, id, member]) => ({
    source_type: type,
    source_id: id,
    user_id: member.userId,
    access_level: member.accessLevel,
  }))
  for (const part of chunks(members)) await trx.insertInto('members').values(part).execute()
}

/**
 * Deletes every data row under the store's prefix and inserts `contents`, a few multi-row INSERTs,
 * in one transaction: a violated constraint (a digest twice, a taken username) rolls it all back.
 * All or nothing against concurrent writes too: a write that committed before it is deleted with the
 * old data, and a write waiting on it runs on the new data (see `locksTablesToReplace`).
 * DML only: MySQL/MariaDB would commit at any DDL. The id sequence only moves forward
 * (PostgreSQL's is not transactional): ids the store assigns later stay above every id before.
 */
export async function replaceAllRows(context: SqlContext, contents: StoreContents): Promise<void> {
  const { dialect, prefix } = context
  for (const token of contents.tokens) {
    if (!Number.isSafeInteger(token.id) || token.id < 1) {
      throw new RangeError(`token id ${token.id} is not a positive integer`)
    }
  }
  // Two instances replacing at once: the later one's deletes may miss rows the earlier one inserted
  // after its snapshot, and its inserts then meet them on a key. Once more, it deletes them too. A
  // key taken twice within the contents fails every time.
  const replace = () =>
    writeTransaction(context, async (trx) => {
      if (dialect.locksTablesToReplace) await lockDataTables(trx, prefix)
      for (const table of DATA_TABLES) await trx.deleteFrom(table).execute()
      for (const part of chunks(contents.users)) {
        await trx
          .insertInto('users')
          .values(part.map((user) => ({ id: user.id, ...encodeUser(dialect, user) })))
          .execute()
      }
      for (const part of chunks(contents.tokens)) {
        await trx
          .insertInto('tokens')
          .values(part.map((token) => ({ ...encodeToken(dialect, token, token.familyId), id: token.id })))
          .execute()
      }
      await insertResources(trx, dialect, contents.groups, contents.projects)
      const highest = contents.tokens.reduce((max, token) => Math.max(max, token.id), 0)
      if (dialect.needsSequenceBump && highest > 0) await bumpSequence(trx, `${prefix}tokens`, highest)
    })
  await retrying(replace, dialect.isUniqueViolation, 3)
}
