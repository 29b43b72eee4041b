import { FEATURES } from '../authority/core/release.js'
import type { PatkitError } from '../domain/errors.js'

/**
 * Why the fake refused a request, as its journal entry says it: a stable `code` and a sentence
 * (`message`), with the data the sentence names. Never the presented secret, nor anything derived
 * from it: an unknown token's `closest` is a token the fake knows (its id and the prefix it showed
 * when it was issued), never the presented one.
 *
 * - `no_token`: no token presented, on a route that needs one;
 * - `malformed_token`: a routable token whose checksum is wrong (a typo, a truncation), refused before any
 *   lookup; `closest` as for `unknown_token`;
 * - `unknown_token`: no token has that secret; `closest` is the known token whose prefix shares the most with it;
 * - `owner_gone`: the token's owner does not exist;
 * - `token_expired`: `expiresOn` is the day it expired;
 * - `token_revoked`: `revokedBy` says how (`revoke`, `rotation`, `reuse_detection` of `familyId`, or
 *   `unknown` when the journal no longer holds the event);
 * - `insufficient_scope`: `required` are the scopes the route accepts, `scopes` the token's;
 * - `insufficient_granular_scope`: a fine-grained token lacks `missing` (assignable permissions) at
 *   `boundary`; `boundary` `null` and `missing` empty when the route takes no fine-grained token;
 * - `blocked_owner`: the token's owner is blocked;
 * - `admin_mode`: Admin Mode is on and the administrator's token has no `admin_mode` scope, so it acts as a regular user;
 * - `not_in_release`: the route exists from GitLab `since` on, and the fake emulates `release`;
 * - `fault`: the fault rule `faultId` answered instead of the API;
 * - `refused`: another typed error of the API (`error` is its type: `not_found`, `bad_request`, ...);
 * - `answer`: an answer of 400 or more without a typed error (an unknown path, 405, a malformed request).
 *
 * @example
 * ```ts
 * import type { RefusalReason } from 'patkit/fake'
 *
 * const reason: RefusalReason = {
 *   code: 'token_revoked', message: 'token 4 was revoked by a rotation', tokenId: 4,
 *   revokedBy: 'rotation', familyId: 3,
 * }
 * ```
 */
export type RefusalReason =
  | { readonly code: 'no_token'; readonly message: string }
  | {
      readonly code: 'malformed_token'
      readonly message: string
      readonly closest: { readonly tokenId: number; readonly prefix: string } | null
    }
  | {
      readonly code: 'unknown_token'
      readonly message: string
      readonly closest: { readonly tokenId: number; readonly prefix: string } | null
    }
  | { readonly code: 'owner_gone'; readonly message: string; readonly tokenId: number | null }
  | {
      readonly code: 'token_expired'
      readonly message: string
      readonly tokenId: number
      readonly expiresOn: string | null
    }
  | {
      readonly code: 'token_revoked'
      readonly message: string
      readonly tokenId: number
      readonly revokedBy: RevokedBy
      readonly familyId: number | null
    }
  | {
      readonly code: 'insufficient_scope'
      readonly message: string
      readonly tokenId: number | null
      readonly required: readonly string[]
      readonly scopes: readonly string[]
    }
  | {
      readonly code: 'insufficient_granular_scope'
      readonly message: string
      readonly tokenId: number | null
      readonly boundary: 'user' | 'instance' | 'project' | 'group' | null
      readonly missing: readonly string[]
    }
  | { readonly code: 'blocked_owner'; readonly message: string; readonly userId: number | null }
  | {
      readonly code: 'admin_mode'
      readonly message: string
      readonly tokenId: number
      readonly userId: number
    }
  | {
      readonly code: 'not_in_release'
      readonly message: string
      readonly since: string
      readonly release: string
    }
  | { readonly code: 'fault'; readonly message: string; readonly faultId: string }
  | { readonly code: 'refused'; readonly message: string; readonly error: string }
  | { readonly code: 'answer'; readonly message: string }

/**
 * How a revoked token came to be revoked: a revocation (`DELETE`), a rotation (the rotated token), reuse
 * detection (a rotated token presented again revoked the rest of its family), or `unknown` once the
 * journal no longer holds the event.
 *
 * @example
 * ```ts
 * import type { RevokedBy } from 'patkit/fake'
 * const by: RevokedBy = 'reuse_detection'
 * ```
 */
export type RevokedBy = 'revoke' | 'rotation' | 'reuse_detection' | 'unknown'

/**
 * Every {@link RefusalReason} code, in the order the docs list them.
 *
 * @example
 * ```ts
 * import { REFUSAL_CODES } from 'patkit/fake'
 * REFUSAL_CODES.includes('token_revoked') // true
 * ```
 */
export const REFUSAL_CODES = [
  'no_token',
  'malformed_token',
  'unknown_token',
  'owner_gone',
  'token_expired',
  'token_revoked',
  'insufficient_scope',
  'insufficient_granular_scope',
  'blocked_owner',
  'admin_mode',
  'not_in_release',
  'fault',
  'refused',
  'answer',
] as const satisfies readonly RefusalReason['code'][]

/** What the fake knows of the presented token when it explains a refusal. */
export interface PresentedToken {
  readonly id: number
  readonly userId: number | null
  readonly scopes: readonly string[]
  readonly expiresAt: string | null
  readonly familyId: number | null
  /** Whether it is a fine-grained token; `false` for a legacy one (absent: unknown). */
  readonly granular?: boolean
}

/** What {@link refusalReason} explains a refusal from. */
export interface RefusalFacts {
  /** The answer's status, and the text of its `message` or `error`, if it had one. */
  readonly status: number
  readonly answerText: string | null
  /** The typed error the API refused with (`HandlerOptions.onRefusal`), if it did. */
  readonly error: PatkitError | null
  /** The fault rule that answered instead of the API. */
  readonly faultId: string | null
  readonly token: PresentedToken | null
  /** The known token closest to an unknown presented one. */
  readonly closest: { readonly tokenId: number; readonly prefix: string } | null
  /** How a revoked token was revoked, and the family of a reuse detection. */
  readonly revokedBy: RevokedBy
  /** Admin Mode is on and the token's owner is an administrator acting without `admin_mode`. */
  readonly inactiveAdmin: boolean
}

const BY_WORDS: Readonly<Record<RevokedBy, string>> = {
  revoke: 'by a revocation',
  rotation: 'by a rotation (it was rotated, and a rotated token stops working)',
  reuse_detection: 'by reuse detection',
  unknown: '(the journal no longer holds how)',
}

function closestWords(facts: RefusalFacts): string {
  return facts.closest === null
    ? 'no known token starts like it'
    : `the closest known token is ${facts.closest.tokenId} (${facts.closest.prefix}…)`
}

function unauthenticatedReason(facts: RefusalFacts, reason: string | undefined): RefusalReason {
  if (reason === 'missing')
    return { code: 'no_token', message: 'no token was presented, and the route needs one' }
  if (reason === 'malformed') {
    return {
      code: 'malformed_token',
      message: `the token's checksum is wrong (a typo or a truncated token), refused before any lookup; ${closestWords(facts)}`,
      closest: facts.closest,
    }
  }
  if (reason === 'user_inactive') {
    return {
      code: 'owner_gone',
      message: "the token's owner does not exist",
      tokenId: facts.token?.id ?? null,
    }
  }
  return {
    code: 'unknown_token',
    message: `no token has this secret; ${closestWords(facts)}`,
    closest: facts.closest,
  }
}

function typedReason(facts: RefusalFacts, error: PatkitError): RefusalReason {
  switch (error.type) {
    case 'unauthenticated':
      return unauthenticatedReason(facts, error.reason)
    case 'token_expired': {
      const on = facts.token?.id === error.tokenId ? facts.token.expiresAt : null
      return {
        code: 'token_expired',
        message: `token ${error.tokenId} expired${on === null ? '' : ` on ${on}`}`,
        tokenId: error.tokenId,
        expiresOn: on,
      }
    }
    case 'token_revoked': {
      const familyId = facts.token?.id === error.tokenId ? facts.token.familyId : null
      const by = BY_WORDS[facts.revokedBy]
      const family =
        facts.revokedBy === 'reuse_detection' && familyId !== null ? ` of family ${familyId}` : ''
      return {
        code: 'token_revoked',
        message: `token ${error.tokenId} was revoked ${by}${family}`,
        tokenId: error.tokenId,
        revokedBy: facts.revokedBy,
        familyId,
      }
    }
    case 'insufficient_scope': {
      const scopes = facts.token?.scopes ?? []
      return {
        code: 'insufficient_scope',
        message: `the route needs one of the scopes ${error.required.join(', ')}; the token has ${scopes.length === 0 ? 'none' : scopes.join(', ')}`,
        tokenId: facts.token?.id ?? null,
        required: error.required,
        scopes,
      }
    }
    case 'insufficient_granular_scope': {
      const tokenId = facts.token?.id ?? null
      const message =
        error.boundary === null
          ? 'the route takes no fine-grained token (GitLab declares no permission for it)'
          : facts.token?.granular === false
            ? `the ${error.boundary}'s top-level group enforces fine-grained tokens (enforce_granular_tokens), and this legacy token is held to them: it lacks ${error.missing.join(', ')}`
            : `the fine-grained token lacks ${error.missing.join(', ')} at the ${error.boundary} boundary`
      return {
        code: 'insufficient_granular_scope',
        message,
        tokenId,
        boundary: error.boundary,
        missing: error.missing,
      }
    }
    case 'feature_unavailable': {
      const since =
        (FEATURES as Readonly<Record<string, { since: string }>>)[error.feature]?.since ?? error.feature
      return {
        code: 'not_in_release',
        message: `the route exists from GitLab ${since} on (${error.feature}); the fake emulates GitLab ${error.release}`,
        since,
        release: error.release,
      }
    }
    default:
      return otherReason(facts, error)
  }
}

function otherReason(facts: RefusalFacts, error: PatkitError): RefusalReason {
  const { token } = facts
  if (facts.inactiveAdmin && token !== null && token.userId !== null) {
    return {
      code: 'admin_mode',
      message: `Admin Mode is on: administrator ${token.userId}'s token ${token.id} has no admin_mode scope, so it acts as a regular user`,
      tokenId: token.id,
      userId: token.userId,
    }
  }
  if (error.type === 'forbidden' && error.reason !== undefined && /blocked/i.test(error.reason)) {
    return {
      code: 'blocked_owner',
      message: `the token's owner${token?.userId == null ? '' : ` (user ${token.userId})`} is blocked`,
      userId: token?.userId ?? null,
    }
  }
  return { code: 'refused', message: facts.answerText ?? error.type, error: error.type }
}

/**
 * The reason of a refused request (status 400 or more, or a dropped connection by a fault), `null`
 * for an answered one.
 */
export function refusalReason(facts: RefusalFacts): RefusalReason | null {
  if (facts.faultId !== null) {
    return {
      code: 'fault',
      message: `fault rule ${facts.faultId} acted on the request`,
      faultId: facts.faultId,
    }
  }
  if (facts.status < 400 && facts.status !== 0) return null
  if (facts.error !== null) return typedReason(facts, facts.error)
  return { code: 'answer', message: facts.answerText ?? `answered ${facts.status}` }
}
