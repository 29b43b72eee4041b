import type { Group, Project, ResourceType } from '../domain/resource.js'
import type { SqlContext } from './options.js'
import {
  decodeGroup,
  decodeProject,
  type MemberRow,
  type ResourceRow,
  selectMembers,
  tableOf,
} from './resource-rows.js'

const DIGITS = /^\d+$/

type Found<T extends ResourceType> = T extends 'group' ? Group : Project

function decode<T extends ResourceType>(type: T, row: ResourceRow, members: readonly MemberRow[]): Found<T> {
  return (type === 'group' ? decodeGroup(row, members) : decodeProject(row, members)) as Found<T>
}

/**
 * A group or project by id (a number or a string of digits) or by full path in any case (folded in
 * JavaScript into `full_path_lower`, as usernames are), with its members; null when there is none.
 */
export async function selectResource<T extends ResourceType>(
  { db }: SqlContext,
  type: T,
  ref: number | string,
): Promise<Found<T> | null> {
  const id = typeof ref === 'number' ? ref : DIGITS.test(ref) ? Number(ref) : null
  if (id !== null && !Number.isSafeInteger(id)) return null
  const table = tableOf(type)
  const query = db.selectFrom(table).selectAll()
  const row: ResourceRow | undefined = await (id === null
    ? query.where('full_path_lower', '=', ref.toString().toLowerCase())
    : query.where('id', '=', id)
  ).executeTakeFirst()
  if (row === undefined) return null
  const members = await selectMembers(db, type, Number(row.id))
  return decode(type, row, members)
}

/** Every group or project in id order, with its members: two statements whatever their number. */
export async function selectResources<T extends ResourceType>(
  { db }: SqlContext,
  type: T,
): Promise<readonly Found<T>[]> {
  const rows: ResourceRow[] = await db.selectFrom(tableOf(type)).selectAll().orderBy('id').execute()
  const members = await selectMembers(db, type)
  const byResource = new Map<string, MemberRow[]>()
  for (const member of members) {
    const key = String(member.source_id)
    const list = byResource.get(key)
    if (list === undefined) byResource.set(key, [member])
    else list.push(member)
  }
  return Object.freeze(rows.map((row) => decode(type, row, byResource.get(String(row.id)) ?? [])))
}
