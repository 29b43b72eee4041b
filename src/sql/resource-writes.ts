import type { Kysely } from 'kysely'
import type { Group, Member, Project, ResourceRef, ResourceType } from '../domain/resource.js'
import type { SqlDialect } from './dialect/sql-dialect.js'
import type { SqlContext } from './options.js'
import { distinctMembers, storedResource, tableOf } from './resource-rows.js'
import type { PatkitDatabase } from './schema.js'
import { retrying } from './store-failure.js'
import { writeTransaction } from './transaction.js'

function columnsOf(dialect: SqlDialect, resource: Group | Project) {
  const common = {
    path: resource.path,
    full_path: resource.fullPath,
    full_path_lower: resource.fullPath.toLowerCase(),
    name: resource.name,
    visibility: resource.visibility,
    extended_expiry_webhooks: dialect.bool(resource.extendedExpiryWebhooks === true),
  }
  return 'parentId' in resource
    ? { ...common, parent_id: resource.parentId }
    : { ...common, group_id: resource.groupId }
}

/** Whether the resource exists, its row locked for the rest of the transaction where the dialect can. */
async function lockResource(
  { dialect }: SqlContext,
  trx: Kysely<PatkitDatabase>,
  ref: ResourceRef,
): Promise<boolean> {
  let query = trx.selectFrom(tableOf(ref.type)).select('id').where('id', '=', ref.id)
  if (dialect.supportsForUpdate) query = query.forUpdate()
  return (await query.executeTakeFirst()) !== undefined
}

/**
 * Adds the group or project with this id, or replaces it and all its members, in one transaction.
 * Another resource of the kind with the full path (in any case) violates the unique index on
 * `full_path_lower`, and the write fails. As `upsertUser`, no upsert statement: MySQL's would fire on
 * the path's unique key too, and overwrite the other resource.
 */
export async function putResource<T extends Group | Project>(
  context: SqlContext,
  type: ResourceType,
  resource: T,
): Promise<T> {
  const table = tableOf(type)
  const values = columnsOf(context.dialect, resource)
  const members = distinctMembers(resource.members)
  const put = () =>
    writeTransaction(context, async (trx) => {
      if (await lockResource(context, trx, { type, id: resource.id })) {
        await trx.updateTable(table).set(values).where('id', '=', resource.id).execute()
        await trx
          .deleteFrom('members')
          .where('members.source_type', '=', type)
          .where('members.source_id', '=', resource.id)
          .execute()
      } else {
        await trx
          .insertInto(table)
          .values({ id: resource.id, ...values })
          .execute()
      }
      if (members.length > 0) {
        await trx
          .insertInto('members')
          .values(
            members.map((member) => ({
              source_type: type,
              source_id: resource.id,
              user_id: member.userId,
              access_level: member.accessLevel,
            })),
          )
          .execute()
      }
    })
  // Two callers adding the same new resource at once both find no row; the second insert violates
  // the primary key, and once more it finds the row and replaces it. A full path another resource
  // holds violates its unique index on every attempt, and fails.
  await retrying(put, context.dialect.isUniqueViolation, 2)
  return storedResource(resource, members)
}

/**
 * Adds one member or changes its level with one upsert on the members key, leaving the others as
 * they are; the resource's row is locked first (a concurrent `put` replacing the members waits, or is
 * waited for), and a missing resource fails.
 */
export async function upsertMember(context: SqlContext, ref: ResourceRef, member: Member): Promise<void> {
  const { dialect } = context
  await writeTransaction(context, async (trx) => {
    if (!(await lockResource(context, trx, ref))) throw new Error(`${ref.type} ${ref.id} does not exist`)
    const insert = trx.insertInto('members').values({
      source_type: ref.type,
      source_id: ref.id,
      user_id: member.userId,
      access_level: member.accessLevel,
    })
    // MySQL's ON DUPLICATE KEY fires on any unique key; the members table has only this one.
    await (dialect.name === 'mysql'
      ? insert.onDuplicateKeyUpdate({ access_level: member.accessLevel })
      : insert.onConflict((oc) =>
          oc
            .columns(['source_type', 'source_id', 'user_id'])
            .doUpdateSet({ access_level: member.accessLevel }),
        )
    ).execute()
  })
}

/**
 * Removes one member with one delete on the members key, leaving the others as they are. The
 * resource's row is locked first, as `upsertMember` does, so the two queue in one order and never
 * deadlock on the members index.
 */
export async function deleteMember(context: SqlContext, ref: ResourceRef, userId: number): Promise<void> {
  await writeTransaction(context, async (trx) => {
    if (!(await lockResource(context, trx, ref))) return
    await trx
      .deleteFrom('members')
      .where('members.source_type', '=', ref.type)
      .where('members.source_id', '=', ref.id)
      .where('members.user_id', '=', userId)
      .execute()
  })
}
