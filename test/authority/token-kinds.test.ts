import { describe, expect, it } from 'vitest'
import type { AuthorityEvent } from '../../src/authority/core/events.js'
import { mint, type TokenKind } from '../../src/authority/core/mint.js'
import type { Actor } from '../../src/authority/core/principal.js'
import {
  IMPERSONATION_TOKEN,
  OWN_TOKEN,
  PERSONAL_TOKEN,
  SEEDED_TOKEN,
  SELF_SERVICE_TOKEN,
} from '../../src/authority/core/token-kinds.js'
import { resolveAuthorityDeps } from '../../src/authority/create-authority.js'
import { ISSUED_RESOURCE_TOKEN, RESOURCE_TOKEN } from '../../src/authority/resource/resource-token-kind.js'
import { SERVICE_ACCOUNT_TOKEN } from '../../src/authority/service-accounts/service-account-token-kind.js'
import { manualClock } from '../../src/domain/clock.js'
import { seededRandom } from '../../src/domain/random.js'
import type { UserId } from '../../src/domain/user-id.js'
import { memoryStore } from '../../src/memory/index.js'
import { ADMIN, ALICE, T0 } from '../support/authority-fixtures.js'

// Each kind's policy, read by the one mint path (authority/core/mint.ts): its default expiry, its scope
// vocabulary, its impersonation flag and the event it emits. T0 is 2026-03-10.

const TODAY_PLUS_365 = '2027-03-10'
const UNAVAILABLE = { type: 'validation_failed', message: 'Scopes can only contain available scopes' }
const NOT_ALLOWED = { type: 'invalid_parameter', parameter: 'scopes', reason: 'not_allowed_value' }

async function setup(options: { requireExpiry?: boolean } = {}) {
  const store = memoryStore({ users: [ADMIN, ALICE] })
  const events: AuthorityEvent[] = []
  const deps = resolveAuthorityDeps({
    store,
    pepper: 'test-pepper',
    clock: manualClock(T0),
    random: seededRandom(3),
    onEvent: (e) => events.push(e),
    ...options,
  })
  // A principal of each user, through the seeded kind (no caller).
  async function principal(user: typeof ADMIN | typeof ALICE): Promise<Actor> {
    const issued = (
      await mint(deps, SEEDED_TOKEN, null, user.id, { name: 'login', scopes: ['api'] })
    )._unsafeUnwrap()
    return { user, token: issued.token }
  }
  const admin = await principal(ADMIN)
  const alice = await principal(ALICE)
  events.length = 0
  return { deps, events, admin, alice }
}

describe('token kinds through the one mint path', () => {
  it('personal (an administrator for a user): a year by default, any known scope, admin-only ones for an admin owner', async () => {
    const { deps, events, admin, alice } = await setup()
    const issued = (
      await mint(deps, PERSONAL_TOKEN, admin, ALICE.id, { name: 'ci', scopes: ['read_api'] })
    )._unsafeUnwrap()
    expect(issued.token).toMatchObject({ userId: ALICE.id, expiresAt: TODAY_PLUS_365, impersonation: false })
    expect(events).toMatchObject([{ type: 'created', actorUserId: ADMIN.id, token: { id: issued.token.id } }])
    expect(
      (
        await mint(deps, PERSONAL_TOKEN, admin, ALICE.id, { name: 'ci', scopes: ['sudo'] })
      )._unsafeUnwrapErr(),
    ).toEqual(UNAVAILABLE)
    expect((await mint(deps, PERSONAL_TOKEN, admin, ADMIN.id, { name: 'ci', scopes: ['sudo'] })).isOk()).toBe(
      true,
    )
    expect(
      (
        await mint(deps, PERSONAL_TOKEN, admin, ALICE.id, { name: 'ci', scopes: ['root'] })
      )._unsafeUnwrapErr(),
    ).toEqual(NOT_ALLOWED)
    // A past day makes a token born inactive, as GitLab's model does.
    expect(
      (
        await mint(deps, PERSONAL_TOKEN, admin, ALICE.id, {
          name: 'ci',
          scopes: ['api'],
          expiresAt: '2026-03-01',
        })
      )._unsafeUnwrap().token.expiresAt,
    ).toBe('2026-03-01')
    expect(
      (await mint(deps, PERSONAL_TOKEN, alice, ADMIN.id, { name: 'ci', scopes: ['api'] }))._unsafeUnwrapErr()
        .type,
    ).toBe('forbidden')
  })

  it('self-service (POST /user/personal_access_tokens): only k8s_proxy and self_rotate, a year by default', async () => {
    const { deps, alice } = await setup()
    const issued = (
      await mint(deps, SELF_SERVICE_TOKEN, alice, null, { name: 'k', scopes: ['self_rotate'] })
    )._unsafeUnwrap()
    expect(issued.token).toMatchObject({
      userId: ALICE.id,
      scopes: ['self_rotate'],
      expiresAt: TODAY_PLUS_365,
    })
    expect(
      (
        await mint(deps, SELF_SERVICE_TOKEN, alice, null, { name: 'k', scopes: ['read_api'] })
      )._unsafeUnwrapErr(),
    ).toEqual(NOT_ALLOWED)
  })

  it('own (createOwn): any known scope, a year by default, a past day refused', async () => {
    const { deps, alice } = await setup()
    const issued = (
      await mint(deps, OWN_TOKEN, alice, null, { name: 'laptop', scopes: ['read_api'] })
    )._unsafeUnwrap()
    expect(issued.token).toMatchObject({ userId: ALICE.id, expiresAt: TODAY_PLUS_365, impersonation: false })
    expect(
      (
        await mint(deps, OWN_TOKEN, alice, null, { name: 'x', scopes: ['api'], expiresAt: '2026-03-10' })
      )._unsafeUnwrapErr(),
    ).toEqual({
      type: 'invalid_expiry',
      message: 'Expiration date must be after 2026-03-10',
    })
    expect(
      (await mint(deps, OWN_TOKEN, alice, null, { name: 'x', scopes: ['admin_mode'] }))._unsafeUnwrapErr(),
    ).toEqual(UNAVAILABLE)
  })

  it("impersonation: impersonation set, a year by default, an unknown scope the model's validation error", async () => {
    const { deps, events, admin } = await setup()
    const issued = (
      await mint(deps, IMPERSONATION_TOKEN, admin, ALICE.id, { name: 'support', scopes: ['api'] })
    )._unsafeUnwrap()
    expect(issued.token).toMatchObject({ userId: ALICE.id, impersonation: true, expiresAt: TODAY_PLUS_365 })
    expect(events).toMatchObject([{ type: 'created', actorUserId: ADMIN.id }])
    expect(
      (
        await mint(deps, IMPERSONATION_TOKEN, admin, ALICE.id, { name: 's', scopes: ['root'] })
      )._unsafeUnwrapErr(),
    ).toEqual(UNAVAILABLE)
  })

  it('seeded (issueToken): no caller, no window, null is never, admin-only scopes for anyone, a given secret and state', async () => {
    const { deps, events } = await setup()
    const plain = (
      await mint(deps, SEEDED_TOKEN, null, ALICE.id, { name: 's', scopes: ['sudo'] })
    )._unsafeUnwrap()
    expect(plain.token).toMatchObject({ scopes: ['sudo'], expiresAt: TODAY_PLUS_365, impersonation: false })
    expect(events).toMatchObject([{ type: 'created', actorUserId: null }])
    const never = await mint(deps, SEEDED_TOKEN, null, ALICE.id, {
      name: 's',
      scopes: ['api'],
      expiresAt: null,
    })
    expect(never._unsafeUnwrap().token.expiresAt).toBeNull()
    const far = await mint(deps, SEEDED_TOKEN, null, ALICE.id, {
      name: 's',
      scopes: ['api'],
      expiresAt: '2040-01-01',
    })
    expect(far._unsafeUnwrap().token.expiresAt).toBe('2040-01-01')
    const given = (
      await mint(deps, SEEDED_TOKEN, null, ALICE.id, {
        name: 's',
        scopes: ['api'],
        given: {
          id: 500,
          secret: 'glpat-known-secret',
          revoked: true,
          impersonation: true,
          lastUsedIps: ['1', '2', '3', '4', '5', '6'],
        },
      })
    )._unsafeUnwrap()
    expect(given.secret).toBe('glpat-known-secret')
    expect(given.token).toMatchObject({
      id: 500,
      familyId: 500,
      revoked: true,
      impersonation: true,
      lastUsedIps: ['2', '3', '4', '5', '6'],
    })
    expect(
      (
        await mint(deps, SEEDED_TOKEN, null, ALICE.id, {
          name: 's',
          scopes: ['api'],
          given: { secret: 'short' },
        })
      )._unsafeUnwrapErr(),
    ).toEqual({
      type: 'validation_failed',
      message: 'Token is too short (minimum is 8 characters)',
    })
  })

  it('a fresh kind ignores a given state: only the seeded kind puts one in place', async () => {
    const { deps, admin } = await setup()
    const issued = (
      await mint(deps, PERSONAL_TOKEN, admin, ALICE.id, {
        name: 'ci',
        scopes: ['api'],
        given: { id: 900, secret: 'glpat-known-secret', revoked: true },
      })
    )._unsafeUnwrap()
    expect(issued.secret).not.toBe('glpat-known-secret')
    expect(issued.token.id).not.toBe(900)
    expect(issued.token.revoked).toBe(false)
  })

  it('without required expiry every kind defaults to never', async () => {
    const { deps, admin, alice } = await setup({ requireExpiry: false })
    const request = { name: 'n', scopes: ['self_rotate'] }
    const kinds = [
      mint(deps, PERSONAL_TOKEN, admin, ALICE.id, request),
      mint(deps, SELF_SERVICE_TOKEN, alice, null, request),
      mint(deps, OWN_TOKEN, alice, null, request),
      mint(deps, IMPERSONATION_TOKEN, admin, ALICE.id, request),
      mint(deps, SEEDED_TOKEN, null, ALICE.id, request),
    ]
    for (const issued of await Promise.all(kinds)) expect(issued._unsafeUnwrap().token.expiresAt).toBeNull()
  })

  it('a new kind is data: a narrower scope vocabulary and its own expiry rule, through the same path', async () => {
    const { deps, admin } = await setup()
    const bot = {
      ...PERSONAL_TOKEN,
      name: 'bot',
      scopes: { ...PERSONAL_TOKEN.scopes, values: ['api', 'read_api'] },
      expiry: { ...PERSONAL_TOKEN.expiry, past: 'refused' },
    } satisfies TokenKind<Actor, UserId, unknown>
    expect(
      (await mint(deps, bot, admin, ALICE.id, { name: 'b', scopes: ['read_api'] }))._unsafeUnwrap().token
        .expiresAt,
    ).toBe(TODAY_PLUS_365)
    expect(
      (await mint(deps, bot, admin, ALICE.id, { name: 'b', scopes: ['read_user'] }))._unsafeUnwrapErr(),
    ).toEqual(NOT_ALLOWED)
    expect(
      (
        await mint(deps, bot, admin, ALICE.id, { name: 'b', scopes: ['api'], expiresAt: '2026-03-09' })
      )._unsafeUnwrapErr().type,
    ).toBe('invalid_expiry')
  })

  it("service account: admit holds the route's checks, so no account outside a group the caller manages gets a token", async () => {
    const { deps, events, admin, alice } = await setup()
    // No group 99: GitLab's `404 Group Not Found`, for an administrator too; nothing minted.
    for (const caller of [admin, alice]) {
      const refused = await mint(
        deps,
        SERVICE_ACCOUNT_TOKEN,
        caller,
        { groupRef: '99', userId: ALICE.id },
        {
          name: 'ci',
          scopes: ['api'],
        },
      )
      expect(refused._unsafeUnwrapErr()).toMatchObject({ type: 'not_found', entity: 'group' })
    }
    expect(events).toEqual([])
  })

  it("resource: admit holds the route's checks, and the bot is made only for a request that passed its own", async () => {
    const { deps, events, admin, alice } = await setup()
    const resources = deps.store.resources
    if (resources === undefined) throw new Error('the memory store holds resources')
    ;(
      await resources.putProject({
        id: 7,
        path: 'api',
        fullPath: 'acme/api',
        name: 'API',
        groupId: null,
        visibility: 'private',
        members: [{ userId: ALICE.id, accessLevel: 30 }],
      })
    )._unsafeUnwrap()
    const bots = async () => (await resources.listUsers({ bot: true }))._unsafeUnwrap()
    const request = { name: 'deploy', scopes: ['read_api'], expiresAt: '2026-06-01' }
    const target = (accessLevel: 30 | 40) => ({
      address: { type: 'project' as const, id: 'acme/api' },
      accessLevel,
      expiresAt: request.expiresAt,
    })
    // A Developer may not create project tokens; an unknown project is 404; both before any bot.
    expect((await mint(deps, RESOURCE_TOKEN, alice, target(30), request))._unsafeUnwrapErr()).toEqual({
      type: 'bad_request',
      reason: 'User does not have permission to create project access token',
    })
    expect(
      (
        await mint(
          deps,
          RESOURCE_TOKEN,
          admin,
          { ...target(40), address: { type: 'project' as const, id: 99 } },
          request,
        )
      )._unsafeUnwrapErr(),
    ).toMatchObject({ type: 'not_found', entity: 'project' })
    // Admitted, then refused by the request's own check (a scope outside resource_bot_scopes): no bot.
    expect(
      (
        await mint(deps, RESOURCE_TOKEN, admin, target(40), { ...request, scopes: ['read_user'] })
      )._unsafeUnwrapErr(),
    ).toMatchObject({ type: 'invalid_parameter', parameter: 'scopes' })
    expect(await bots()).toEqual([])
    expect(events).toEqual([])
    const issued = (await mint(deps, RESOURCE_TOKEN, admin, target(40), request))._unsafeUnwrap()
    const [bot] = await bots()
    expect(bot).toMatchObject({ name: 'deploy', bot: true, botNamespace: { type: 'project', id: 7 } })
    expect(issued.token.userId).toBe(bot?.id)
    expect(events).toMatchObject([{ type: 'created', actorUserId: ADMIN.id }])
    // Without a caller: the resource must be stored, nothing else is asked.
    expect(
      (
        await mint(
          deps,
          ISSUED_RESOURCE_TOKEN,
          null,
          { resource: { type: 'group', id: 3 }, accessLevel: 40 },
          request,
        )
      )._unsafeUnwrapErr(),
    ).toMatchObject({ type: 'not_found', entity: 'group' })
    expect(await bots()).toHaveLength(1)
  })
})
