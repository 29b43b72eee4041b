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

/** How each kind is read: its table's rows decoded with their members. */
type Decoder<T> = (row: ResourceRow, members: readonly MemberRow[]) => T

/** The decoder of each kind. */
export const GROUPS: { readonly type: 'group'; readonly decode: Decoder<Group> } = {
  type: 'group',
  decode: decodeGroup,
}
export const PROJECTS: { readonly type: 'project'; readonly decode: Decoder<Project> } = {
  type: 'project',
  decode: decodeProject,
}

/**
 * A group or project by id (a number or a string of digits) or by full path in any case (folded in
 * JavaScript into `full_path_lower`, as usernames are), with its members; null when there is none.
 */
export async function selectResource<T>(
  { db }: SqlContext,
  { type, decode }: { readonly type: ResourceType; readonly decode: Decoder<T> },
  ref: number | string,
): Promise<T | null> {
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
  return decode(row, members)
}

/** Every group or project in id order, with its members: two statements whatever their number. */
export async function selectResources<T>(
  { db }: SqlContext,
  { type, decode }: { readonly type: ResourceType; readonly decode: Decoder<T> },
): Promise<readonly T[]> {
  const rows: ResourceRow[] = await db.selectFrom(tableOf(type)).selectAll().orderBy('id').execute()
  const members = await selectMembers(db, type)
  const byResource = new Map<string, MemberRow[]>()
  for (const member of members) {
    const key = String(member.source_id)
    const list = byResource.get(key)
    if (list === undefined) byResource.set(key, [member])
    else list.push(member)
  }
  return Object.freeze(rows.map((row) => decode(row, byResource.get(String(row.id)) ?? [])))
}
