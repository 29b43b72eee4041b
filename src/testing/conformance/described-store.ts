import { type Result, ResultAsync } from 'neverthrow'
import type { AuditStore, HookStore } from '../../store/hook-store.js'
import type { ResourceStore } from '../../store/resource-store.js'
import type { TokenStore } from '../../store/token-store.js'

/** Every method of the port; a type check below keeps the list whole. */
const METHODS = [
  'findByDigest',
  'findByDigestWithUser',
  'findFreshByDigest',
  'findById',
  'findSuccessor',
  'list',
  'insert',
  'revoke',
  'rotate',
  'rotateWithReceipt',
  'consumeRotationReceipt',
  'revokeDescendants',
  'touchLastUsed',
  'importToken',
  'putUser',
  'findUser',
  'findUserById',
  'replaceAll',
] as const satisfies readonly (keyof TokenStore)[]

type Method = {
  [K in keyof TokenStore]-?: NonNullable<TokenStore[K]> extends (...args: never[]) => unknown ? K : never
}[keyof TokenStore]
// Stops compiling when the port gains a method METHODS does not list (it would go undescribed).
const complete: Record<Exclude<Method, (typeof METHODS)[number]>, never> = {}
void complete

/** The call that made each outcome a described store handed out, as the failure messages name it. */
const calls = new WeakMap<object, string>()

/**
 * The call that produced `outcome` (`insert(draft "a" of user 1)`), when a store from
 * {@link describedStore} made it; `undefined` for any other value (a mapped result, a helper's).
 */
export function callOf(outcome: object): string | undefined {
  return calls.get(outcome)
}

/**
 * The store as the conformance suite hands it to a test: every call answers as the store does, and
 * its outcome remembers the call (operation and arguments, see {@link callOf}) so that a failing
 * check can say which call broke the port. A store that throws or rejects instead of returning a
 * failure, or returns something that is not a `Result`, fails the test naming the call.
 */
export function describedStore<S extends TokenStore>(store: S): S {
  const described: { userIdType?: unknown; resources?: unknown; [method: string]: unknown } = {}
  described.userIdType = store.userIdType
  for (const name of METHODS) {
    const method: unknown = store[name]
    if (typeof method === 'function') described[name] = describedMethod(name, method, store)
  }
  const { resources } = store
  if (resources !== undefined) {
    const methods: Record<string, unknown> = {}
    for (const name of RESOURCE_METHODS) {
      methods[name] = describedMethod(`resources.${name}`, resources[name], resources)
    }
    methods['hooks'] = describedPart('resources.hooks', resources.hooks, HOOK_METHODS)
    methods['audit'] = describedPart('resources.audit', resources.audit, AUDIT_METHODS)
    described.resources = methods
  }
  return described as unknown as S
}

/** A nested part of the port (`resources.hooks`) described method by method; absent stays absent. */
function describedPart(prefix: string, part: object | undefined, names: readonly string[]): unknown {
  if (part === undefined || part === null) return part
  const methods: Record<string, unknown> = {}
  for (const name of names) {
    methods[name] = describedMethod(`${prefix}.${name}`, Reflect.get(part, name), part)
  }
  return methods
}

/** The port's `resources` methods, every one required of a store that has `resources`. */
const RESOURCE_METHODS = [
  'findGroup',
  'findProject',
  'putGroup',
  'putProject',
  'listGroups',
  'listProjects',
  'setMember',
  'removeMember',
  'createUser',
  'listUsers',
] as const satisfies readonly (keyof ResourceStore)[]
/** The parts of `resources` that are objects of methods of their own, described by the lists below. */
const RESOURCE_PARTS = ['hooks', 'audit'] as const satisfies readonly (keyof ResourceStore)[]
// Stops compiling when the resource port gains a method or part the lists do not name.
const completeResources: Record<
  Exclude<keyof ResourceStore, (typeof RESOURCE_METHODS)[number] | (typeof RESOURCE_PARTS)[number]>,
  never
> = {}
void completeResources

/** The methods of `resources.hooks`. */
const HOOK_METHODS = [
  'insertHook',
  'updateHook',
  'findHook',
  'listHooks',
  'deleteHook',
  'appendHookLog',
  'listHookLogs',
  'claimNotice',
  'noticesOf',
] as const satisfies readonly (keyof HookStore)[]
const completeHooks: Record<Exclude<keyof HookStore, (typeof HOOK_METHODS)[number]>, never> = {}
void completeHooks

/** The methods of `resources.audit`. */
const AUDIT_METHODS = [
  'appendAuditEvent',
  'findAuditEvent',
  'listAuditEvents',
] as const satisfies readonly (keyof AuditStore)[]
const completeAudit: Record<Exclude<keyof AuditStore, (typeof AUDIT_METHODS)[number]>, never> = {}
void completeAudit

/** One method of a described store: answers as `method` on `target`, its outcome remembering the call. */
function describedMethod(name: string, method: unknown, target: object): (...args: unknown[]) => unknown {
  return (...args: unknown[]) => {
    const call = `${name}(${args.map((arg) => summarize(arg)).join(', ')})`
    let outcome: unknown
    try {
      if (typeof method !== 'function') throw new TypeError(`${name} is not a function`)
      outcome = Reflect.apply(method, target, args)
    } catch (cause) {
      throw new Error(`${call} threw instead of returning a store_failure: ${summarize(cause)}`, { cause })
    }
    const settled = Promise.resolve(outcome).then(
      (result: unknown) => {
        if (isResult(result)) return result
        throw new Error(`${call} returned ${summarize(result)}, not a ResultAsync`)
      },
      (cause: unknown) => {
        throw new Error(`${call} rejected instead of returning a store_failure: ${summarize(cause)}`, {
          cause,
        })
      },
    )
    const own = new ResultAsync(settled)
    calls.set(own, call)
    return own
  }
}

function isResult(value: unknown): value is Result<unknown, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { isOk?: unknown }).isOk === 'function' &&
    typeof (value as { isErr?: unknown }).isErr === 'function'
  )
}

const MAX_LENGTH = 400
const MAX_ITEMS = 6

/**
 * A value as a failure message shows it, short: a token or draft by id, name and the fields that
 * make families (`token 9 "ci" of user 1, previousId 7, familyId 7, revoked`), a user by id and
 * name, a date as ISO, an error by its message; anything else as JSON-like text, cut at 400
 * characters.
 */
export function summarize(value: unknown): string {
  const text = shown(value, 0)
  return text.length > MAX_LENGTH ? `${text.slice(0, MAX_LENGTH)}…` : text
}

function shown(value: unknown, depth: number): string {
  if (value === undefined) return 'undefined'
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (typeof value === 'string') return JSON.stringify(value)
  if (typeof value === 'bigint') return `${value}n`
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString()
  if (value instanceof Error) return `${value.name}: ${value.message}`
  if (typeof value !== 'object') return typeof value
  if (depth > 3) return '…'
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((item) => shown(item, depth + 1))
    if (value.length > MAX_ITEMS) items.push(`… ${value.length - MAX_ITEMS} more`)
    return `[${items.join(', ')}]`
  }
  const record = value as Fields
  if (typeof record.digest === 'string' && Array.isArray(record.scopes)) return tokenLike(record)
  if (typeof record.username === 'string' && 'id' in record) {
    return `user ${shown(record.id, depth + 1)} ${JSON.stringify(record.username)}`
  }
  const fields = Object.entries(value).map(([key, field]) => `${key}: ${shown(field, depth + 1)}`)
  return `{ ${fields.join(', ')} }`
}

/** The fields a summary reads, of a value of unknown shape. */
interface Fields {
  readonly id?: unknown
  readonly name?: unknown
  readonly userId?: unknown
  readonly previousId?: unknown
  readonly familyId?: unknown
  readonly revoked?: unknown
  readonly lastUsedAt?: unknown
  readonly lastUsedIps?: unknown
  readonly digest?: unknown
  readonly scopes?: unknown
  readonly username?: unknown
}

/** A token (with an id) or a draft, by the fields a failure is usually about. */
function tokenLike(token: Fields): string {
  const head = 'id' in token ? `token ${shown(token.id, 1)}` : 'draft'
  const parts = [`${head} ${JSON.stringify(token.name)} of user ${shown(token.userId, 1)}`]
  if (token.previousId !== null && token.previousId !== undefined)
    parts.push(`previousId ${shown(token.previousId, 1)}`)
  if (token.familyId !== null && token.familyId !== undefined)
    parts.push(`familyId ${shown(token.familyId, 1)}`)
  if (token.revoked === true) parts.push('revoked')
  if (token.lastUsedAt instanceof Date) parts.push(`lastUsedAt ${shown(token.lastUsedAt, 1)}`)
  if ('lastUsedIps' in token) parts.push(`lastUsedIps ${shown(token.lastUsedIps, 1)}`)
  parts.push(`digest ${shown(token.digest, 1)}`)
  return parts.join(', ')
}
