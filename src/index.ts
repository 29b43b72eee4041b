/**
 * patkit: an embeddable GitLab personal access token authority. This entry point is what an embedder
 * needs to create an authority, call it and read its answers: `createAuthority` and its
 * configuration, the callers (`Principal`), the tokens and users it answers, its errors as data and
 * its events. The rest has a subpath of its own: the option and request types of every method, the
 * defaults and expiry notices in `patkit/authority`; releases, features and the deprecation schedule
 * in `patkit/releases`; the store port, digests and list query helpers in `patkit/store`.
 * @packageDocumentation
 */

export type { AuthorityError } from './authority/authority-error.js'
export type { AuthorityConfig } from './authority/core/config.js'
export type { AuthorityEvent, TokenInfo } from './authority/core/events.js'
export type { IssuedToken } from './authority/core/issued-token.js'
export type { TokenPage } from './authority/core/list-tokens.js'
export type { Actor, Principal, SessionPrincipal, TokenRef } from './authority/core/principal.js'
export { type Verification, VerifyCode } from './authority/core/verify.js'
export { type Authority, AuthorityConfigError, createAuthority } from './authority/create-authority.js'
export type { Clock } from './domain/clock.js'
export { type ErrorCode, type ErrorOf, ErrorType, type PatkitError } from './domain/errors.js'
export type { RandomSource } from './domain/random.js'
export { SCOPES, type Scope } from './domain/scopes.js'
export { isActive, isExpired, type Token } from './domain/token.js'
export type { UserId } from './domain/user-id.js'
export type { User } from './store/user.js'
