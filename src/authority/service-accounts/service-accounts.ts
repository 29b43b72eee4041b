import { err, ok, type Result, ResultAsync } from 'neverthrow'
import type { ErrorOf, StoreFailure } from '../../domain/errors.js'
import type { User } from '../../store/user.js'
import type { CreateRequest } from '../core/create.js'
import type { AuthorityDeps } from '../core/deps.js'
import type { IssuedToken } from '../core/issued-token.js'
import type { ListRequest, TokenPage } from '../core/list-tokens.js'
import type { MintError } from '../core/mint.js'
import type { Actor } from '../core/principal.js'
import type { RotateError } from '../core/rotate.js'
import { READ_SCOPES, WRITE_SCOPES } from '../core/scope-policy.js'
import {
  groupAccount,
  type ServiceAccountAccessError,
  serviceAccountGroup,
} from './service-account-access.js'
import {
  createAccountToken,
  listAccountTokens,
  revokeAccountToken,
  rotateAccountToken,
} from './service-account-tokens.js'
import {
  createServiceAccount,
  deleteServiceAccount,
  listServiceAccounts,
  requireAdministrator,
  type ServiceAccountOrder,
  type ServiceAccountRequest,
  type ServiceAccountUserError,
} from './service-account-users.js'

export type { ServiceAccountOrder, ServiceAccountRequest } from './service-account-users.js'

/**
 * Every way a service account operation fails: the scope, `404 Group Not Found`, 403 for a caller
 * who is neither an administrator nor the top-level group's Owner, `404 User Not Found`, `400 User is
 * not of type Service Account`, then the operation's own errors. `token_revoked`: the caller's token
 * is in its grace period (`rotationGraceMs`), which may not write.
 */
export type ServiceAccountError =
  | ServiceAccountAccessError
  | ServiceAccountUserError
  | MintError
  | RotateError
  | ErrorOf<'conflict' | 'token_revoked'>
  | StoreFailure

/**
 * GitLab's service accounts (EE), `authority.serviceAccounts`: the instance's (`/service_accounts`,
 * administrators only) and a top-level group's (`/groups/:id/service_accounts`, its Owners and
 * administrators), with the group accounts' personal access tokens. `groupRef` is the group's id or
 * full path, as `:id`.
 *
 * @example
 * ```ts
 * const account = await authority.serviceAccounts.createInGroup(principal, 'acme', { name: 'CI', username: 'ci-bot' })
 * if (account.isOk() && typeof account.value.id === 'number') {
 *   await authority.serviceAccounts.createToken(principal, 'acme', account.value.id, { name: 'deploy', scopes: ['api'] })
 * }
 * ```
 */
export interface ServiceAccountMethods {
  /**
   * The checks every service account route makes before it reads its parameters (GitLab's `before`
   * block, which Grape runs before validating them): the scope (`read`: `api` or `read_api`;
   * `write`: `api`), then the group (`groupRef`; `null` for the instance routes, administrators
   * only) and the caller's right to manage its accounts. The HTTP binding asks it to answer a
   * request with an invalid parameter in GitLab's order; every other method makes the same checks.
   */
  access(
    caller: Actor,
    groupRef: string | null,
    access: 'read' | 'write',
  ): ResultAsync<void, ServiceAccountError>
  /** `POST /service_accounts`: an instance-wide service account (administrators only). */
  create(caller: Actor, request: ServiceAccountRequest): ResultAsync<User, ServiceAccountError>
  /** `GET /service_accounts`: the instance-wide service accounts, ordered (administrators only). */
  list(caller: Actor, order: ServiceAccountOrder): ResultAsync<readonly User[], ServiceAccountError>
  /** `POST /groups/:id/service_accounts`. */
  createInGroup(
    caller: Actor,
    groupRef: string,
    request: ServiceAccountRequest,
  ): ResultAsync<User, ServiceAccountError>
  /** `GET /groups/:id/service_accounts`: the accounts the group provisioned, ordered. */
  listInGroup(
    caller: Actor,
    groupRef: string,
    order: ServiceAccountOrder,
  ): ResultAsync<readonly User[], ServiceAccountError>
  /**
   * `DELETE /groups/:id/service_accounts/:user_id`: the account is blocked and its tokens revoked
   * (GitLab removes the user); 409 when it solely owns a group, unless `hardDelete`.
   */
  deleteFromGroup(
    caller: Actor,
    groupRef: string,
    userId: number,
    options: { readonly hardDelete: boolean },
  ): ResultAsync<void, ServiceAccountError>
  /** `GET /groups/:id/service_accounts/:user_id/personal_access_tokens`, with the token list's filters. */
  listTokens(
    caller: Actor,
    groupRef: string,
    userId: number,
    request: Omit<ListRequest, 'userRef'>,
  ): ResultAsync<TokenPage, ServiceAccountError>
  /** `POST /groups/:id/service_accounts/:user_id/personal_access_tokens`. */
  createToken(
    caller: Actor,
    groupRef: string,
    userId: number,
    request: CreateRequest,
  ): ResultAsync<IssuedToken, ServiceAccountError>
  /** `DELETE /groups/:id/service_accounts/:user_id/personal_access_tokens/:token_id`. */
  revokeToken(
    caller: Actor,
    groupRef: string,
    userId: number,
    tokenId: number,
  ): ResultAsync<void, ServiceAccountError>
  /** `POST /groups/:id/service_accounts/:user_id/personal_access_tokens/:token_id/rotate`. */
  rotateToken(
    caller: Actor,
    groupRef: string,
    userId: number,
    tokenId: number,
    options: { readonly expiresAt?: string },
  ): ResultAsync<IssuedToken, ServiceAccountError>
}

type Answer<T> = ResultAsync<T, ServiceAccountError>
const run = <T>(steps: () => Promise<Result<T, ServiceAccountError>>): Answer<T> => new ResultAsync(steps())

/** `serviceAccounts.access`. */
export function serviceAccountAccess(
  deps: AuthorityDeps,
  caller: Actor,
  groupRef: string | null,
  access: 'read' | 'write',
): Answer<void> {
  return run(async () => {
    const scopes = access === 'read' ? READ_SCOPES : WRITE_SCOPES
    if (groupRef === null) return requireAdministrator(caller, scopes)
    const group = await serviceAccountGroup(deps, caller, groupRef, scopes)
    return group.isErr() ? err(group.error) : ok(undefined)
  })
}

/** `serviceAccounts.create`. */
export function createInstanceAccount(
  deps: AuthorityDeps,
  caller: Actor,
  request: ServiceAccountRequest,
): Answer<User> {
  return run(async () => {
    const allowed = requireAdministrator(caller, WRITE_SCOPES)
    return allowed.isErr() ? err(allowed.error) : createServiceAccount(deps, request, null)
  })
}

/** `serviceAccounts.list`. */
export function listInstanceAccounts(
  deps: AuthorityDeps,
  caller: Actor,
  order: ServiceAccountOrder,
): Answer<readonly User[]> {
  return run(async () => {
    const allowed = requireAdministrator(caller, READ_SCOPES)
    return allowed.isErr() ? err(allowed.error) : listServiceAccounts(deps, null, order)
  })
}

/** `serviceAccounts.createInGroup`. */
export function createGroupAccount(
  deps: AuthorityDeps,
  caller: Actor,
  groupRef: string,
  request: ServiceAccountRequest,
): Answer<User> {
  return run(async () => {
    const group = await serviceAccountGroup(deps, caller, groupRef, WRITE_SCOPES)
    return group.isErr() ? err(group.error) : createServiceAccount(deps, request, group.value)
  })
}

/** `serviceAccounts.listInGroup`. */
export function listGroupAccounts(
  deps: AuthorityDeps,
  caller: Actor,
  groupRef: string,
  order: ServiceAccountOrder,
): Answer<readonly User[]> {
  return run(async () => {
    const group = await serviceAccountGroup(deps, caller, groupRef, READ_SCOPES)
    return group.isErr() ? err(group.error) : listServiceAccounts(deps, group.value, order)
  })
}

/** `serviceAccounts.deleteFromGroup`. */
export function deleteGroupAccount(
  deps: AuthorityDeps,
  caller: Actor,
  groupRef: string,
  userId: number,
  hardDelete: boolean,
): Answer<void> {
  return run(async () => {
    const found = await groupAccount(deps, caller, groupRef, userId, WRITE_SCOPES)
    return found.isErr()
      ? err(found.error)
      : deleteServiceAccount(deps, caller, found.value.account, hardDelete)
  })
}

/** `serviceAccounts.listTokens`. */
export function listGroupAccountTokens(
  deps: AuthorityDeps,
  caller: Actor,
  groupRef: string,
  userId: number,
  request: Omit<ListRequest, 'userRef'>,
): Answer<TokenPage> {
  return run(async () => {
    const found = await groupAccount(deps, caller, groupRef, userId, READ_SCOPES)
    return found.isErr() ? err(found.error) : listAccountTokens(deps, found.value.account, request)
  })
}

/** `serviceAccounts.createToken`. */
export function createGroupAccountToken(
  deps: AuthorityDeps,
  caller: Actor,
  groupRef: string,
  userId: number,
  request: CreateRequest,
): Answer<IssuedToken> {
  return run(() => createAccountToken(deps, caller, { groupRef, userId }, request))
}

/** `serviceAccounts.revokeToken`. */
export function revokeGroupAccountToken(
  deps: AuthorityDeps,
  caller: Actor,
  groupRef: string,
  userId: number,
  tokenId: number,
): Answer<void> {
  return run(async () => {
    const found = await groupAccount(deps, caller, groupRef, userId, WRITE_SCOPES)
    return found.isErr() ? err(found.error) : revokeAccountToken(deps, caller, found.value.account, tokenId)
  })
}

/** `serviceAccounts.rotateToken`. */
export function rotateGroupAccountToken(
  deps: AuthorityDeps,
  caller: Actor,
  groupRef: string,
  userId: number,
  tokenId: number,
  expiresAt: string | undefined,
): Answer<IssuedToken> {
  return run(async () => {
    const found = await groupAccount(deps, caller, groupRef, userId, WRITE_SCOPES)
    if (found.isErr()) return err(found.error)
    const rotated = await rotateAccountToken(deps, caller, found.value.account, tokenId, expiresAt)
    return rotated.isErr() ? err(rotated.error) : ok(rotated.value)
  })
}
