import { RESOURCE_BOT_SCOPES } from '../../domain/scopes.js'
import type { SeedProblem, ValidSeed } from './seed-schema.js'

/**
 * The problems of the seed's tokens that belong to bots (`isBot` says who is one): a scope outside
 * GitLab's `resource_bot_scopes` (the mint path's own list), so a seeded bot token is one GitLab could
 * have minted, and impersonation (only an administrator's token for a human is one).
 */
export async function botTokenProblems(
  seed: ValidSeed,
  isBot: (path: string, userId: number) => Promise<boolean>,
): Promise<SeedProblem[]> {
  const problems: SeedProblem[] = []
  for (const [index, token] of (seed.tokens ?? []).entries()) {
    if (!(await isBot(`tokens[${index}].user_id`, token.user_id))) continue
    for (const [at, scope] of (token.scopes ?? []).entries()) {
      if (!RESOURCE_BOT_SCOPES.includes(scope)) {
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
