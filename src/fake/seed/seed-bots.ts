import { SCOPES, type Scope } from '../../domain/scopes.js'
import type { SeedProblem, ValidSeed } from './seed-schema.js'

// GitLab's `Gitlab::Auth.resource_bot_scopes`: every scope but the admin ones (`sudo`, `admin_mode`,
// `read_service_ping`) and `read_user`. A bot's token holds no other; the seed keeps to it, so a seeded
// bot token is one GitLab could have minted.
const NOT_FOR_BOTS: readonly Scope[] = ['read_user', 'sudo', 'admin_mode', 'read_service_ping']

/** The scopes a bot's token (a project or group access token) may hold. */
export const BOT_SCOPES: readonly Scope[] = SCOPES.filter((scope) => !NOT_FOR_BOTS.includes(scope))

/**
 * The problems of the seed's tokens that belong to bots (`isBot` says who is one): a scope GitLab
 * never gives a bot, and impersonation (only an administrator's token for a human is one).
 */
export async function botTokenProblems(
  seed: ValidSeed,
  isBot: (path: string, userId: number) => Promise<boolean>,
): Promise<SeedProblem[]> {
  const problems: SeedProblem[] = []
  for (const [index, token] of (seed.tokens ?? []).entries()) {
    if (!(await isBot(`tokens[${index}].user_id`, token.user_id))) continue
    for (const [at, scope] of token.scopes.entries()) {
      if (!BOT_SCOPES.includes(scope)) {
        problems.push({
          path: `tokens[${index}].scopes[${at}]`,
          message: `User ${token.user_id} is a bot: its tokens cannot hold ${scope} (bots get no read_user, sudo, admin_mode or read_service_ping)`,
        })
      }
    }
    if (token.impersonation === true) {
      problems.push({
        path: `tokens[${index}].impersonation`,
        message: `User ${token.user_id} is a bot: its tokens are never impersonation tokens`,
      })
    }
  }
  return problems
}
