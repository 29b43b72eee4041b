import { errAsync, ResultAsync } from 'neverthrow'
import { systemClock } from '../domain/clock.js'
import type { StoreFailure } from '../domain/errors.js'
import { DEFAULT_MAX_LIFETIME_DAYS, ROTATION_DEFAULT_DAYS } from '../domain/expiry.js'
import type { PermissionGrant } from '../domain/permission-grant.js'
import { cryptoRandom } from '../domain/random.js'
import { SCOPES } from '../domain/scopes.js'
import { createDigester, DEFAULT_TOKEN_PREFIX } from '../domain/secret.js'
import type { Token } from '../domain/token.js'
import type { UserId, UserIdType } from '../domain/user-id.js'
import { checkUsername } from '../domain/username.js'
import { type AdminTokenMethods, adminTokenMethods } from './admin/admin-tokens.js'
import { type AsUserError, asUser, type USER_BLOCKED } from './core/as-user.js'
import { type AuthenticateError, type AuthenticateOptions, authenticate } from './core/authenticate.js'
import { type AuthorityConfig, authorityOptionProblem } from './core/config.js'
import { type CreateError, type CreateRequest, create } from './core/create.js'
import type { AuthorityDeps } from './core/deps.js'
import type { AuthorityEvent } from './core/events.js'
import { resolveGrace, rotating, writing } from './core/grace-window.js'
import { authorizeGranular } from './core/granular-access.js'
import type { IssuedToken } from './core/issued-token.js'
import { type ListError, type ListRequest, listTokens, type TokenPage } from './core/list-tokens.js'
import type { Actor, Principal, SessionPrincipal, TokenRef } from './core/principal.js'
import { defaultTokenFormat, LATEST_RELEASE, type Release } from './core/release.js'
import { resolveReplay } from './core/replay-window.js'
import { type RotateError, type RotateOptions, rotate } from './core/rotate.js'
import { userLookup } from './core/user-lookup.js'
import { type Verification, type VerifyCode, type VerifyOptions, verify } from './core/verify.js'
import { type AuditMethods, auditMethods } from './hooks/audit-methods.js'
import { type HookMethods, hookMethods } from './hooks/hook-methods.js'
import type { ImpersonationMethods } from './impersonation/impersonation-methods.js'
import {
  createImpersonationToken,
  getImpersonationToken,
  listImpersonationTokens,
  revokeImpersonationToken,
} from './impersonation/impersonation-tokens.js'
import { createOwn } from './personal/create-own.js'
import { type GetError, getToken } from './personal/get-token.js'
import { type IssueError, type IssueTokenInput, issueToken } from './personal/issue-token.js'
import { type RevokeError, revoke } from './personal/revoke.js'
import { replayRotation } from './requests/replay-rotation.js'
import type { RequestMethods } from './requests/request-methods.js'
import { requestPrincipal } from './requests/request-principal.js'
import { rotateRequest } from './requests/rotate-request.js'
import { sudo } from './requests/sudo.js'
import { issueResourceToken } from './resource/issue-resource-token.js'
import { createResourceToken } from './resource/resource-token-create.js'
import { rotateResourceTokenRequest } from './resource/resource-token-rotate.js'
import {
  getResourceToken,
  listResourceTokens,
  type ResourceTokenMethods,
  revokeResourceToken,
} from './resource/resource-tokens.js'
import { viewGroup, viewProject } from './resource/resource-views.js'
import {
  createGroupAccount,
  createGroupAccountToken,
  createInstanceAccount,
  deleteGroupAccount,
  listGroupAccounts,
  listGroupAccountTokens,
  listInstanceAccounts,
  revokeGroupAccountToken,
  rotateGroupAccountToken,
  type ServiceAccountMethods,
  serviceAccountAccess,
} from './service-accounts/service-accounts.js'
import { currentUser } from './users/current-user.js'
import { findUser } from './users/find-user.js'
import { findUsers } from './users/find-users.js'
import { readInstanceMetadata } from './users/instance-metadata.js'
import { tokenAssociations } from './users/token-associations.js'
import type { UserMethods } from './users/user-methods.js'

/**
 * The default `last_used_at` throttle window: GitLab's 10 minutes.
 *
 * @example
 * ```ts
 * import { DEFAULT_LAST_USED_THROTTLE_MS } from 'patkit/authority'
 *
 * DEFAULT_LAST_USED_THROTTLE_MS // 600000
 * ```
 */
export const DEFAULT_LAST_USED_THROTTLE_MS = 10 * 60 * 1000

/**
 * What an authority was built with, frozen: the emulated release, the kind of user ids, and the
 * scope and permission vocabularies its tokens may carry.
 *
 * @example
 * ```ts
 * import { createAuthority } from 'patkit'
 * import { memoryStore } from 'patkit/memory'
 *
 * const authority = createAuthority({ store: memoryStore(), pepper: 'dev', permissions: ['read_invoice'] })
 * authority.settings.release // the latest GitLab release patkit knows
 * authority.settings.permissions // ['read_invoice']
 * ```
 */
export interface AuthoritySettings<P extends string = string> {
  /** The emulated GitLab release. */
  readonly release: Release
  /** The `userIdType` option: `'integer'` (GitLab's) unless configured. */
  readonly userIdType: UserIdType
  /**
   * The scopes a token may carry: the `scopes` option (an application's own vocabulary), or GitLab's
   * {@link SCOPES}. Frozen. The guards check the scopes they ask for against it when they are built.
   */
  readonly scopes: readonly string[]
  /**
   * The permissions a fine-grained token may carry: the `permissions` option (frozen), empty without
   * it. The guards check the permission they ask for against it when they are built.
   */
  readonly permissions: readonly P[]
}

/**
 * A personal access token authority: every operation of GitLab's interface as a `ResultAsync` with
 * typed errors. The top level holds an embedder's everyday calls (authenticate, verify, a user's own
 * personal access tokens); the rest is grouped by what it serves: `requests` (what `patkit/http`
 * calls for a request), `impersonation`, `resources` (project and group access tokens),
 * `serviceAccounts` and `users`. Operations other than `authenticate`, `verify` and `issueToken` act
 * for a {@link Principal} that `authenticate` returned.
 *
 * @example
 * ```ts
 * const principal = await authority.authenticate(request.headers.get('private-token'))
 * if (principal.isOk()) {
 *   const page = await authority.list(principal.value, { filter: { state: 'active' } })
 *   const me = await authority.users.current(principal.value)
 * }
 * ```
 */
export interface Authority<P extends string = string> {
  /** What the authority was built with: the release, the user id kind, the scope and permission vocabularies. */
  readonly settings: AuthoritySettings<P>
  /** The authority's current instant (its injected clock), e.g. to render `active`. */
  now(): Date
  authenticate(
    secret: string | null | undefined,
    options?: AuthenticateOptions,
  ): ResultAsync<Principal, AuthenticateError>
  /**
   * `authenticate` and a scope check answered as a value, with stable codes ({@link VerifyCode});
   * only a store failure is an error.
   *
   * @example
   * ```ts
   * const checked = await authority.verify(secret, { scopes: ['read_api'] })
   * if (checked.isOk() && !checked.value.valid) console.log(checked.value.code) // e.g. 'expired'
   * ```
   */
  verify(secret: string | null | undefined, options?: VerifyOptions): ResultAsync<Verification, StoreFailure>
  /**
   * A session principal for a user the application authenticated itself (see {@link SessionPrincipal}
   * for what it may do): `not_found` for no such user (or an id of the other kind than `userIdType`),
   * `forbidden` ({@link USER_BLOCKED}) for a blocked one.
   *
   * @example
   * ```ts
   * const session = await authority.asUser(2)
   * if (session.isOk()) await authority.list(session.value) // the user's own tokens
   * ```
   * @example
   * ```ts
   * import { createAuthority } from 'patkit'
   * import { memoryStore } from 'patkit/memory'
   *
   * const app = createAuthority({ store: memoryStore({ userIdType: 'string' }), pepper: 'dev', userIdType: 'string' })
   * await app.users.put({ id: '0b8f6c9e-5d2a-4f8e-9c1e-2f4a6b8d0e13', username: 'alice', admin: false, blocked: false })
   * const session = await app.asUser('0b8f6c9e-5d2a-4f8e-9c1e-2f4a6b8d0e13')
   * ```
   */
  asUser(userId: UserId): ResultAsync<SessionPrincipal, AsUserError>
  /**
   * Puts a token in place without authorization and without the expiry window (seeds, fixtures,
   * migrations: a past `expiresAt` seeds an expired token, a far one a long-lived fixture). Not for
   * an application's users: `createOwn` and `create` keep every check. With `permissions` instead of
   * `scopes` it issues a fine-grained token (see {@link PermissionGrant}); a permission outside the
   * authority's `permissions` is `validation_failed`, naming it.
   *
   * @example
   * ```ts
   * import { createAuthority } from 'patkit'
   * import { memoryStore } from 'patkit/memory'
   *
   * const billing = createAuthority({ store: memoryStore(), pepper: 'dev', permissions: ['read_invoice', 'write_invoice'] })
   * const issued = await billing.issueToken({
   *   userId: 2, name: 'billing', permissions: [{ permissions: ['read_invoice'], boundary: { project: 42 } }],
   * })
   * ```
   */
  issueToken(input: IssueTokenInput<P>): ResultAsync<IssuedToken, IssueError>
  /** The caller's personal access tokens, or (an administrator) any user's (`GET /personal_access_tokens`). */
  list(principal: Actor, request?: ListRequest): ResultAsync<TokenPage, ListError>
  /** One personal access token (`GET /personal_access_tokens/:id` or `self`). */
  get(principal: Actor, ref: TokenRef): ResultAsync<Token, GetError>
  /** `POST /personal_access_tokens/:id/rotate` (or `self`): the successor, and the token revoked. */
  rotate(principal: Actor, ref: TokenRef, options?: RotateOptions): ResultAsync<IssuedToken, RotateError>
  /** `DELETE /personal_access_tokens/:id` (or `self`). */
  revoke(principal: Actor, ref: TokenRef): ResultAsync<void, RevokeError>
  /**
   * GitLab's creation: for a user by an administrator, or `self` with GitLab's limited scopes. The
   * string `'self'` is always the caller, also with string user ids: a user whose id is `'self'`
   * creates through `asUser('self')` and `createOwn`.
   *
   * @example
   * ```ts
   * const created = await authority.create(principal, 2, { name: 'ci', scopes: ['api'], expiresAt: '2030-01-01' })
   * ```
   */
  create(
    principal: Actor,
    target: UserId | 'self',
    request: CreateRequest,
  ): ResultAsync<IssuedToken, CreateError>
  /**
   * Creation for the caller's own account with every check (configured scopes, admin-only scopes,
   * expiry window) and without GitLab's self-service scope limit: an application's settings page.
   *
   * @example
   * ```ts
   * const session = await authority.asUser(2)
   * if (session.isOk()) {
   *   const created = await authority.createOwn(session.value, { name: 'laptop', scopes: ['read_api'] })
   *   if (created.isOk()) console.log(created.value.secret) // shown once
   * }
   * ```
   */
  createOwn(principal: Actor, request: CreateRequest): ResultAsync<IssuedToken, CreateError>
  /** What `patkit/http` calls for an API request: its principal, a rotation in one call. */
  readonly requests: RequestMethods
  /** Impersonation tokens (administrators only). */
  readonly impersonation: ImpersonationMethods
  /** Project and group access tokens. */
  readonly resources: ResourceTokenMethods
  /** Service accounts (the instance's and a top-level group's) and their tokens. */
  readonly serviceAccounts: ServiceAccountMethods
  /** Users (`put`, `current`, `find`, `findMany`, `associations`) and the instance's `metadata`. */
  readonly users: UserMethods
  /** Tokens found and revoked by their secret: a leaked-token runbook, GitLab's admin token API. */
  readonly admin: AdminTokenMethods
  /** Project and group webhooks and their delivery logs. */
  readonly hooks: HookMethods
  /** Audit events: the instance's, a project's, a group's. */
  readonly audit: AuditMethods
}

/**
 * Thrown by {@link createAuthority} for an invalid option: a programming error, reported at start-up
 * with the option's name.
 *
 * @example
 * ```ts
 * import { AuthorityConfigError, createAuthority } from 'patkit'
 * try { createAuthority({ store, pepper: '' }) } catch (e) { e instanceof AuthorityConfigError } // true
 * ```
 */
export class AuthorityConfigError extends Error {
  override readonly name = 'AuthorityConfigError'
}

function isolate(listener: ((event: AuthorityEvent) => void) | undefined): (event: AuthorityEvent) => void {
  if (listener === undefined) return () => {}
  return (event) => {
    try {
      listener(event)
    } catch {
      // A failing audit listener must not undo or fail an operation that is already stored.
    }
  }
}

/**
 * Creates an authority over a store. Only `store` and `pepper` are required.
 *
 * @throws {AuthorityConfigError} for an invalid option (named in the message), or a store that declares
 * another kind of user id than `userIdType` (e.g. `memoryStore()` with `userIdType: 'string'`: give
 * it `memoryStore({ userIdType: 'string' })`).
 * @example
 * ```ts
 * import { createAuthority } from 'patkit'
 * import { memoryStore } from 'patkit/memory'
 *
 * const authority = createAuthority({ store: memoryStore(), pepper: process.env.PATKIT_PEPPER ?? 'dev' })
 * ```
 */
export function createAuthority<const P extends string = string>(config: AuthorityConfig<P>): Authority<P> {
  // The vocabulary was checked against `P`'s own values: what the authority holds is `P`.
  return authorityOver(resolveAuthorityDeps(config)) as Authority<P>
}

/**
 * Validates a configuration and resolves it into what every use case receives: the defaults filled
 * in and the pepper turned into the digester, once. `createAuthority` is `authorityOver` of it; a
 * caller that also needs the digester (the fake authority's seed path, to recognize seeded secrets)
 * takes it from here instead of building a second one from the pepper.
 *
 * @throws {AuthorityConfigError} for an invalid option, as `createAuthority`; also when the store
 * declares a `userIdType` other than the authority's (`store.userIdType`, see `TokenStore`).
 */
export function resolveAuthorityDeps<P extends string>(config: AuthorityConfig<P>): AuthorityDeps {
  const problem = authorityOptionProblem({
    tokenPrefix: config.tokenPrefix,
    tokenFormat: config.tokenFormat,
    release: config.release,
    requireExpiry: config.requireExpiry,
    adminMode: config.adminMode,
    maxLifetimeDays: config.maxLifetimeDays,
    rotationDefaultDays: config.rotationDefaultDays,
    scopes: config.scopes,
    permissions: config.permissions,
    lastUsedThrottleMs: config.lastUsedThrottleMs,
    rotationReplayWindowMs: config.rotationReplayWindowMs,
    rotationGraceMs: config.rotationGraceMs,
    userIdType: config.userIdType,
  })
  if (problem !== null) throw new AuthorityConfigError(`invalid option ${problem}`)
  if (config.pepper.length === 0) throw new AuthorityConfigError('invalid option pepper: must not be empty')
  const users = config.users ?? config.store
  const userIdType = config.userIdType ?? 'integer'
  const held = config.store.userIdType
  if (held !== userIdType) {
    throw new AuthorityConfigError(userIdTypeMismatch(held, userIdType, config.userIdType === undefined))
  }
  const userById = userLookup(users, userIdType)
  if (userById === null) {
    throw new AuthorityConfigError(
      "invalid option userIdType: 'string' needs a user directory with findUserById (the users option, or the store)",
    )
  }
  const digest = createDigester(config.pepper)
  const deps: AuthorityDeps = Object.freeze({
    store: config.store,
    users,
    usersFromStore: config.users === undefined,
    userIdType,
    userById,
    clock: config.clock ?? systemClock,
    random: config.random ?? cryptoRandom,
    prefix: config.tokenPrefix ?? DEFAULT_TOKEN_PREFIX,
    format: config.tokenFormat ?? defaultTokenFormat(config.release ?? LATEST_RELEASE),
    digest,
    release: config.release ?? LATEST_RELEASE,
    expiry: Object.freeze({
      requireExpiry: config.requireExpiry ?? true,
      maxLifetimeDays: config.maxLifetimeDays ?? DEFAULT_MAX_LIFETIME_DAYS,
      rotationDefaultDays: config.rotationDefaultDays ?? ROTATION_DEFAULT_DAYS,
    }),
    scopes: Object.freeze([...new Set(config.scopes ?? SCOPES)]),
    permissions: Object.freeze([...(config.permissions ?? [])]),
    granularEnforcement: config.granularEnforcement ?? null,
    adminMode: config.adminMode ?? false,
    lastUsedThrottleMs: config.lastUsedThrottleMs ?? DEFAULT_LAST_USED_THROTTLE_MS,
    replay: resolveReplay(config),
    grace: resolveGrace(config),
    emit: isolate(config.onEvent),
    sealHookToken: config.sealHookToken ?? ((token: string) => `digest:${digest(token)}`),
  })
  return deps
}

/** Why an authority and a store that declare different kinds of user id cannot work together, and the fix. */
function userIdTypeMismatch(held: UserIdType, wanted: UserIdType, defaulted: boolean): string {
  const option = `invalid option userIdType: '${wanted}'${defaulted ? ' (the default)' : ''}, but the store holds ${held} user ids`
  return wanted === 'string'
    ? `${option}; give the store the same kind: memoryStore({ userIdType: 'string' }), or sqlStore(db, { userIdType: 'string' }) on tables migrate(db, { userIdType: 'string' }) created`
    : `${option}; pass userIdType: '${held}' to createAuthority as well, or give it a store of ${wanted} ids`
}

// Shared by every call without options: authentication allocates nothing it can avoid.
const NO_OPTIONS: AuthenticateOptions = Object.freeze({})

/**
 * The authority over resolved dependencies (see {@link resolveAuthorityDeps}): its one assembly.
 * Every write is declared with `writing` (or `rotating`), which refuses a principal in its grace
 * period before the operation; reads are the operations themselves.
 */
export function authorityOver(deps: AuthorityDeps): Authority {
  const requests: RequestMethods = {
    requestPrincipal: (credentials, opts) => requestPrincipal(deps, credentials, opts?.write === true),
    rotateRequest: (request) => rotateRequest(deps, request),
    replayRotation: (secret, ref, idempotencyKey) => replayRotation(deps, secret, ref, idempotencyKey),
    sudo: (principal, identifier) => sudo(deps, principal, identifier),
    authorizeGranular: (principal, requirement) => authorizeGranular(deps, principal, requirement),
  }
  const impersonation: ImpersonationMethods = {
    list: (principal, userId, request = {}) => listImpersonationTokens(deps, principal, userId, request),
    create: writing((principal, userId, request) =>
      createImpersonationToken(deps, principal, userId, request),
    ),
    get: (principal, userId, tokenId) => getImpersonationToken(deps, principal, userId, tokenId),
    revoke: writing((principal, userId, tokenId) =>
      revokeImpersonationToken(deps, principal, userId, tokenId),
    ),
  }
  const resources: ResourceTokenMethods = {
    viewProject: (principal, ref) => viewProject(deps, principal, ref),
    viewGroup: (principal, ref) => viewGroup(deps, principal, ref),
    list: (principal, resource, request = {}) => listResourceTokens(deps, principal, resource, request),
    get: (principal, resource, tokenId) => getResourceToken(deps, principal, resource, tokenId),
    create: writing((principal, resource, request) =>
      createResourceToken(deps, principal, resource, request),
    ),
    revoke: writing((principal, resource, tokenId) =>
      revokeResourceToken(deps, principal, resource, tokenId),
    ),
    rotateRequest: (resource, request) => rotateResourceTokenRequest(deps, resource, request),
    issue: (input) => issueResourceToken(deps, input),
  }
  const serviceAccounts: ServiceAccountMethods = {
    access: (caller, groupRef, access) => serviceAccountAccess(deps, caller, groupRef, access),
    create: writing((caller, request) => createInstanceAccount(deps, caller, request)),
    list: (caller, order) => listInstanceAccounts(deps, caller, order),
    createInGroup: writing((caller, groupRef, request) =>
      createGroupAccount(deps, caller, groupRef, request),
    ),
    listInGroup: (caller, groupRef, order) => listGroupAccounts(deps, caller, groupRef, order),
    deleteFromGroup: writing((caller, groupRef, userId, { hardDelete }) =>
      deleteGroupAccount(deps, caller, groupRef, userId, hardDelete),
    ),
    listTokens: (caller, groupRef, userId, request) =>
      listGroupAccountTokens(deps, caller, groupRef, userId, request),
    createToken: writing((caller, groupRef, userId, request) =>
      createGroupAccountToken(deps, caller, groupRef, userId, request),
    ),
    revokeToken: writing((caller, groupRef, userId, tokenId) =>
      revokeGroupAccountToken(deps, caller, groupRef, userId, tokenId),
    ),
    rotateToken: writing((caller, groupRef, userId, tokenId, { expiresAt }) =>
      rotateGroupAccountToken(deps, caller, groupRef, userId, tokenId, expiresAt),
    ),
  }
  const users: UserMethods = {
    put: (user) => {
      const checked = checkUsername(user.username)
      return checked.isErr() ? errAsync(checked.error) : deps.store.putUser(user)
    },
    current: (principal) => currentUser(principal),
    find: (principal, id) => findUser(deps, principal, id),
    findMany: (principal, query) => findUsers(deps, principal, query),
    metadata: (principal) => readInstanceMetadata(deps.release, principal),
    associations: (principal, request) => new ResultAsync(tokenAssociations(deps, principal, request)),
  }
  return Object.freeze({
    settings: Object.freeze({
      release: deps.release,
      userIdType: deps.userIdType,
      scopes: deps.scopes,
      permissions: deps.permissions,
    }),
    now: () => deps.clock.now(),
    authenticate: (secret, opts = NO_OPTIONS) => authenticate(deps, secret, opts),
    verify: (secret, opts = {}) => verify(deps, secret, opts),
    asUser: (userId) => asUser(deps, userId),
    issueToken: (input) => issueToken(deps, input),
    list: (principal, request = {}) => listTokens(deps, principal, request),
    get: (principal, ref) => getToken(deps, principal, ref),
    rotate: rotating((principal, ref, opts = {}) => rotate(deps, principal, ref, opts)),
    revoke: writing((principal, ref) => revoke(deps, principal, ref)),
    create: writing((principal, target, request) => create(deps, principal, target, request)),
    createOwn: writing((principal, request) => createOwn(deps, principal, request)),
    requests: Object.freeze(requests),
    impersonation: Object.freeze(impersonation),
    resources: Object.freeze(resources),
    serviceAccounts: Object.freeze(serviceAccounts),
    users: Object.freeze(users),
    admin: adminTokenMethods(deps),
    hooks: hookMethods(deps),
    audit: auditMethods(deps),
  } satisfies Authority)
}
