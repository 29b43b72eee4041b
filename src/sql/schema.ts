import type { ColumnType } from 'kysely'
import type { UserId } from '../domain/user-id.js'

// What a driver returns for a column depends on the driver and on how the host configured it (pg reads
// int8 as a string, mysql2 a tinyint as a number...), so every selected value is `unknown` and
// token-row.ts decodes it. The insert and update types are what the store binds.
type Column<Write> = ColumnType<unknown, Write, Write>
type Id = number
// A user id column: bigint, or varchar(255) with `userIdType: 'string'`.
type UserIdColumn = UserId
type Flag = boolean | number

/** The tokens table as the store's queries see it (unprefixed; the table prefix plugin renames it). */
export interface TokensTable {
  id: ColumnType<unknown, Id | undefined, never>
  user_id: Column<UserIdColumn>
  name: Column<string>
  description: Column<string | null>
  /** A JSON array of scope names. */
  scopes: Column<string>
  created_at: Column<string>
  last_used_at: Column<string | null>
  /** The last client IPs, oldest first, separated by spaces; `''` when none (schema version 0005). */
  last_used_ips: Column<string>
  expires_at: Column<string | null>
  revoked: Column<Flag>
  impersonation: Column<Flag>
  previous_id: Column<Id | null>
  family_id: Column<Id>
  digest: Column<string>
  /** A fine-grained token's scopes as JSON; `null` for a legacy token (schema version 0009). */
  granular_scopes: Column<string | null>
}

/**
 * The users table: `username_lower` carries the case-insensitive unique key, folded in JavaScript so
 * every dialect agrees on what "the same name" is.
 */
interface UsersTable {
  id: Column<UserIdColumn>
  username: Column<string>
  username_lower: Column<string>
  admin: Column<Flag>
  blocked: Column<Flag>
  // Schema version 0007: null (or false) for a user without them.
  name: Column<string | null>
  bot: Column<Flag>
  bot_namespace_type: Column<string | null>
  bot_namespace_id: Column<Id | null>
  service_account: Column<Flag>
  provisioned_by_group_id: Column<Id | null>
}

/**
 * Groups and projects (schema version 0007): `full_path_lower` carries the case-insensitive unique
 * key; `parent_id` is a group's parent, `group_id` a project's group.
 */
interface ResourceTable {
  id: Column<Id>
  path: Column<string>
  full_path: Column<string>
  full_path_lower: Column<string>
  name: Column<string>
  visibility: Column<string>
  /** Schema version 0008: false unless the resource's hooks hear every expiry notice. */
  extended_expiry_webhooks: Column<Flag>
}

interface GroupsTable extends ResourceTable {
  parent_id: Column<Id | null>
}

interface ProjectsTable extends ResourceTable {
  group_id: Column<Id | null>
}

/** Direct memberships (schema version 0007): one row per (source_type, source_id, user_id). */
interface MembersTable {
  /** `'project'` or `'group'`. */
  source_type: Column<string>
  source_id: Column<Id>
  user_id: Column<UserIdColumn>
  access_level: Column<number>
}

/**
 * Named values stored with the data (schema version 0002), such as the pepper fingerprint.
 */
interface SettingsTable {
  name: Column<string>
  value: Column<string>
}

/**
 * Rotation receipts (schema version 0003): one per token rotated with an `Idempotency-Key`, keyed by
 * the rotated token. The successor's secret is kept only sealed, and the key only as a digest.
 */
interface RotationReceiptsTable {
  token_id: Column<Id>
  successor_id: Column<Id>
  key_digest: Column<string>
  sealed_secret: Column<string>
  expires_at: Column<string>
}

/**
 * The change log of `pollingInvalidation` (schema version 0004): one row per cache invalidation.
 */
interface CacheChangesTable {
  seq: ColumnType<unknown, never, never>
  message: Column<string>
  created_at: Column<string>
}

/**
 * Project and group webhooks (schema version 0008): `events` is a JSON object of event flags,
 * `sealed_token` the secret token sealed by its owner.
 */
interface HooksTable {
  id: ColumnType<unknown, never, never>
  /** `'project'` or `'group'`. */
  source_type: Column<string>
  source_id: Column<Id>
  url: Column<string>
  name: Column<string | null>
  description: Column<string | null>
  sealed_token: Column<string | null>
  events: Column<string>
  enable_ssl_verification: Column<Flag>
  created_at: Column<string>
}

/** Delivery attempts of a hook (schema version 0008): the headers are JSON objects. */
interface HookLogsTable {
  id: ColumnType<unknown, never, never>
  hook_id: Column<Id>
  trigger: Column<string>
  url: Column<string>
  request_headers: Column<string>
  request_data: Column<string>
  response_headers: Column<string>
  response_body: Column<string>
  response_status: Column<string>
  execution_duration: Column<number>
  internal_error_message: Column<string | null>
  created_at: Column<string>
}

/** The expiry notices given (schema version 0008): one row per (token_id, interval_days). */
interface TokenNoticesTable {
  token_id: Column<Id>
  interval_days: Column<number>
  sent_at: Column<string>
}

/** Audit events (schema version 0008): `details` is a JSON object. */
interface AuditEventsTable {
  id: ColumnType<unknown, never, never>
  author_id: Column<Id>
  entity_type: Column<string>
  entity_id: Column<Id>
  event_name: Column<string>
  details: Column<string>
  created_at: Column<string>
}

/** The store's tables, by their unprefixed names. */
export interface PatkitDatabase {
  tokens: TokensTable
  users: UsersTable
  settings: SettingsTable
  rotation_receipts: RotationReceiptsTable
  cache_changes: CacheChangesTable
  groups: GroupsTable
  projects: ProjectsTable
  members: MembersTable
  hooks: HooksTable
  hook_logs: HookLogsTable
  token_notices: TokenNoticesTable
  audit_events: AuditEventsTable
}

/** The unprefixed names of the store's own tables, which the prefix plugin renames. */
export const PATKIT_TABLES: readonly (keyof PatkitDatabase)[] = [
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
]
