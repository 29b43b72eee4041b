import { err, ok, type Result } from 'neverthrow'
import { badRequest, notFound, unauthorized } from '../../domain/error-constructors.js'
import type { ErrorOf, StoreFailure } from '../../domain/errors.js'
import type { Token } from '../../domain/token.js'
import type { AuthorityDeps } from './deps.js'
import { type Actor, actsAsAdmin } from './principal.js'

// GitLab's two rules for acting on a token by id, in one place. They answer whoever is not allowed as
// GitLab answers a non-administrator, so a session principal (never an administrator) gets exactly
// what a non-administrator's token gets (docs/embedding.md, "A token that is not its user's"):
// - read and rotate (UserPolicy, manage_user_personal_access_token): a missing token and another
//   user's look the same, `unauthorized` (401); an administrator learns it is missing (404);
// - revoke (PersonalAccessTokenPolicy, revoke_token): a missing token is `not_found` for everyone,
//   another user's token or one's own impersonation token a bare `bad_request` (400).

/**
 * A rule for acting on a token found by id, as data: what a missing token answers, and what a token
 * the caller may not act on answers (`null`: it may). Every "find a token by id and check its owner"
 * of the authority is {@link findTokenBy} with its rule.
 */
export interface TokenRule<E> {
  readonly missing: E
  refuse(token: Token): E | null
}

/** The token with `id` when `rule` lets the caller act on it; else the rule's answer. One store read. */
export async function findTokenBy<E>(
  deps: AuthorityDeps,
  id: number,
  rule: TokenRule<E>,
): Promise<Result<Token, E | StoreFailure>> {
  const found = await deps.store.findById(id)
  if (found.isErr()) return err(found.error)
  return checkToken(found.value, rule)
}

/** {@link findTokenBy}'s rule on a token already read from the store (`null`: none has the id). */
export function checkToken<E>(token: Token | null, rule: TokenRule<E>): Result<Token, E> {
  if (token === null) return err(rule.missing)
  const refused = rule.refuse(token)
  return refused === null ? ok(token) : err(refused)
}

/** A rule whose every refusal, a missing token's included, is `answer`: only `admits` passes. */
export function onlyTokens<E>(answer: E, admits: (token: Token) => boolean): TokenRule<E> {
  return { missing: answer, refuse: (token) => (admits(token) ? null : answer) }
}

/**
 * The rule to read or rotate a token: the principal's own, or any for an administrator. A missing
 * or foreign token looks the same to a non-administrator (401); an administrator learns it is
 * missing (404). This is GitLab's user-level check, so a user's own impersonation token passes.
 */
export function accessRule(principal: Actor): TokenRule<ErrorOf<'unauthorized' | 'not_found'>> {
  const admin = actsAsAdmin(principal)
  return onlyTokens(
    admin ? notFound('token') : unauthorized(),
    (token) => admin || token.userId === principal.user.id,
  )
}

/** Loads a token the principal may read or rotate ({@link accessRule}). */
export function findAccessibleToken(
  deps: AuthorityDeps,
  principal: Actor,
  id: number,
): Promise<Result<Token, ErrorOf<'unauthorized' | 'not_found' | 'store_failure'>>> {
  return findTokenBy(deps, id, accessRule(principal))
}

/**
 * GitLab's revoke permission: an administrator, or the owner of a token that is not an impersonation
 * token.
 */
export function mayRevoke(principal: Actor, token: Token): boolean {
  return actsAsAdmin(principal) || (token.userId === principal.user.id && !token.impersonation)
}

/**
 * Loads a token the principal may revoke ({@link mayRevoke}): a missing one is `not_found` for
 * everyone, any other refusal a bare `bad_request` (GitLab's 400, not 401/403).
 */
export function findRevocableToken(
  deps: AuthorityDeps,
  principal: Actor,
  id: number,
): Promise<Result<Token, ErrorOf<'bad_request' | 'not_found' | 'store_failure'>>> {
  return findTokenBy<ErrorOf<'bad_request' | 'not_found'>>(deps, id, {
    missing: notFound('token'),
    refuse: (token) => (mayRevoke(principal, token) ? null : badRequest()),
  })
}
