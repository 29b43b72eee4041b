import { err, ok, type Result } from 'neverthrow'
import { checkToken } from '../../domain/create-token.js'
import type { ErrorOf, StoreFailure } from '../../domain/errors.js'
import type { AccessLevel, ResourceRef } from '../../domain/resource.js'
import type { UserId } from '../../domain/user-id.js'
import type { ResourceStore } from '../../store/resource-store.js'
import type { User } from '../../store/user.js'
import { type AuthorityDeps, mintContext } from '../core/deps.js'
import type { IssuedToken } from '../core/issued-token.js'
import { type MintError, type MintRequest, mint } from '../core/mint.js'
import { requireResources } from '../core/resource-access.js'
import { RESOURCE_TOKEN } from '../core/token-kinds.js'

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

/** What a bot token is made of: the token's fields and the bot's role. */
export interface BotTokenRequest extends MintRequest {
  readonly accessLevel: AccessLevel
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
 * GitLab's ResourceAccessTokens::CreateService after its permission checks: the request is checked
 * first (so a refused one leaves no bot behind; GitLab deletes it afterwards), then a bot user is
 * made for the token (its name the token's), made a member of the resource with the role, and the
 * token minted for it through the one mint path (`RESOURCE_TOKEN`).
 */
export async function mintBotToken(
  deps: AuthorityDeps,
  actorUserId: UserId | null,
  resource: ResourceRef,
  request: BotTokenRequest,
): Promise<Result<IssuedResourceToken, BotTokenError>> {
  const { accessLevel, ...fields } = request
  const checked = checkToken({ ...fields, userId: 0 }, mintContext(deps, deps.clock.now()), RESOURCE_TOKEN)
  if (checked.isErr()) return err(checked.error)
  const resources = await requireResources(deps, 'mintBotToken')
  if (resources.isErr()) return err(resources.error)
  const bot = await createBot(deps, resources.value, resource, fields.name)
  if (bot.isErr()) return err(bot.error)
  const botId = bot.value.id
  if (typeof botId !== 'number') return err({ type: 'not_found', entity: 'user' })
  const member = await resources.value.setMember(resource, { userId: botId, accessLevel })
  if (member.isErr()) return err(member.error)
  const minted = await mint(deps, RESOURCE_TOKEN, null, { bot: bot.value, actorUserId }, fields)
  if (minted.isErr()) return err(minted.error)
  return ok({ ...minted.value, accessLevel, resource })
}
