import { err, ok, type Result } from 'neverthrow'
import { PERSONAL_MINT } from '../../domain/mint-policy.js'
import type { AuthorityDeps } from '../core/deps.js'
import type { Admission, TokenKind } from '../core/mint.js'
import type { Actor } from '../core/principal.js'
import { WRITE_SCOPES } from '../core/scope-policy.js'
import { groupAccount, type ServiceAccountAccessError } from './service-account-access.js'

/** The account a service account token is for: the group's `:id` and the account's `:user_id`. */
export interface AccountTarget {
  readonly groupRef: string
  readonly userId: number
}

/**
 * `POST /groups/:id/service_accounts/:user_id/personal_access_tokens`: a group Owner (or an
 * administrator) creates a token for one of the group's service accounts. `admit` holds the route's
 * checks: the `api` scope, the top-level group as the caller sees it and the caller's right to manage
 * its accounts, then the account (`service-account-access.ts`). A personal token's policy: any scope
 * of the instance (`all_available_scopes`), admin-only ones refused to the non-administrator owner by
 * the model (422).
 */
export const SERVICE_ACCOUNT_TOKEN = {
  name: 'service_account',
  admit: async (
    deps: AuthorityDeps,
    caller: Actor,
    target: AccountTarget,
  ): Promise<Result<Admission, ServiceAccountAccessError>> => {
    const found = await groupAccount(deps, caller, target.groupRef, target.userId, WRITE_SCOPES)
    if (found.isErr()) return err(found.error)
    return ok({ owner: found.value.account, actorUserId: caller.user.id })
  },
  ...PERSONAL_MINT,
  event: 'created',
} as const satisfies TokenKind<Actor, AccountTarget, ServiceAccountAccessError>
