import { err, ok } from 'neverthrow'
import { describe, expect, it } from 'vitest'
import { authorityOver, resolveAuthorityDeps } from '../../src/authority/create-authority.js'
import { cachedStore } from '../../src/cache/index.js'
import { manualClock } from '../../src/domain/clock.js'
import { invalidParameter } from '../../src/domain/error-constructors.js'
import { seededRandom } from '../../src/domain/random.js'
import type { AuthorityConfig, AuthorityEvent } from '../../src/index.js'
import { memoryStore } from '../../src/memory/index.js'
import type { TokenStore } from '../../src/store/index.js'
import { ADMIN, ALICE, BOB, T0 } from '../support/authority-fixtures.js'
import { countingStore } from '../support/counting-store.js'

// The parameter errors an HTTP binding hands in (request-params.ts), each the same object on the way out.
const BAD_ID = invalidParameter('id', 'invalid')
const BAD_EXPIRY = invalidParameter('expires_at', 'invalid')
const KEY = '8e03978e-40d5-43e8-bc93-6894a57f9324'

/**
 * An authority over a real memory store (optionally wrapped), counting the store's calls and the
 * secrets its digester is given.
 */
async function counted(
  options: { wrap?: (store: TokenStore) => TokenStore } = {},
  config: Partial<AuthorityConfig> = {},
) {
  const memory = memoryStore()
  const { store, calls } = countingStore(memory)
  const events: AuthorityEvent[] = []
  const deps = resolveAuthorityDeps({
    store: options.wrap?.(store) ?? store,
    pepper: 'counting-pepper',
    clock: manualClock(T0),
    random: seededRandom(5),
    onEvent: (e) => events.push(e),
    ...config,
  })
  const digested: string[] = []
  const authority = authorityOver({
    ...deps,
    digest: (secret) => {
      digested.push(secret)
      return deps.digest(secret)
    },
  })
  for (const user of [ADMIN, ALICE, BOB]) (await authority.users.put(user))._unsafeUnwrap()
  const issue = async (userId: number, scopes: string[] = ['api']) =>
    (await authority.issueToken({ userId, name: 'token', scopes }))._unsafeUnwrap()
  /** How often `secret` was digested since the last `reset`. */
  const digestsOf = (secret: string) => digested.filter((s) => s === secret).length
  const reset = () => {
    calls.reset()
    digested.length = 0
    events.length = 0
  }
  return { authority, calls, events, issue, digestsOf, reset, memory }
}

describe('rotateRequest: one call, one digest, one lookup', () => {
  it('self: the presented secret is digested once and its token looked up once, from the store', async () => {
    const w = await counted()
    const old = await w.issue(ALICE.id)
    w.reset()
    const rotated = await w.authority.requests.rotateRequest({ secret: old.secret, ref: ok('self') })
    expect(rotated._unsafeUnwrap()).toMatchObject({ replayed: false, token: { previousId: old.token.id } })
    expect(w.digestsOf(old.secret)).toBe(1)
    expect(w.calls.lookups()).toBe(1)
    expect(w.calls.count('findFreshByDigest')).toBe(1)
    expect(w.calls.log).toContain('rotate')
  })

  it('its own id: the token just read is the one rotated, without a read by id', async () => {
    const w = await counted()
    const old = await w.issue(ALICE.id)
    w.reset()
    const rotated = await w.authority.requests.rotateRequest({ secret: old.secret, ref: ok(old.token.id) })
    expect(rotated._unsafeUnwrap().token.previousId).toBe(old.token.id)
    expect(w.digestsOf(old.secret)).toBe(1)
    expect(w.calls.lookups()).toBe(1)
  })

  it('another token by id: the presented token once, the target by id once', async () => {
    const w = await counted()
    const admin = await w.issue(ADMIN.id)
    const target = await w.issue(ALICE.id)
    w.reset()
    const rotated = await w.authority.requests.rotateRequest({
      secret: admin.secret,
      ref: ok(target.token.id),
    })
    expect(rotated._unsafeUnwrap().token.previousId).toBe(target.token.id)
    expect(w.digestsOf(admin.secret)).toBe(1)
    expect(w.calls.count('findFreshByDigest')).toBe(1)
    expect(w.calls.count('findById')).toBe(1)
  })

  it('with an Idempotency-Key: the receipt kept, still one digest and one lookup', async () => {
    const w = await counted()
    const old = await w.issue(ALICE.id)
    w.reset()
    const first = await w.authority.requests.rotateRequest({
      secret: old.secret,
      ref: ok('self'),
      idempotencyKey: KEY,
    })
    expect(first._unsafeUnwrap().replayed).toBe(false)
    expect(w.calls.log).toContain('rotateWithReceipt')
    expect(w.digestsOf(old.secret)).toBe(1)
    expect(w.calls.lookups()).toBe(1)
  })

  it('a retry is replayed: the same successor, once, from one lookup; then it is reuse', async () => {
    const w = await counted()
    const old = await w.issue(ALICE.id)
    const first = (
      await w.authority.requests.rotateRequest({ secret: old.secret, ref: ok('self'), idempotencyKey: KEY })
    )._unsafeUnwrap()
    w.reset()
    const retried = (
      await w.authority.requests.rotateRequest({ secret: old.secret, ref: ok('self'), idempotencyKey: KEY })
    )._unsafeUnwrap()
    expect(retried).toEqual({ ...first, replayed: true })
    expect(w.digestsOf(old.secret)).toBe(1)
    expect(w.calls.lookups()).toBe(1)
    expect(w.events.map((e) => e.type)).toEqual(['rotation_replayed'])
    w.reset()
    const reused = await w.authority.requests.rotateRequest({
      secret: old.secret,
      ref: ok('self'),
      idempotencyKey: KEY,
    })
    expect(reused._unsafeUnwrapErr()).toEqual({ type: 'token_revoked', tokenId: old.token.id })
    expect(w.events.map((e) => e.type)).toEqual(['reuse_detected'])
    expect(w.calls.lookups()).toBe(1)
  })

  it('a revoked token is reuse detection, as authenticate with rotateRequest', async () => {
    const w = await counted()
    const old = await w.issue(ALICE.id)
    const successor = (
      await w.authority.requests.rotateRequest({ secret: old.secret, ref: ok('self') })
    )._unsafeUnwrap()
    w.reset()
    const reused = await w.authority.requests.rotateRequest({ secret: old.secret, ref: ok('self') })
    expect(reused._unsafeUnwrapErr()).toEqual({ type: 'token_revoked', tokenId: old.token.id })
    expect(w.events).toMatchObject([{ type: 'reuse_detected', revoked: [{ id: successor.token.id }] }])
  })

  it("the caller's parameter error is answered after authentication: a revoked token is still reuse", async () => {
    const w = await counted()
    const old = await w.issue(ALICE.id)
    const successor = (
      await w.authority.requests.rotateRequest({ secret: old.secret, ref: ok('self') })
    )._unsafeUnwrap()
    const fresh = await w.issue(ALICE.id)
    // An active token gets the caller's error, and nothing is rotated.
    w.reset()
    const refused = await w.authority.requests.rotateRequest({
      secret: fresh.secret,
      ref: err(BAD_ID),
    })
    expect(refused._unsafeUnwrapErr()).toBe(BAD_ID)
    expect(w.calls.log).not.toContain('rotate')
    const badExpiry = await w.authority.requests.rotateRequest({
      secret: fresh.secret,
      ref: ok('self'),
      expiresAt: err(BAD_EXPIRY),
    })
    expect(badExpiry._unsafeUnwrapErr()).toBe(BAD_EXPIRY)
    // A revoked one is reuse first.
    w.reset()
    const reused = await w.authority.requests.rotateRequest({
      secret: old.secret,
      ref: err(BAD_ID),
    })
    expect(reused._unsafeUnwrapErr()).toEqual({ type: 'token_revoked', tokenId: old.token.id })
    expect(w.events).toMatchObject([{ type: 'reuse_detected', revoked: [{ id: successor.token.id }] }])
  })

  it('sudo: an administrator rotates the named user’s token by id, acting as that user', async () => {
    const w = await counted()
    const admin = (
      await w.authority.issueToken({ userId: ADMIN.id, name: 'root', scopes: ['api', 'sudo'] })
    )._unsafeUnwrap()
    const alices = await w.issue(ALICE.id)
    const bobs = await w.issue(BOB.id)
    const rotated = await w.authority.requests.rotateRequest({
      secret: admin.secret,
      sudo: 'alice',
      ref: ok(alices.token.id),
    })
    expect(rotated._unsafeUnwrap().token.userId).toBe(ALICE.id)
    // As alice, bob's token is not hers: GitLab's 401.
    const refused = await w.authority.requests.rotateRequest({
      secret: admin.secret,
      sudo: 'alice',
      ref: ok(bobs.token.id),
    })
    expect(refused._unsafeUnwrapErr()).toEqual({ type: 'unauthorized' })
    const notAdmin = await w.authority.requests.rotateRequest({
      secret: bobs.secret,
      sudo: 'alice',
      ref: ok('self'),
    })
    expect(notAdmin._unsafeUnwrapErr()).toEqual({ type: 'forbidden', reason: 'Must be admin to use sudo' })
  })

  it('no secret is unauthenticated, a malformed routable one too, with no lookup', async () => {
    const w = await counted()
    const alices = await w.issue(ALICE.id)
    w.reset()
    const missing = await w.authority.requests.rotateRequest({ secret: null, ref: ok('self') })
    expect(missing._unsafeUnwrapErr()).toEqual({ type: 'unauthenticated', reason: 'missing' })
    const tampered = `${alices.secret.slice(0, -1)}${alices.secret.endsWith('0') ? '1' : '0'}`
    const malformed = await w.authority.requests.rotateRequest({ secret: tampered, ref: ok('self') })
    expect(malformed._unsafeUnwrapErr()).toEqual({ type: 'unauthenticated', reason: 'malformed' })
    expect(w.calls.lookups()).toBe(0)
  })

  it('through a cache: the decision reads the store, the cache neither answers nor keeps it', async () => {
    const w = await counted({ wrap: (store) => cachedStore(store) })
    const old = await w.issue(ALICE.id)
    // Authentication fills the cache.
    for (let i = 0; i < 2; i++) (await w.authority.authenticate(old.secret))._unsafeUnwrap()
    w.reset()
    ;(await w.authority.requests.rotateRequest({ secret: old.secret, ref: ok('self') }))._unsafeUnwrap()
    expect(w.calls.count('findFreshByDigest')).toBe(1)
    expect(w.calls.lookups()).toBe(1)
  })
})

describe('the other writes: one lookup of the presented token', () => {
  it('authenticate with write reads the token once, from the store', async () => {
    const w = await counted()
    const alices = await w.issue(ALICE.id)
    w.reset()
    ;(await w.authority.authenticate(alices.secret, { write: true }))._unsafeUnwrap()
    expect(w.calls.log.filter((m) => m.startsWith('find'))).toEqual(['findFreshByDigest'])
  })

  it('requestPrincipal of a write, then the revocation: one lookup of the presented token', async () => {
    const w = await counted()
    const alices = await w.issue(ALICE.id)
    w.reset()
    const principal = (
      await w.authority.requests.requestPrincipal({ secret: alices.secret }, { write: true })
    )._unsafeUnwrap()
    expect(principal?.token.id).toBe(alices.token.id)
    expect(w.calls.lookups()).toBe(1)
    expect(w.digestsOf(alices.secret)).toBe(1)
  })

  it('requestPrincipal: null without credentials, unauthenticated for sudo alone, the named user with sudo', async () => {
    const w = await counted()
    const admin = (
      await w.authority.issueToken({ userId: ADMIN.id, name: 'root', scopes: ['api', 'sudo'] })
    )._unsafeUnwrap()
    expect((await w.authority.requests.requestPrincipal({ secret: null }))._unsafeUnwrap()).toBeNull()
    expect(
      (await w.authority.requests.requestPrincipal({ secret: null, sudo: 'alice' }))._unsafeUnwrapErr(),
    ).toEqual({
      type: 'unauthenticated',
      reason: 'missing',
    })
    const acting = (
      await w.authority.requests.requestPrincipal({ secret: admin.secret, sudo: 'alice' })
    )._unsafeUnwrap()
    expect({ user: acting?.user.id, sudoer: acting?.sudoer?.id }).toEqual({
      user: ALICE.id,
      sudoer: ADMIN.id,
    })
  })
})
