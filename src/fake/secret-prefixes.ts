// The prefixes of the secrets the fake handed out (a creation's or rotation's answer, the control API's
// issue, the start seed), so that a refusal of an unknown token can name the known token that starts
// most like it: a typo or a stale copy of a real one. A prefix is what a token list shows of a secret
// (its first PREFIX_LENGTH characters); the rest of a secret is never kept, and the presented secret
// is compared and forgotten.

/** How many characters of a secret a prefix keeps: the format's own prefix (`glpat-`) and a few more. */
export const PREFIX_LENGTH = 10

/** The prefixes of known tokens, by token id; bounded (the oldest go first). */
export interface SecretPrefixes {
  remember(tokenId: number, secret: string): void
  /** The known token whose prefix shares the most characters with `secret`, past its format's prefix. */
  closest(secret: string): { readonly tokenId: number; readonly prefix: string } | null
}

const LIMIT = 10_000

function shared(a: string, b: string): number {
  let n = 0
  while (n < a.length && n < b.length && a.charCodeAt(n) === b.charCodeAt(n)) n++
  return n
}

/** An empty {@link SecretPrefixes}. */
export function secretPrefixes(): SecretPrefixes {
  const prefixes = new Map<number, string>()
  return {
    remember: (tokenId, secret) => {
      prefixes.delete(tokenId)
      prefixes.set(tokenId, secret.slice(0, PREFIX_LENGTH))
      if (prefixes.size > LIMIT) {
        const oldest = prefixes.keys().next()
        if (oldest.done !== true) prefixes.delete(oldest.value)
      }
    },
    closest: (secret) => {
      // Past the format's prefix (`glpat-`), which every token of the fake shares.
      const dash = secret.indexOf('-')
      let best: { tokenId: number; prefix: string } | null = null
      let bestLength = dash + 1
      for (const [tokenId, prefix] of prefixes) {
        const length = shared(prefix, secret)
        if (length > bestLength) {
          best = { tokenId, prefix }
          bestLength = length
        }
      }
      return best
    },
  }
}

/** The `id` and `token` of an answer that hands out a secret (a creation, a rotation, an issue), if it is one. */
export function issuedSecret(body: string): { readonly id: number; readonly token: string } | null {
  if (!body.includes('"token"')) return null
  try {
    const value: unknown = JSON.parse(body)
    if (value === null || typeof value !== 'object') return null
    const { id, token } = value as { id?: unknown; token?: unknown }
    return typeof id === 'number' && typeof token === 'string' ? { id, token } : null
  } catch {
    return null
  }
}
