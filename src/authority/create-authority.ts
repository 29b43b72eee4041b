import { errAsync, type ResultAsync } from 'neverthrow'
import { systemClock } from '../domain/clock.js'
import type { ErrorOf, StoreFailure } from '../domain/errors.js'
import { DEFAULT_MAX_LIFETIME_DAYS, ROTATION_DEFAULT_DAYS } from '../domain/expiry.js'
import { cryptoRandom } from '../domain/random.js'
import { SCOPES } from '../domain/scopes.js'
import { createDigester, DEFAULT_TOKEN_PREFIX } from '../domain/secret.js'
import type { Token } from '../domain/token.js'
import type { UserId, UserIdType } from '../domain/user-id.js'
import { checkUsername, type UsernameError } from '../domain/username.js'
import type { User } from '../store/user.js'
import { type AdminTokenMethods, adminTokenMethods } from './admin-tokens.js'
import { type AsUserError, asUser, type USER_BLOCKED } from './as-user.js'
import { type AuthenticateError, type AuthenticateOptions, authenticate } from './authenticate.js'
import { type AuthorityConfig, authorityOptionProblem } from './config.js'
import { type CreateError, type CreateRequest, create } from './create.js'
import { createOwn } from './create-own.js'
import { type CurrentUserError, currentUser } from './current-user.js'
import type { AuthorityDeps } from './deps.js'
import type { AuthorityEvent } from './events.js'
import { type FindUserError, findUser } from './find-user.js'
import { type FindUsersError, findUsers, type UsersQuery } from './find-users.js'
import { type GetError, getToken } from './get-token.js'
import { refuseGracedWrite, resolveGrace } from './grace-window.js'
import {
  createImpersonationToken,
  getImpersonationToken,
  type ImpersonationCreateRequest,
  type ImpersonationError,
  type ImpersonationListRequest,
  listImpersonationTokens,
  revokeImpersonationToken,
} from './impersonation-tokens.js'
import { type InstanceMetadata, readInstanceMetadata } from './instance-metadata.js'
import { type IssueError, type IssueTokenInput, issueToken } from './issue-token.js'
import type { IssuedToken } from './issued-token.js'
import { type ListError, type ListRequest, listTokens, type TokenPage } from './list-tokens.js'
import type { Actor, Principal, SessionPrincipal, TokenRef } from './principal.js'
import { defaultTokenFormat, LATEST_RELEASE, type Release } from './release.js'
import { type ReplayError, replayRotation } from './replay-rotation.js'
import { resolveReplay } from './replay-window.js'
import { type PrincipalError, type RequestCredentials, requestPrincipal } from './request-principal.js'
import { type ResourceTokenMethods, resourceTokenMethods } from './resource-tokens.js'
import { type RevokeError, revoke } from './revoke.js'
import { type RotateError, type RotateOptions, rotate } from './rotate.js'
import {
  type RequestRotation,
  type RotateRequest,
  type RotateRequestError,
  rotateRequest,
} from './rotate-request.js'
import { type ServiceAccountMethods, serviceAccountMethods } from './service-accounts.js'
import { type SudoError, sudo } from './sudo.js'
import { userLookup } from './user-lookup.js'
import { type Verification, type VerifyCode, type VerifyOptions, verify } from './verify.js'

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
 * A personal access token authority: every operation of GitLab's interface as a `ResultAsync` with
 * typed errors. Operations other than `authenticate` and `issueToken` act for a {@link Principal}
 * that `authenticate` returned.
 *
 * @example
 * ```ts
 * const principal = await authority.authenticate(request.headers.get('private-token'))
 * if (principal.isOk()) {
 *   const page = await authority.list(principal.value, { filter: { state: 'active' } })
 * }
 * ```
 */
export interface Authority extends ResourceTokenMethods, ServiceAccountMethods {
  /** Tokens found and revoked by their secret: a leaked-token runbook, GitLab's admin token API. */
  readonly admin: AdminTokenMethods
  /** The emulated GitLab release. */
  readonly release: Release
  /** The `userIdType` option: `'integer'` (GitLab's) unless configured. */
  readonly userIdType: UserIdType
  /**
   * The scopes a token may carry: the `scopes` option (an application's own vocabulary), or GitLab's
   * {@link SCOPES}. Frozen. The guards check the scopes they ask for against it when they are built.
   */
  readonly scopes: readonly string[]
  /** The authority's current instant (its injected clock), e.g. to render `active`. */
  now(): Date
  authenticate(
    secret: string | null | undefined,
    options?: AuthenticateOptions,
  ): ResultAsync<Principal, AuthenticateError>
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
   * await app.putUser({ id: '0b8f6c9e-5d2a-4f8e-9c1e-2f4a6b8d0e13', username: 'alice', admin: false, blocked: false })
   * const session = await app.asUser('0b8f6c9e-5d2a-4f8e-9c1e-2f4a6b8d0e13')
   * ```
   */
  asUser(userId: UserId): ResultAsync<SessionPrincipal, AsUserError>
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
   * The principal a request acts as when it names a user with `sudo` (GitLab's `sudo!`): an
   * administrator's token with the `sudo` scope acts as that user (id or username).
   */
  sudo(principal: Principal, identifier: string): ResultAsync<Principal, SudoError>
  /**
   * GitLab's `current_user` of an API request: its token authenticated, then the user it names with
   * `sudo`; `null` when it presents neither (each route decides whether it serves anonymous callers).
   * `write`: the request changes data, so it is decided on the token as the store holds it now, never
   * on a cached row. The one way `patkit/http` turns a request into a principal (a rotation excepted:
   * `rotateRequest` applies the same steps).
   *
   * @example
   * ```ts
   * const caller = await authority.requestPrincipal({ secret: request.headers.get('private-token'), sudo: request.headers.get('sudo') })
   * if (caller.isOk() && caller.value !== null) console.log(caller.value.user.username)
   * ```
   */
  requestPrincipal(
    credentials: RequestCredentials,
    options?: { readonly write?: boolean },
  ): ResultAsync<Principal | null, PrincipalError>
  /**
   * A rotate request (`POST /personal_access_tokens/self/rotate` or `/:id/rotate`) in one call: a retry
   * is replayed (`Idempotency-Key`, the grace window), else the secret is authenticated (a revoked
   * token is reuse), `sudo` is applied, and the token rotated; the secret is digested and looked up
   * once. See {@link RotateRequest} for the parameter errors a caller hands in.
   *
   * @example
   * ```ts
   * import { ok } from 'neverthrow'
   *
   * const rotated = await authority.rotateRequest({ secret, ref: ok('self'), idempotencyKey: 'retry-1' })
   * if (rotated.isOk()) console.log(rotated.value.secret, rotated.value.replayed)
   * ```
   */
  rotateRequest<E = never>(request: RotateRequest<E>): ResultAsync<RequestRotation, RotateRequestError | E>
  list(principal: Actor, request?: ListRequest): ResultAsync<TokenPage, ListError>
  get(principal: Actor, ref: TokenRef): ResultAsync<Token, GetError>
  rotate(principal: Actor, ref: TokenRef, options?: RotateOptions): ResultAsync<IssuedToken, RotateError>
  /**
   * A retried rotation (`Idempotency-Key`): the successor a `rotate` with the same old secret and key
   * stored, once, while redeemable; else `null`, and the request goes on through `authenticate`.
   * With `idempotencyKey` `null`, the grace window's receipt (`rotationGraceMs`; always `null`
   * without one).
   */
  replayRotation(
    secret: string | null | undefined,
    ref: TokenRef,
    idempotencyKey: string | null,
  ): ResultAsync<IssuedToken | null, ReplayError>
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
  /** One user's impersonation tokens (`GET /users/:user_id/impersonation_tokens`, administrators only). */
  listImpersonationTokens(
    principal: Principal,
    userId: number,
    request?: ImpersonationListRequest,
  ): ResultAsync<TokenPage, ImpersonationError>
  /** `POST /users/:user_id/impersonation_tokens` (administrators only). */
  createImpersonationToken(
    principal: Principal,
    userId: number,
    request: ImpersonationCreateRequest,
  ): ResultAsync<IssuedToken, ImpersonationError | ErrorOf<'token_revoked'>>
  /** `GET /users/:user_id/impersonation_tokens/:id` (administrators only). */
  getImpersonationToken(
    principal: Principal,
    userId: number,
    tokenId: number,
  ): ResultAsync<Token, ImpersonationError>
  /** `DELETE /users/:user_id/impersonation_tokens/:id` (administrators only). */
  revokeImpersonationToken(
    principal: Principal,
    userId: number,
    tokenId: number,
  ): ResultAsync<void, ImpersonationError | ErrorOf<'token_revoked'>>
  /** The caller (GitLab's `GET /user`). */
  currentUser(principal: Actor): ResultAsync<User, CurrentUserError>
  /** One user by id (`GET /users/:id`); `null` for an anonymous caller. */
  findUser(principal: Principal | null, id: UserId): ResultAsync<User, FindUserError>
  /** The users a `GET /users` query finds; `null` for an anonymous caller. */
  findUsers(principal: Principal | null, query: UsersQuery): ResultAsync<readonly User[], FindUsersError>
  /** The emulated release's `GET /metadata`. */
  metadata(principal: Principal): ResultAsync<InstanceMetadata, ErrorOf<'insufficient_scope'>>
  /**
   * Puts a token in place without authorization and without the expiry window (seeds, fixtures,
   * migrations: a past `expiresAt` seeds an expired token, a far one a long-lived fixture). Not for
   * an application's users: `createOwn` and `create` keep every check.
   */
  issueToken(input: IssueTokenInput): ResultAsync<IssuedToken, IssueError>
  /**
   * Adds or replaces a user in the store. A username GitLab would refuse (its format, 2 to 255
   * characters, a reserved name such as `admin`) is `bad_request` with GitLab's message, before the
   * store; one another user holds (in any case) is the store's failure.
   */
  putUser(user: User): ResultAsync<User, StoreFailure | UsernameError>
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
export function createAuthority(config: AuthorityConfig): Authority {
  return authorityOver(resolveAuthorityDeps(config))
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
export function resolveAuthorityDeps(config: AuthorityConfig): AuthorityDeps {
  const problem = authorityOptionProblem({
    tokenPrefix: config.tokenPrefix,
    tokenFormat: config.tokenFormat,
    release: config.release,
    requireExpiry: config.requireExpiry,
    adminMode: config.adminMode,
    maxLifetimeDays: config.maxLifetimeDays,
    rotationDefaultDays: config.rotationDefaultDays,
    scopes: config.scopes,
    lastUsedThrottleMs: config.lastUsedThrottleMs,
    rotationReplayWindowMs: config.rotationReplayWindowMs,
    rotationGraceMs: config.rotationGraceMs,
    userIdType: config.userIdType,
  })
  if (problem !== null) throw new AuthorityConfigError(`invalid option ${problem}`)
  if (config.pepper.length === 0) throw new AuthorityConfigError('invalid option pepper: must not be empty')
  const replay = resolveReplay(config)
  if (replay.isErr()) throw new AuthorityConfigError(replay.error)
  const grace = resolveGrace(config)
  if (grace.isErr()) throw new AuthorityConfigError(grace.error)
  const users = config.users ?? config.store
  const userIdType = config.userIdType ?? 'integer'
  const held = config.store.userIdType
  if (held !== undefined && held !== userIdType) {
    throw new AuthorityConfigError(userIdTypeMismatch(held, userIdType, config.userIdType === undefined))
  }
  const userById = userLookup(users, userIdType)
  if (userById === null) {
    throw new AuthorityConfigError(
      "invalid option userIdType: 'string' needs a user directory with findUserById (the users option, or the store)",
    )
  }
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
    digest: createDigester(config.pepper),
    release: config.release ?? LATEST_RELEASE,
    expiry: Object.freeze({
      requireExpiry: config.requireExpiry ?? true,
      maxLifetimeDays: config.maxLifetimeDays ?? DEFAULT_MAX_LIFETIME_DAYS,
      rotationDefaultDays: config.rotationDefaultDays ?? ROTATION_DEFAULT_DAYS,
    }),
    scopes: Object.freeze([...new Set(config.scopes ?? SCOPES)]),
    adminMode: config.adminMode ?? false,
    lastUsedThrottleMs: config.lastUsedThrottleMs ?? DEFAULT_LAST_USED_THROTTLE_MS,
    replay: replay.value,
    grace: grace.value,
    emit: isolate(config.onEvent),
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

/** The authority over resolved dependencies (see {@link resolveAuthorityDeps}). */
export function authorityOver(deps: AuthorityDeps): Authority {
  const authority: Authority = {
    release: deps.release,
    userIdType: deps.userIdType,
    scopes: deps.scopes,
    now: () => deps.clock.now(),
    authenticate: (secret, opts = NO_OPTIONS) => authenticate(deps, secret, opts),
    sudo: (principal, identifier) => sudo(deps, principal, identifier),
    requestPrincipal: (credentials, opts) => requestPrincipal(deps, credentials, opts?.write === true),
    rotateRequest: (request) => rotateRequest(deps, request),
    list: (principal, request = {}) => listTokens(deps, principal, request),
    get: (principal, ref) => getToken(deps, principal, ref),
    // Every write first asks whether a token in its grace period presents it: it reads, never writes.
    rotate: (principal, ref, opts = {}) =>
      refuseGracedWrite(principal, ref) ?? rotate(deps, principal, ref, opts),
    replayRotation: (secret, ref, idempotencyKey) => replayRotation(deps, secret, ref, idempotencyKey),
    revoke: (principal, ref) => refuseGracedWrite(principal) ?? revoke(deps, principal, ref),
    create: (principal, target, request) =>
      refuseGracedWrite(principal) ?? create(deps, principal, target, request),
    createOwn: (principal, request) => refuseGracedWrite(principal) ?? createOwn(deps, principal, request),
    asUser: (userId) => asUser(deps, userId),
    verify: (secret, opts = {}) => verify(deps, secret, opts),
    listImpersonationTokens: (principal, userId, request = {}) =>
      listImpersonationTokens(deps, principal, userId, request),
    createImpersonationToken: (principal, userId, request) =>
      refuseGracedWrite(principal) ?? createImpersonationToken(deps, principal, userId, request),
    getImpersonationToken: (principal, userId, tokenId) =>
      getImpersonationToken(deps, principal, userId, tokenId),
    revokeImpersonationToken: (principal, userId, tokenId) =>
      refuseGracedWrite(principal) ?? revokeImpersonationToken(deps, principal, userId, tokenId),
    currentUser: (principal) => currentUser(principal),
    findUser: (principal, id) => findUser(deps, principal, id),
    findUsers: (principal, query) => findUsers(deps, principal, query),
    metadata: (principal) => readInstanceMetadata(deps.release, principal),
    issueToken: (input) => issueToken(deps, input),
    putUser: (user) => {
      const checked = checkUsername(user.username)
      return checked.isErr() ? errAsync(checked.error) : deps.store.putUser(user)
    },
    ...resourceTokenMethods(deps),
    ...serviceAccountMethods(deps),
    admin: adminTokenMethods(deps),
  }
  return Object.freeze(authority)
}
