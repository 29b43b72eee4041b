import { err, ok, type Result, ResultAsync } from 'neverthrow'
import { forbidden, tokenExpired, tokenRevoked, unauthenticated } from '../../domain/error-constructors.js'
import type { ErrorOf, StoreFailure } from '../../domain/errors.js'
import { type LastUsed, nextLastUsed, withLastUsed } from '../../domain/last-used.js'
import { checkRoutableSecret } from '../../domain/routable-token.js'
import { isExpired, type Token } from '../../domain/token.js'
import { settledResult, settledResultAsync } from '../../store/settled.js'
import type { TokenWithUser } from '../../store/token-store.js'
import type { User } from '../../store/user.js'
import { USER_BLOCKED } from './as-user.js'
import type { AuthorityDeps } from './deps.js'
import { toTokenInfo } from './events.js'
import { type GraceDeps, withinGrace } from './grace-window.js'
import type { Principal } from './principal.js'
import { hasFeature } from './release.js'

/**
 * How a request presents its token. `rotateRequest` marks a rotation (`/:id/rotate` or
 * `/self/rotate`): only then does a revoked token trigger reuse detection. `write` marks any other
 * request that changes data (a revocation, a creation): like a rotation, it is decided on the token
 * as the store holds it now, never on a row a cache remembers (docs/storage.md). `ip` is the client's
 * address, recorded in the token's `last_used_ips` as GitLab's LastUsedService does (absent: none).
 *
 * @example
 * ```ts
 * await authority.authenticate(secret, { rotateRequest: true, ip: '203.0.113.7' })
 * await authority.authenticate(secret, { write: true }) // before a revocation
 * ```
 */
export interface AuthenticateOptions {
  readonly rotateRequest?: boolean
  readonly write?: boolean
  readonly ip?: string | null
}

/** Every way authentication can fail. */
export type AuthenticateError = ErrorOf<
  'unauthenticated' | 'token_expired' | 'token_revoked' | 'forbidden' | 'store_failure'
>

/**
 * Secret to principal, in GitLab's order: unknown token or missing owner (401), then expired, then
 * revoked (401), then a blocked owner (403 `Your account has been blocked.`, GitLab's
 * `api_access_allowed?`, checked after the token). A revoked token presented to a rotation revokes
 * the tokens rotated from it (reuse detection) and the call still fails as revoked. Success records
 * `lastUsedAt` and the client `ip`, throttled as GitLab's LastUsedService. With a grace window
 * (`rotationGraceMs`), a revoked token inside it (`withinGrace`) authenticates instead, reuse
 * detection not involved. With `adminMode`, an administrator's token without the `admin_mode` scope
 * acts as a regular user (GitLab's `can_admin_all_resources?`): the principal's `user.admin` is false.
 */
export function authenticate(
  deps: AuthorityDeps,
  secret: string | null | undefined,
  options: AuthenticateOptions,
): ResultAsync<Principal, AuthenticateError> {
  const refused = refuseSecret(deps, secret)
  if (refused !== null || typeof secret !== 'string') {
    return settledResultAsync(err(refused ?? unauthenticated('missing')))
  }
  const decided = principalFor(deps, secret, options)
  // Decided without waiting (the store held the answer in memory, nothing to write): handed over
  // settled, so that a caller able to go on at once does (the HTTP pipeline, `settledResult`).
  return decided instanceof Promise ? new ResultAsync(decided) : settledResultAsync(decided)
}

/**
 * Why a presented secret is refused before any lookup: none given, or a routable token's tail with a
 * wrong checksum (a typo, a truncation, a forgery); `null` for a secret to look up (secrets of other
 * formats, seeds and legacy ones, are looked up as usual).
 */
export function refuseSecret(
  deps: AuthorityDeps,
  secret: string | null | undefined,
): ErrorOf<'unauthenticated'> | null {
  if (secret === null || secret === undefined || secret === '') return unauthenticated('missing')
  return checkRoutableSecret(secret, deps.prefix) === 'malformed' ? unauthenticated('malformed') : null
}

/** What authentication decides: the principal, or why there is none. */
export type Authenticated = Result<Principal, AuthenticateError>

/** The presented token with its owner, as {@link findPresented} answers: settled when the store had it in memory. */
export type PresentedLookup =
  | Promise<Result<TokenWithUser | null, StoreFailure>>
  | ResultAsync<TokenWithUser | null, StoreFailure>

// The hot path waits for nothing: the store's answer goes straight to `principalFrom`, which decides
// synchronously unless it must write (reuse detection, `lastUsedAt`). An async function here would
// await the store's ResultAsync as a thenable and then be awaited itself: three more microtask turns
// and a generator on every request (docs/benchmarks.md, target 1).
function principalFor(
  deps: AuthorityDeps,
  secret: string,
  options: AuthenticateOptions,
): Authenticated | Promise<Authenticated> {
  try {
    const now = deps.clock.now()
    // A write decides (reuse detection, the token it rotates or revokes) on the row as stored now.
    const found = findPresented(
      deps,
      deps.digest(secret),
      options.rotateRequest === true || options.write === true,
    )
    // A store holding the answer in memory hands it over settled: decided now, no turn to wait for.
    const known = found instanceof Promise ? undefined : settledResult(found)
    if (known !== undefined) return principalFrom(deps, known, now, options)
    return Promise.resolve<Authenticated>(
      found.then<Authenticated, never>((result) => principalFrom(deps, result, now, options)),
    )
  } catch (cause) {
    // As from an async function: a throwing clock, digester or store rejects, it does not throw.
    return Promise.reject(cause)
  }
}

/**
 * Authentication's decision on the presented token as the store answered it (see
 * {@link authenticate}), shared with the rotate request, which looks the token up once for its replay
 * and its authentication.
 */
export function principalFrom(
  deps: AuthorityDeps,
  found: Result<TokenWithUser | null, StoreFailure>,
  now: Date,
  options: AuthenticateOptions,
): Authenticated | Promise<Authenticated> {
  if (found.isErr()) return err(found.error)
  if (found.value === null) return err(unauthenticated('unknown'))
  const { token, user } = found.value
  if (user === null) return err(unauthenticated('user_inactive'))
  if (isExpired(token, now)) return err(tokenExpired(token.id))
  if (token.revoked) {
    // The grace window (off by default) lets the immediate predecessor of a fresh rotation work on.
    return deps.grace === null
      ? refuseRevoked(deps, token, now, options)
      : graceOrRefuse(deps, deps.grace, user, token, now, options)
  }
  return activePrincipal(deps, user, token, now, options.ip ?? null)
}

/**
 * An active token's principal: as read, or with its use recorded (`lastUsedAt`, the client `ip`) when
 * GitLab's LastUsedService rule (`nextLastUsed`) says the store's conditional write can change
 * anything: the stored values never move back, so the rule applied to the values just read spares a
 * store round trip on almost every request, as GitLab checks the loaded token before updating.
 */
function activePrincipal(
  deps: AuthorityDeps,
  user: User,
  token: Token,
  now: Date,
  ip: string | null,
): Authenticated | Promise<Authenticated> {
  // GitLab records the use (LastUsedService) before it checks the owner's access.
  const next = nextLastUsed(token, now, deps.lastUsedThrottleMs, ip)
  if (next === null) return principalOf(deps, user, token)
  return touchThenPrincipal(deps, user, token, now, ip, next)
}

/** The principal once the token passed: 403 for a blocked owner (after the token's checks, as GitLab). */
function principalOf(deps: AuthorityDeps, user: User, token: Token): Authenticated {
  if (user.blocked) return err(forbidden(USER_BLOCKED))
  return ok(actingAs(user, token, deps.adminMode))
}

/** A revoked token inside the grace window authenticates as an active one; any other is refused. */
async function graceOrRefuse(
  deps: AuthorityDeps,
  grace: GraceDeps,
  user: User,
  token: Token,
  now: Date,
  options: AuthenticateOptions,
): Promise<Authenticated> {
  const graced = await withinGrace(grace, token, now)
  if (graced.isErr()) return err(graced.error)
  return graced.value
    ? activePrincipal(deps, user, token, now, options.ip ?? null)
    : refuseRevoked(deps, token, now, options)
}

/** A revoked token: refused, after reuse detection when it was presented to a rotation. */
function refuseRevoked(
  deps: AuthorityDeps,
  token: Token,
  now: Date,
  options: AuthenticateOptions,
): Authenticated | Promise<Authenticated> {
  if (options.rotateRequest === true && hasFeature('reuse_detection', deps.release)) {
    return detectReuse(deps, token, now)
  }
  return err(tokenRevoked(token.id))
}

/** A revoked token presented to a rotation: its descendants are revoked, and the call fails as revoked. */
async function detectReuse(deps: AuthorityDeps, token: Token, now: Date): Promise<Authenticated> {
  const revoked = await deps.store.revokeDescendants(token.id, now)
  if (revoked.isErr()) return err(revoked.error)
  deps.emit({
    type: 'reuse_detected',
    at: now,
    presented: toTokenInfo(token),
    revoked: revoked.value.map(toTokenInfo),
  })
  return err(tokenRevoked(token.id))
}

/**
 * Records the use (the store applies the same rule atomically) and answers the principal with it; when
 * the store fails to record it, the principal without it and a `last_used_write_failed` event.
 */
async function touchThenPrincipal(
  deps: AuthorityDeps,
  user: User,
  token: Token,
  now: Date,
  ip: string | null,
  next: LastUsed,
): Promise<Authenticated> {
  const touched = await deps.store.touchLastUsed(token.id, now, deps.lastUsedThrottleMs, ip)
  if (touched.isErr()) {
    // A last-used write never fails an authenticated request: it is dropped, and the event says so.
    deps.emit({ type: 'last_used_write_failed', at: now, token: toTokenInfo(token), failure: touched.error })
    return principalOf(deps, user, token)
  }
  const current = touched.value ? withLastUsed(token, next) : token
  if (touched.value) deps.emit({ type: 'used', at: now, token: toTokenInfo(current) })
  return principalOf(deps, user, current)
}

/**
 * The principal of a user and a token, as the request acts: with admin mode on, an administrator is
 * one only through a token with the `admin_mode` scope (GitLab bypasses the session's admin mode
 * for such a token alone); otherwise `user.admin` is false and `inactiveAdmin` tells the user is one.
 */
export function actingAs(user: User, token: Token, adminMode: boolean): Principal {
  if (!adminMode || !user.admin || token.scopes.includes('admin_mode')) return { user, token }
  return { user: { ...user, admin: false }, token, inactiveAdmin: true }
}

/**
 * The presented token with its owner. For authentication alone, a cache may answer from memory
 * ({@link findWithOwner}); for a decision (a rotation request, any other write) the row is read as the
 * store holds it now (docs/storage.md: only authentication may be answered from a cached row), with
 * `findFreshByDigest`.
 */
export function findPresented(deps: AuthorityDeps, digest: string, decision: boolean): PresentedLookup {
  if (!decision) return findWithOwner(deps, digest)
  const found = deps.store.findFreshByDigest(digest)
  return deps.usersFromStore ? found : ownerFromDirectory(deps, found)
}

/** The token with a digest and its owner: one joined lookup when the store is the user directory. */
export function findWithOwner(deps: AuthorityDeps, digest: string): PresentedLookup {
  return deps.usersFromStore ? deps.store.findByDigestWithUser(digest) : tokenThenOwner(deps, digest)
}

// A separate user directory: the store's fresh token, its owner from the directory.
async function ownerFromDirectory(
  deps: AuthorityDeps,
  found: ResultAsync<TokenWithUser | null, StoreFailure>,
): Promise<Result<TokenWithUser | null, StoreFailure>> {
  const read = await found
  return read.isErr() ? read : withOwner(deps, read.value?.token ?? null)
}

/** The token with a digest and its owner in two calls, `findByDigest` then the owner by id from a separate user directory. */
async function tokenThenOwner(
  deps: AuthorityDeps,
  digest: string,
): Promise<Result<TokenWithUser | null, StoreFailure>> {
  const found = await deps.store.findByDigest(digest)
  return found.isErr() ? err(found.error) : withOwner(deps, found.value)
}

/** A token and its owner as the user directory has it (`null` when there is no token). */
async function withOwner(
  deps: AuthorityDeps,
  token: Token | null,
): Promise<Result<TokenWithUser | null, StoreFailure>> {
  if (token === null) return ok(null)
  const owner = await deps.userById(token.userId)
  return owner.isErr() ? err(owner.error) : ok({ token, user: owner.value })
}
