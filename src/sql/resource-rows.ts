import type { Kysely } from 'kysely'
import {
  type AccessLevel,
  type Group,
  isAccessLevel,
  type Member,
  type Project,
  type ResourceType,
  type Visibility,
} from '../domain/resource.js'
import type { PatkitDatabase } from './schema.js'
import { decodeBoolean, decodeInteger } from './token-row.js'

/** The table of a kind of resource. */
export function tableOf(type: ResourceType): 'groups' | 'projects' {
  return type === 'group' ? 'groups' : 'projects'
}

const VISIBILITIES: readonly unknown[] = ['private', 'internal', 'public'] satisfies Visibility[]

function text(value: unknown, column: string): string {
  if (typeof value !== 'string')
    throw new TypeError(`patkit/sql: unexpected ${column} value ${String(value)}`)
  return value
}

function visibility(value: unknown): Visibility {
  if (!VISIBILITIES.includes(value)) throw new TypeError(`patkit/sql: unexpected visibility ${String(value)}`)
  return value as Visibility
}

function level(value: unknown): AccessLevel {
  const number = decodeInteger(value, 'access_level')
  if (!isAccessLevel(number)) throw new TypeError(`patkit/sql: unexpected access_level ${number}`)
  return number
}

function nullableId(value: unknown, column: string): number | null {
  return value === null || value === undefined ? null : decodeInteger(value, column)
}

/** A resource row as selected with `selectAll()` from `groups` or `projects`. */
export interface ResourceRow {
  readonly id: unknown
  readonly path: unknown
  readonly full_path: unknown
  readonly name: unknown
  readonly visibility: unknown
  readonly parent_id?: unknown
  readonly group_id?: unknown
  readonly extended_expiry_webhooks?: unknown
}

/** A member row: the resource it belongs to, the user, the level. */
export interface MemberRow {
  readonly source_id: unknown
  readonly user_id: unknown
  readonly access_level: unknown
}

function decodeMembers(rows: readonly MemberRow[]): readonly Member[] {
  return Object.freeze(
    rows.map((row) =>
      Object.freeze({ userId: decodeInteger(row.user_id, 'user_id'), accessLevel: level(row.access_level) }),
    ),
  )
}

function common(row: ResourceRow, members: readonly MemberRow[]) {
  return {
    id: decodeInteger(row.id, 'id'),
    path: text(row.path, 'path'),
    fullPath: text(row.full_path, 'full_path'),
    name: text(row.name, 'name'),
    visibility: visibility(row.visibility),
    members: decodeMembers(members),
  }
}

// The column is false for a resource stored without the flag: a store returns the flag only when set
// (so a resource put without it reads back equal), as the memory store does.
function extendedFlag(row: ResourceRow): { extendedExpiryWebhooks?: true } {
  const value = row.extended_expiry_webhooks
  return value !== undefined && decodeBoolean(value, 'extended_expiry_webhooks')
    ? { extendedExpiryWebhooks: true }
    : {}
}

/**
 * A group or project as a store returns it: `extendedExpiryWebhooks` only when true (false and absent
 * read back alike), with the given members.
 */
export function storedResource<T extends Group | Project>(resource: T, members: readonly Member[]): T {
  const { extendedExpiryWebhooks, ...rest } = resource
  const stored = {
    ...rest,
    members,
    ...(extendedExpiryWebhooks === true ? { extendedExpiryWebhooks: true } : {}),
  } as T
  return Object.freeze(stored)
}

/** A group from its row and its member rows (in user id order). */
export function decodeGroup(row: ResourceRow, members: readonly MemberRow[]): Group {
  const { id, path, fullPath, name, visibility, members: decoded } = common(row, members)
  return Object.freeze({
    id,
    path,
    fullPath,
    name,
    parentId: nullableId(row.parent_id, 'parent_id'),
    visibility,
    members: decoded,
    ...extendedFlag(row),
  })
}

/** A project from its row and its member rows (in user id order). */
export function decodeProject(row: ResourceRow, members: readonly MemberRow[]): Project {
  const { id, path, fullPath, name, visibility, members: decoded } = common(row, members)
  return Object.freeze({
    id,
    path,
    fullPath,
    name,
    groupId: nullableId(row.group_id, 'group_id'),
    visibility,
    members: decoded,
    ...extendedFlag(row),
  })
}

/** The member rows of the resources of a kind (of one of them when `id` is given), by resource then user. */
export function selectMembers(
  db: Kysely<PatkitDatabase>,
  type: ResourceType,
  id?: number,
): Promise<MemberRow[]> {
  let query = db
    .selectFrom('members')
    .select(['members.source_id', 'members.user_id', 'members.access_level'])
    .where('members.source_type', '=', type)
  if (id !== undefined) query = query.where('members.source_id', '=', id)
  return query.orderBy('members.source_id').orderBy('members.user_id').execute()
}

/**
 * One member per user (a `put` naming a user twice keeps the highest level, the access
 * `directAccess` reads), in user id order: what a read returns.
 */
export function distinctMembers(members: readonly Member[]): readonly Member[] {
  const best = new Map<number, Member>()
  for (const member of members) {
    const known = best.get(member.userId)
    if (known === undefined || member.accessLevel > known.accessLevel) best.set(member.userId, member)
  }
  return Object.freeze(
    [...best.values()]
      .sort((a, b) => a.userId - b.userId)
      .map((member) => Object.freeze({ userId: member.userId, accessLevel: member.accessLevel })),
  )
}
