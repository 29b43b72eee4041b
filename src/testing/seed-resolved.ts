import type { Digester } from '../domain/secret.js'
import type { Token } from '../domain/token.js'
import type { TokenStore } from '../store/token-store.js'
import type { SeedReport } from './load-seed.js'
import { seedDigest } from './seed-check.js'
import type { ValidSeed } from './seed-schema.js'

type ValidSeedToken = NonNullable<ValidSeed['tokens']>[number]

function resolved(token: ValidSeedToken, stored: Token | undefined): ValidSeedToken {
  if (stored === undefined) return token
  return {
    ...token,
    id: token.id ?? stored.id,
    created_at: token.created_at ?? stored.createdAt.toISOString(),
    expires_at: token.expires_at === undefined ? stored.expiresAt : token.expires_at,
  }
}

/**
 * The seed as its load resolved it: each token with the `id`, `created_at` and `expires_at` it was
 * stored with, where the seed left them to the store and the clock (the next free id, now, now + the
 * maximum lifetime). Loading it again, on another day or into an empty store, gives the very same
 * tokens: what a fake's reset goes back to. Secrets need no resolving: a seed token always gives
 * `token` or `token_digest`.
 *
 * @example
 * ```ts
 * import { createDigester } from 'patkit/store'
 * import { checkSeed } from './seed-check.js'
 * import { writeSeed } from './load-seed.js'
 * import { resolveSeed } from './seed-resolved.js'
 *
 * const target = { authority, store, digest: createDigester(pepper) }
 * const plan = await checkSeed(store, target.digest, seed)
 * const report = plan.isOk() ? await writeSeed(target, seed, plan.value) : null
 * if (report?.isOk()) await resolveSeed(target, seed, report.value) // ids and dates as stored
 * ```
 */
export async function resolveSeed(
  target: { readonly store: TokenStore; readonly digest: Digester },
  seed: ValidSeed,
  report: SeedReport,
): Promise<ValidSeed> {
  if (seed.tokens === undefined) return seed
  const skipped = new Set(report.skipped)
  let issued = 0
  let restored = 0
  const tokens: ValidSeedToken[] = []
  for (const [index, token] of seed.tokens.entries()) {
    let stored: Token | undefined
    if (skipped.has(index)) {
      // Stored before this load (a persistent store): as it is stored now.
      const found = await target.store.findByDigest(seedDigest(target.digest, token))
      stored = found.isOk() ? (found.value ?? undefined) : undefined
    } else if (token.token !== undefined) stored = report.issued[issued++]?.token
    else stored = report.restored[restored++]
    tokens.push(resolved(token, stored))
  }
  return { ...seed, tokens }
}
