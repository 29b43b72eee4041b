/**
 * The world every end-to-end suite serves: root (admin), alice and bob, and ten tokens with fixed
 * instants and known secrets. Each suite starts its own server from it, so suites never share state.
 *
 * Written in GitLab's JSON field names: it is the `--seed` file of `patkit serve`, as a user writes one.
 */
export const SECRETS = {
  root: 'glpat-root-e2e-secret-0001',
  alice: 'glpat-alice-e2e-secret-0002',
  aliceReadApi: 'glpat-alice-e2e-secret-0003',
  aliceRevoked: 'glpat-alice-e2e-secret-0004',
  bob: 'glpat-bob-e2e-secret-0008',
} as const

interface SeedToken {
  readonly id: number
  readonly user_id: number
  readonly name: string
  readonly scopes: readonly string[]
  readonly token: string
  readonly created_at: string
  readonly last_used_at: string | null
  readonly expires_at: string | null
  readonly revoked: boolean
}

const token = (
  id: number,
  userId: number,
  name: string,
  fields: Partial<Omit<SeedToken, 'id' | 'user_id' | 'name'>> = {},
): SeedToken => ({
  id,
  user_id: userId,
  name,
  scopes: ['api'],
  token: `glpat-unknown-e2e-secret-${String(id).padStart(4, '0')}`,
  // Token n was created on 2025-01-0n (2025-01-10 for the tenth): one a day, in id order.
  created_at: `2025-01-${String(id).padStart(2, '0')}T00:00:00.000Z`,
  last_used_at: null,
  expires_at: '2099-12-31',
  revoked: false,
  ...fields,
})

export const SEED = {
  users: [
    { id: 1, username: 'root', admin: true },
    { id: 2, username: 'alice' },
    { id: 3, username: 'bob' },
  ],
  tokens: [
    token(1, 1, 'root-admin', { token: SECRETS.root }),
    token(2, 2, 'alice-laptop', { token: SECRETS.alice, last_used_at: '2025-02-01T10:00:00.000Z' }),
    token(3, 2, 'alice-ci', {
      token: SECRETS.aliceReadApi,
      scopes: ['read_api'],
      last_used_at: '2025-03-01T00:00:00.000Z',
    }),
    token(4, 2, 'alice-deploy', { token: SECRETS.aliceRevoked, revoked: true }),
    token(5, 2, 'alice-old', { expires_at: '2025-06-30' }),
    token(6, 2, 'alice-backup'),
    token(7, 2, 'alice-cron', { expires_at: null }),
    token(8, 3, 'bob-ci', { token: SECRETS.bob, last_used_at: '2025-04-01T08:00:00.000Z' }),
    token(9, 3, 'bob-cron'),
    token(10, 3, 'bob-Deploy-Key', { scopes: ['read_api', 'read_repository'] }),
  ],
} as const

/** Every seeded id, in the default (id ascending) order. */
export const ALL_IDS = SEED.tokens.map((t) => t.id)
