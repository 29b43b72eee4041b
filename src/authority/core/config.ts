import type { Clock } from '../../domain/clock.js'
import type { TokenFormat } from '../../domain/mint-secret.js'
import type { RandomSource } from '../../domain/random.js'
import type { SCOPES } from '../../domain/scopes.js'
import type { UserIdType } from '../../domain/user-id.js'
import type { TokenStore } from '../../store/token-store.js'
import type { UserDirectory } from '../../store/user.js'
import type { AuthorityEvent } from './events.js'
import type { Release } from './release.js'

/**
 * Options of {@link createAuthority}. Only `store` and `pepper` are required.
 *
 * @example
 * ```ts
 * import { createAuthority } from 'patkit'
 * import { memoryStore } from 'patkit/memory'
 * const authority = createAuthority({ store: memoryStore(), pepper: process.env.PATKIT_PEPPER! })
 * ```
 */
export interface AuthorityConfig<P extends string = string> {
  readonly store: TokenStore
  /** Keys the HMAC of stored secrets. Keep it secret and stable: changing it invalidates every token. */
  readonly pepper: string | Uint8Array
  /** Where users come from; defaults to the store. */
  readonly users?: UserDirectory
  /** Defaults to `systemClock`. */
  readonly clock?: Clock
  /** Defaults to `cryptoRandom`. */
  readonly random?: RandomSource
  /** Prefix of new secrets (GitLab's instance token prefix); defaults to `glpat-`. */
  readonly tokenPrefix?: string
  /**
   * Format of new secrets: `routable` (GitLab's since 18.3, with a CRC-32 check) or `legacy` (20
   * characters). Defaults to the emulated release's. Secrets of any format (seeds) always work.
   */
  readonly tokenFormat?: TokenFormat
  /** The GitLab release to emulate; defaults to {@link LATEST_RELEASE}. */
  readonly release?: Release
  /**
   * GitLab's `require_personal_access_token_expiry`; defaults to true. When false, a token created
   * without `expires_at` never expires, and neither does a rotated one (GitLab's RotateService).
   */
  readonly requireExpiry?: boolean
  /**
   * GitLab's Admin Mode setting (`admin_mode`); defaults to false, as GitLab's default. When true, an
   * administrator acts as one only through a token with the `admin_mode` scope; any other token of
   * theirs acts as a regular user's (no other users' tokens, no `sudo`, the users API without admin fields).
   */
  readonly adminMode?: boolean
  /**
   * GitLab.com's top-level group setting `enforce_granular_tokens` with its date
   * `granular_tokens_enforced_after` (namespace settings; no REST attribute). `enforcedFrom`: given a
   * top-level group's id, the day (`YYYY-MM-DD`) from which the group requires fine-grained tokens, or
   * `null` when it does not; `anyEnforced` (optional): whether any group enforces at all, `false`
   * sparing a legacy token's request the lookup of its project or group. From that day a legacy
   * personal access token of a human user is refused on every route whose project or group lies in
   * that group, as a fine-grained token without permissions is (403 `insufficient_granular_scope`);
   * fine-grained tokens, bots and service accounts are unaffected. Absent: no group enforces, GitLab's
   * default.
   */
  readonly granularEnforcement?: {
    readonly enforcedFrom: (topLevelGroupId: number) => string | null
    readonly anyEnforced?: () => boolean
  }
  /** Longest allowed lifetime in days; defaults to 365. */
  readonly maxLifetimeDays?: number
  /**
   * Days a rotated token lives when the rotation names no `expiresAt`; defaults to GitLab's 7 (capped
   * by `maxLifetimeDays`; without `requireExpiry` a rotation without `expiresAt` never expires).
   */
  readonly rotationDefaultDays?: number
  /**
   * The scopes a token may carry: an application's own vocabulary (e.g. `['read', 'write', 'billing']`);
   * defaults to GitLab's {@link SCOPES}. Creation (`create`, `createOwn`, `issueToken`) refuses any
   * other scope (`invalid_parameter` on `scopes`). GitLab's own routes keep asking for GitLab's scopes
   * (`api`, `read_api`, ...), so a vocabulary without them suits an application that checks its own
   * routes with `verify` and manages tokens through `asUser`. Each scope is 1 to 255 printable ASCII
   * characters without space, `"` or `\` (it travels in `WWW-Authenticate`); the list is not empty.
   */
  readonly scopes?: readonly string[]
  /**
   * The permissions a fine-grained token may carry: an application's own vocabulary (e.g.
   * `['read_invoice', 'write_invoice']`), which types `issueToken`'s `permissions` and the guards'
   * `permission`, so a typo fails to compile. Each name is 1 to 100 letters, digits, `_`, `-`, `.` or
   * `:`, declared once; the list is not empty ({@link AuthorityConfigError} otherwise). Absent: no
   * fine-grained token can be issued. See docs/embedding.md, "Permissions".
   */
  readonly permissions?: readonly P[]
  /** `last_used_at` is written at most once per window; defaults to 10 minutes. */
  readonly lastUsedThrottleMs?: number
  /**
   * How long a rotation sent with an `Idempotency-Key` header can be replayed (the same old token and
   * the same key get the same successor, once), in milliseconds; defaults to 10 minutes, at most a
   * day. It only matters when a client sends the header: without it every rotation is GitLab's. `0`
   * turns the header off (ignored, as GitLab ignores it). Setting it above 0 on a store without the
   * `rotationReceipts` capability throws {@link AuthorityConfigError}. See docs/rotation.md.
   */
  readonly rotationReplayWindowMs?: number
  /**
   * Beyond GitLab, off by default (0): the rotation grace window, in milliseconds (at most a day).
   * After a rotation the immediately previous token keeps working for this long (while its successor
   * is active; older generations never), and a rotation replayed with it inside the window gets the
   * same successor and secret once, while the successor is unused, instead of reuse detection. Needs
   * a store with rotation receipts and `findSuccessor` (patkit's stores have them). See docs/rotation.md.
   */
  readonly rotationGraceMs?: number
  /**
   * Seals a webhook's secret token before the store keeps it (`Hook.sealedToken`): the fake GitLab
   * seals with AES-256-GCM under its hook secret key, so that its deliveries can send
   * `X-Gitlab-Token`. Without it the token is kept as its peppered digest (`digest:` and the
   * HMAC), which nothing can open: such hooks are delivered without `X-Gitlab-Token`.
   */
  readonly sealHookToken?: (token: string) => string
  /** Receives the audit trail. A listener that throws does not affect the operation. */
  readonly onEvent?: (event: AuthorityEvent) => void
  /**
   * The kind of user id: `'integer'` (GitLab's, the default) or `'string'` (an application's own
   * ids, such as UUIDs). Give the store the same kind (`memoryStore({ userIdType })`,
   * `sqlStore(db, { userIdType })` and `migrate`): a store that declares another kind
   * (`store.userIdType`, as patkit's stores and wrappers do) makes `createAuthority` throw
   * {@link AuthorityConfigError}. With `'string'` the user directory must have `findUserById`, or
   * {@link AuthorityConfigError} is thrown. The GitLab HTTP binding
   * (`createHandler`) refuses an authority with string ids. See docs/embedding.md.
   */
  readonly userIdType?: UserIdType
}

/**
 * Checks the scalar options at the edge, so a typo fails at start-up with the option's name: the
 * first invalid option (in this order) as `name: reason`, or `null` when every given option is valid
 * (every one is optional). Written out rather than a zod schema so that `import('patkit')` does not
 * load zod (about 80 ms of a cold start; see docs/benchmarks.md); the reasons are worded as the zod
 * schema this replaces worded them, which test/authority/config-options.property.test.ts holds it to.
 */
export function authorityOptionProblem(options: AuthorityOptions): string | null {
  for (const [name, check] of OPTION_CHECKS) {
    const value = options[name]
    if (value === undefined) continue
    const problem = check(value)
    if (problem !== null) return `${name}: ${problem}`
  }
  return null
}

/**
 * The options {@link authorityOptionProblem} checks, as a caller may pass them (of any type: a
 * JavaScript caller or a cast can pass anything).
 */
export type AuthorityOptions = { readonly [K in (typeof OPTION_CHECKS)[number][0]]?: unknown }

/** The reason a value is invalid, or `null`. */
type Check = (value: unknown) => string | null

const text =
  (pattern: RegExp, reason: string): Check =>
  (value) =>
    typeof value !== 'string' ? invalidType('string', value) : pattern.test(value) ? null : reason

const flag: Check = (value) => (typeof value === 'boolean' ? null : invalidType('boolean', value))

const oneOf =
  (values: readonly string[]): Check =>
  (value) =>
    values.includes(value as string)
      ? null
      : `Invalid option: expected one of ${values.map((v) => `"${v}"`).join('|')}`

/** A safe integer in [min, max]; the bounds of a safe integer are checked first, as zod's `int()` did. */
const integer =
  (min: number, max: number = Number.MAX_SAFE_INTEGER): Check =>
  (value) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return invalidType('number', value)
    if (!Number.isInteger(value)) return 'Invalid input: expected int, received number'
    if (value > Number.MAX_SAFE_INTEGER) return `Too big: expected int to be <=${Number.MAX_SAFE_INTEGER}`
    if (value < Number.MIN_SAFE_INTEGER) return `Too small: expected int to be >=${Number.MIN_SAFE_INTEGER}`
    if (value < min) return `Too small: expected number to be >=${min}`
    if (value > max) return `Too big: expected number to be <=${max}`
    return null
  }

/** An OAuth scope-token (RFC 6749, 3.3): printable ASCII without space, `"` or `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]{1,255}$/

function scopeList(value: unknown): string | null {
  if (!Array.isArray(value)) return invalidType('array', value)
  if (value.length === 0) return 'at least one scope'
  for (const scope of value) {
    if (typeof scope !== 'string' || !SCOPE_TOKEN.test(scope)) {
      return `${JSON.stringify(String(scope))} is not a scope: 1 to 255 printable ASCII characters without space, " or \\`
    }
  }
  return null
}

/** A permission's name: what a typo check, a log line and a 403's message can carry as is. */
const PERMISSION_NAME = /^[A-Za-z0-9_.:-]{1,100}$/

function permissionList(value: unknown): string | null {
  if (!Array.isArray(value)) return invalidType('array', value)
  if (value.length === 0) return 'at least one permission'
  const seen = new Set<string>()
  for (const permission of value) {
    if (typeof permission !== 'string' || !PERMISSION_NAME.test(permission)) {
      return `${JSON.stringify(String(permission))} is not a permission: 1 to 100 letters, digits, _, -, . or :`
    }
    if (seen.has(permission)) return `${JSON.stringify(permission)} is declared twice`
    seen.add(permission)
  }
  return null
}

function invalidType(expected: string, value: unknown): string {
  return `Invalid input: expected ${expected}, received ${typeName(value)}`
}

/** How zod names the type of a value it did not expect: `NaN`, `Infinity`, `null`, `array`, a class name. */
function typeName(value: unknown): string {
  if (typeof value === 'number')
    return Number.isNaN(value) ? 'NaN' : Number.isFinite(value) ? 'number' : String(value)
  if (typeof value !== 'object') return typeof value
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (Object.getPrototypeOf(value) !== Object.prototype && 'constructor' in value && value.constructor) {
    return `${(value.constructor as { name?: unknown }).name}`
  }
  return 'object'
}

const OPTION_CHECKS = [
  ['tokenPrefix', text(/^[A-Za-z0-9_-]{0,20}$/, 'letters, digits, - and _, at most 20')],
  ['tokenFormat', oneOf(['routable', 'legacy'])],
  ['release', text(/^\d{1,3}\.\d{1,3}$/, 'a GitLab release such as 16.10')],
  ['requireExpiry', flag],
  ['adminMode', flag],
  ['maxLifetimeDays', integer(1, 36_500)],
  ['rotationDefaultDays', integer(1, 36_500)],
  ['lastUsedThrottleMs', integer(0)],
  // A day at most: a receipt holds a sealed live secret, and the window is how long a stolen old
  // token and key could still obtain it.
  ['rotationReplayWindowMs', integer(0, 86_400_000)],
  // A day at most, as the replay window: the previous token and its sealed successor live that long.
  ['rotationGraceMs', integer(0, 86_400_000)],
  ['scopes', scopeList],
  ['permissions', permissionList],
  ['userIdType', oneOf(['integer', 'string'])],
] as const satisfies readonly (readonly [keyof AuthorityConfig, Check])[]
