// The authority every example mounts: a memory store with two users and a few tokens whose secrets are
// known, so the requests in each example's comment work as printed.
//
// In your own project, import from the package instead of the sources:
//   import { createAuthority } from 'patkit'
//   import { memoryStore } from 'patkit/memory'
import { type Authority, createAuthority, type Scope } from '../src/index.js'
import { memoryStore } from '../src/memory/index.js'

/** Secrets the examples' tokens are seeded with; use them as `PRIVATE-TOKEN`. */
export const DEMO_SECRETS = {
  root: 'glpat-example-root-secret-01',
  alice: 'glpat-example-alice-secret-1',
  /** root's `read_user` token: valid, but without the scope the examples' `/me` route asks for. */
  rootReader: 'glpat-example-root-reader-1',
} as const

/** The scopes the examples' own `/me` route lets in: GitLab's read scopes. */
export const ME_SCOPES = ['read_api', 'api'] as const

/**
 * A fresh authority for one server: every `start()` gets its own, so the examples never share state.
 * The pepper keys the stored HMAC of each secret; a real deployment reads it from its secret store.
 */
export async function demoAuthority(): Promise<Authority> {
  const authority = createAuthority({
    store: memoryStore({
      users: [
        { id: 1, username: 'root', admin: true, blocked: false },
        { id: 2, username: 'alice', admin: false, blocked: false },
      ],
    }),
    pepper: process.env['PATKIT_PEPPER'] ?? 'example-pepper-not-for-production',
  })
  const tokens: { id: number; userId: number; name: string; secret?: string; scopes?: Scope[] }[] = [
    { id: 1, userId: 1, name: 'admin', secret: DEMO_SECRETS.root },
    { id: 2, userId: 2, name: 'laptop', secret: DEMO_SECRETS.alice },
    { id: 3, userId: 2, name: 'ci' },
    { id: 4, userId: 2, name: 'deploy' },
    { id: 5, userId: 1, name: 'reader', secret: DEMO_SECRETS.rootReader, scopes: ['read_user'] },
  ]
  for (const { secret, scopes, ...token } of tokens) {
    const issued = await authority.issueToken({
      ...token,
      ...(secret === undefined ? {} : { secret }),
      scopes: scopes ?? ['api'],
      // Fixed instants: the examples answer the same on every run.
      createdAt: new Date('2025-01-15T09:30:00.000Z'),
      expiresAt: '2099-12-31',
    })
    // Seeding is start-up code: a failure here is a programming error, so it throws.
    if (issued.isErr()) throw new Error(`cannot seed token ${token.id}: ${issued.error.type}`)
  }
  return authority
}
