import type { ExpiryPolicy } from './expiry.js'
import type { TokenFormat } from './mint-secret.js'
import type { RandomSource } from './random.js'
import type { SCOPES } from './scopes.js'
import type { Digester } from './secret.js'

/**
 * Everything a transition that mints a secret needs besides its inputs: the instant, the random
 * source, the prefix, the digester and the expiry rules. Built by the authority per call.
 */
export interface MintContext {
  readonly now: Date
  readonly random: RandomSource
  readonly prefix: string
  /** The format of new secrets; `routable` when absent. */
  readonly format?: TokenFormat
  readonly digest: Digester
  readonly expiry: ExpiryPolicy
  /** The scopes a token may carry (the authority's `scopes` option); GitLab's {@link SCOPES} when absent. */
  readonly scopes?: readonly string[]
}
