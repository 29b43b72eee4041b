import { err, type Result } from 'neverthrow'
import { notFound } from '../../domain/error-constructors.js'
import type { ErrorOf, StoreFailure } from '../../domain/errors.js'
import type { AccessLevel, ResourceRef } from '../../domain/resource.js'
import type { ResourceStore } from '../../store/resource-store.js'
import type { User } from '../../store/user.js'
import type { AuthorityDeps } from '../core/deps.js'
import type { IssuedToken } from '../core/issued-token.js'
import {
  type Admission,
  type MintError,
  type MintRequest,
  mintAdmitted,
  type OwnerToMake,
  type TokenKind,
} from '../core/mint.js'

/**
 * A resource token just made: the token and its secret, its bot's role and the resource.
 *
 * @example
 * ```ts
 * import type { IssuedResourceToken } from 'patkit/authority'
 * declare const created: IssuedResourceToken
 * created.secret // 'glpat-...', shown once
 * ```
 */
export interface IssuedResourceToken extends IssuedToken {
  readonly accessLevel: AccessLevel
  readonly resource: ResourceRef
}

/** What admitting a resource token settles: the bot to make (its owner), its role, and the resource. */
export interface BotAdmission extends Admission {
  readonly accessLevel: AccessLevel
  readonly resource: ResourceRef
}

/** Every way making a bot token fails. */
export type BotTokenError = MintError | StoreFailure | ErrorOf<'invalid_expiry'>

const HEX = '0123456789abcdef'

/** GitLab's `"#{resource_type}_#{resource.id}_bot_#{SecureRandom.hex(16)}"`, from the injected randomness. */
function botUsername(deps: AuthorityDeps, resource: ResourceRef): string {
  let hex = ''
  for (const byte of deps.random.bytes(16)) hex += (HEX[byte >> 4] ?? '') + (HEX[byte & 15] ?? '')
  return `${resource.type}_${resource.id}_bot_${hex}`
}

/** Bot usernames drawn for one bot while each one is taken; then the `username` conflict is the answer. */
const BOT_USERNAME_ATTEMPTS = 8

/**
 * A bot user for the resource, its username drawn again while the one drawn is taken (a seeded random
 * source replaying its sequence over a kept database draws the names it drew before).
 */
async function createBot(
  deps: AuthorityDeps,
  resources: ResourceStore,
  resource: ResourceRef,
  name: string,
): Promise<Result<User, StoreFailure>> {
  for (let attempt = 1; ; attempt++) {
    const bot = await resources.createUser({
      username: botUsername(deps, resource),
      name,
      admin: false,
      blocked: false,
      bot: true,
      botNamespace: resource,
    })
    if (bot.isOk() || bot.error.conflict !== 'username' || attempt >= BOT_USERNAME_ATTEMPTS) return bot
  }
}

/**
 * GitLab's ResourceAccessTokens::CreateService after its checks: a bot user for the resource, named
 * after its token, made a member of the resource with the role. The mint makes it only once the
 * request passed its checks, so a refused request leaves no bot behind (GitLab deletes it afterwards).
 */
export function botToMake(
  deps: AuthorityDeps,
  resources: ResourceStore,
  resource: ResourceRef,
  accessLevel: AccessLevel,
): OwnerToMake {
  return {
    make: async (tokenName) => {
      const bot = await createBot(deps, resources, resource, tokenName)
      if (bot.isErr()) return err(bot.error)
      const botId = bot.value.id
      if (typeof botId !== 'number') return err(notFound('user'))
      const member = await resources.setMember(resource, { userId: botId, accessLevel })
      return member.map(() => bot.value)
    },
  }
}

/** The one mint of a resource token of either kind, answered with its bot's role and its resource. */
export async function mintResourceToken<Caller, Target, E>(
  deps: AuthorityDeps,
  kind: TokenKind<Caller, Target, E, BotAdmission>,
  caller: Caller,
  target: Target,
  request: MintRequest,
): Promise<Result<IssuedResourceToken, E | MintError>> {
  const minted = await mintAdmitted(deps, kind, caller, target, request)
  return minted.map(({ issued, admission }) => ({
    ...issued,
    accessLevel: admission.accessLevel,
    resource: admission.resource,
  }))
}
