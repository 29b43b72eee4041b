/**
 * The peer of targets 2 and 21: better-auth 1.7.5 with its api-key plugin (`@better-auth/api-key`)
 * over better-auth's memory adapter, holding `n` keys with the secrets of the benchmark population.
 */
import { createHash } from 'node:crypto'
import { apiKey, defaultKeyHasher } from '@better-auth/api-key'
import { betterAuth } from 'better-auth'
import { memoryAdapter } from 'better-auth/adapters/memory'
import { secretOf } from './dataset.mjs'

/**
 * A better-auth instance with the api-key plugin over its memory adapter, holding `n` keys: secret
 * `secretOf(i)` is key `i`. Rate limiting is off, as patkit has none, so both sides do the same work:
 * look the key up, check it, record the use. The store is filled directly with rows of the shape the
 * plugin's own `createApiKey` writes (one key is created through the API first, and every other row
 * copies it), with real SHA-256 hashes of known keys.
 * @param {number} n
 */
export async function betterAuthWith(n) {
  /** @type {Record<string, Record<string, unknown>[]>} */
  const db = { user: [], session: [], account: [], verification: [], apikey: [] }
  const auth = betterAuth({
    database: memoryAdapter(db),
    secret: 'patkit-benchmark-better-auth-secret-0123456789',
    baseURL: 'http://127.0.0.1',
    plugins: [apiKey({ rateLimit: { enabled: false } })],
    logger: { disabled: true },
    telemetry: { enabled: false },
  })
  const context = await auth.$context
  const user = await context.internalAdapter.createUser({
    email: 'alice@example.com',
    name: 'alice',
    emailVerified: true,
  })
  const created = await auth.api.createApiKey({ body: { userId: user.id, name: 'ci' } })
  const template = db['apikey']?.[0]
  if (template === undefined) throw new Error('better-auth stored no api key')
  const hash = (/** @type {string} */ key) => createHash('sha256').update(key).digest('base64url')
  // The plugin hashes with WebCrypto SHA-256 and unpadded base64url: the same bytes as node:crypto's.
  if ((await defaultKeyHasher(created.key)) !== hash(created.key)) throw new Error('key hashes differ')
  const rows = /** @type {Record<string, unknown>[]} */ (db['apikey'])
  rows.length = 0
  for (let i = 1; i <= n; i++) {
    rows.push({
      ...template,
      id: `key${i}`,
      name: `key ${i}`,
      key: hash(secretOf(i)),
      start: secretOf(i).slice(0, 6),
    })
  }
  return auth
}
