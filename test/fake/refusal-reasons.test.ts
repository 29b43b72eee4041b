import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { afterEach, describe, expect, it } from 'vitest'
import { createFakeGitLab, type FakeGitLab, type FakeGitLabOptions } from '../../src/fake/fake-gitlab.js'
import type { RequestEntry } from '../../src/fake/journal.js'
import { JOURNAL_ENTRY_SCHEMA, REFUSAL_REASON_SCHEMA } from '../../src/fake/journal-schema.js'
import { REFUSAL_CODES, refusalReason } from '../../src/fake/refusal-reason.js'

// Issue 32: every refused request's journal entry says why, as a code and in words, and opens to its
// detail (headers, parameters, the answer) with every credential filtered.

const ALICE = 'glpat-reasons-alice-secret-01'
const READER = 'glpat-reasons-reader-secret-1'
const BLOCKED = 'glpat-reasons-blocked-secret1'
const ROOT = 'glpat-reasons-root-secret-001'
const SELF = '/api/v4/personal_access_tokens/self'

const SEED = {
  users: [
    { id: 1, username: 'root', admin: true },
    { id: 2, username: 'alice' },
    { id: 3, username: 'mallory', blocked: true },
  ],
  tokens: [
    { id: 10, user_id: 2, name: 'ci', scopes: ['api'], token: ALICE, expires_at: '2026-06-01' },
    { id: 11, user_id: 2, name: 'reader', scopes: ['read_user'], token: READER, expires_at: '2026-06-01' },
    { id: 12, user_id: 3, name: 'blocked', scopes: ['api'], token: BLOCKED, expires_at: '2026-06-01' },
    { id: 13, user_id: 1, name: 'root', scopes: ['api'], token: ROOT, expires_at: '2026-06-01' },
  ],
} satisfies FakeGitLabOptions

const running: FakeGitLab[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((gitlab) => gitlab.close()))
})

async function start(options: FakeGitLabOptions = {}): Promise<FakeGitLab> {
  const gitlab = await createFakeGitLab({ ...SEED, clock: new Date('2026-01-10T00:00:00.000Z'), ...options })
  running.push(gitlab)
  return gitlab
}

const call = (gitlab: FakeGitLab, path: string, init: RequestInit = {}) => fetch(`${gitlab.url}${path}`, init)
const as = (secret: string) => ({ headers: { 'PRIVATE-TOKEN': secret } })

function last(gitlab: FakeGitLab): RequestEntry {
  const entry = gitlab.journal.query({ kind: 'request', limit: 1 }).entries[0]
  if (entry?.kind !== 'request') throw new Error('no request recorded')
  return entry
}

describe('the reason of a refused request', () => {
  it('no_token, unknown_token with the closest known token, refused, answer', async () => {
    const gitlab = await start()
    await call(gitlab, SELF)
    expect(last(gitlab).reason).toMatchObject({ code: 'no_token' })

    // A stale copy of alice's token: the closest known one is hers, named by id and prefix only.
    await call(gitlab, SELF, as('glpat-reasons-alice-secret-99'))
    const unknown = last(gitlab)
    expect(unknown.status).toBe(401)
    expect(unknown.reason).toEqual({
      code: 'unknown_token',
      message: expect.stringContaining('closest known token is 10'),
      closest: { tokenId: 10, prefix: ALICE.slice(0, 10) },
    })
    expect(JSON.stringify(unknown)).not.toContain('secret-99')

    await call(gitlab, '/api/v4/users/9999', as(ALICE))
    expect(last(gitlab).reason).toEqual({
      code: 'refused',
      message: '404 User Not Found',
      error: 'not_found',
    })

    await call(gitlab, '/api/v4/nowhere', as(ALICE))
    expect(last(gitlab).reason).toMatchObject({ code: 'answer', message: '404 Not Found' })

    await call(gitlab, SELF, as(ALICE))
    expect(last(gitlab).reason).toBeNull()
  })

  it('malformed_token names the issued token a typo came from', async () => {
    const gitlab = await start()
    const { secret, token } = await gitlab.issueToken({ userId: 2, name: 'fresh', scopes: ['api'] })
    const typo = `${secret.slice(0, -1)}${secret.endsWith('a') ? 'b' : 'a'}`
    await call(gitlab, SELF, as(typo))
    expect(last(gitlab).reason).toMatchObject({
      code: 'malformed_token',
      closest: { tokenId: token.id, prefix: secret.slice(0, 10) },
    })
  })

  it('token_expired on its date', async () => {
    const gitlab = await start()
    gitlab.clock.set(new Date('2026-07-01T00:00:00.000Z'))
    await call(gitlab, SELF, as(ALICE))
    expect(last(gitlab).reason).toEqual({
      code: 'token_expired',
      message: 'token 10 expired on 2026-06-01',
      tokenId: 10,
      expiresOn: '2026-06-01',
    })
  })

  it('token_revoked by a revocation, by a rotation, and by reuse detection of its family', async () => {
    const gitlab = await start()
    await call(gitlab, SELF, { method: 'DELETE', ...as(READER) })
    await call(gitlab, SELF, as(READER))
    expect(last(gitlab).reason).toMatchObject({ code: 'token_revoked', tokenId: 11, revokedBy: 'revoke' })

    const rotated = await call(gitlab, `${SELF}/rotate`, { method: 'POST', ...as(ALICE) })
    const successor = (await rotated.json()) as { id: number; token: string }
    await call(gitlab, SELF, as(ALICE))
    expect(last(gitlab).reason).toMatchObject({ code: 'token_revoked', tokenId: 10, revokedBy: 'rotation' })

    // The rotated token presented to a rotation: reuse detection revokes its successor.
    await call(gitlab, `${SELF}/rotate`, { method: 'POST', ...as(ALICE) })
    await call(gitlab, SELF, as(successor.token))
    const reason = last(gitlab).reason
    expect(reason).toMatchObject({
      code: 'token_revoked',
      tokenId: successor.id,
      revokedBy: 'reuse_detection',
      familyId: 10,
    })
    expect(reason?.message).toContain('reuse detection of family 10')
  })

  it('insufficient_scope names the scopes the route takes and those the token has', async () => {
    const gitlab = await start()
    await call(gitlab, '/api/v4/personal_access_tokens', as(READER))
    expect(last(gitlab).reason).toMatchObject({
      code: 'insufficient_scope',
      tokenId: 11,
      required: expect.arrayContaining(['api']),
      scopes: ['read_user'],
    })
  })

  it('blocked_owner', async () => {
    const gitlab = await start()
    await call(gitlab, SELF, as(BLOCKED))
    expect(last(gitlab).reason).toMatchObject({ code: 'blocked_owner', userId: 3 })
  })

  it('admin_mode: an administrator acting without the admin_mode scope', async () => {
    const gitlab = await start({ adminMode: true })
    const response = await call(gitlab, '/api/v4/users/2/personal_access_tokens', {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': ROOT, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x', scopes: ['api'], expires_at: '2026-02-01' }),
    })
    expect(response.status).toBeGreaterThanOrEqual(400)
    expect(last(gitlab).reason).toMatchObject({ code: 'admin_mode', tokenId: 13, userId: 1 })
  })

  it('not_in_release: a route of a later GitLab than the emulated one', async () => {
    const gitlab = await start({ release: '15.0' })
    await call(gitlab, '/api/v4/metadata', as(ALICE))
    expect(last(gitlab).reason).toMatchObject({ code: 'not_in_release', since: '15.2', release: '15.0' })
  })

  it('fault: the rule that answered, by id; a delay alone refuses nothing', async () => {
    const gitlab = await start()
    const outage = gitlab.faults.add({ path: SELF, status: 503, times: 1 })._unsafeUnwrap()
    await call(gitlab, SELF, as(ALICE))
    expect(last(gitlab).reason).toEqual({
      code: 'fault',
      message: `fault rule ${outage.id} acted on the request`,
      faultId: outage.id,
    })
    gitlab.faults.add({ path: SELF, delayMs: 0, times: 1 })
    await call(gitlab, SELF, as(ALICE))
    expect(last(gitlab).reason).toBeNull()
  })
})

describe("a journal entry's detail", () => {
  it('shows the headers, parameters and answer with every credential filtered', async () => {
    const gitlab = await start()
    await call(gitlab, `${SELF}?private_token=${READER}&page=2`, {
      headers: {
        'PRIVATE-TOKEN': ALICE,
        Authorization: `Bearer ${ALICE}`,
        Cookie: 'session=abc',
        'X-Patkit-Control-Token': 'control-secret-value',
        Accept: 'application/json',
      },
    })
    const { detail } = last(gitlab)
    expect(detail?.headers).toMatchObject({
      'private-token': '[FILTERED]',
      authorization: '[FILTERED]',
      cookie: '[FILTERED]',
      'x-patkit-control-token': '[FILTERED]',
      accept: 'application/json',
    })
    expect(detail?.params).toEqual({ private_token: '[FILTERED]', page: '2' })
    expect(detail?.answer.status).toBe(200)
    expect(JSON.parse(detail?.answer.body ?? 'null')).toMatchObject({ id: 11, name: 'reader' })

    const rotated = await call(gitlab, `${SELF}/rotate`, { method: 'POST', ...as(ALICE) })
    const { token } = (await rotated.json()) as { token: string }
    const entry = last(gitlab)
    expect(JSON.parse(entry.detail?.answer.body ?? 'null')).toMatchObject({ token: '[FILTERED]' })
    const all = JSON.stringify(gitlab.journal.query().entries)
    for (const secret of [ALICE, READER, token, 'session=abc', 'control-secret-value'])
      expect(all).not.toContain(secret)
  })
})

describe('the reasons as data', () => {
  it('owner_gone: a token whose owner is not in the user directory', () => {
    const reason = refusalReason({
      status: 401,
      answerText: '401 Unauthorized',
      error: { type: 'unauthenticated', reason: 'user_inactive' },
      faultId: null,
      token: { id: 7, userId: 42, scopes: ['api'], expiresAt: null, familyId: 7 },
      closest: null,
      revokedBy: 'unknown',
      inactiveAdmin: false,
    })
    expect(reason).toEqual({ code: 'owner_gone', message: "the token's owner does not exist", tokenId: 7 })
  })

  it('insufficient_granular_scope names the boundary and the missing permissions, and fits its schema', () => {
    const reason = refusalReason({
      status: 403,
      answerText: null,
      error: { type: 'insufficient_granular_scope', boundary: 'project', missing: ['read_project'] },
      faultId: null,
      token: { id: 9, userId: 2, scopes: ['api'], expiresAt: null, familyId: 9 },
      closest: null,
      revokedBy: 'unknown',
      inactiveAdmin: false,
    })
    expect(reason).toEqual({
      code: 'insufficient_granular_scope',
      message: 'the fine-grained token lacks read_project at the project boundary',
      tokenId: 9,
      boundary: 'project',
      missing: ['read_project'],
    })
    const ajv = new Ajv2020({ strict: false })
    addFormatsModule.default(ajv)
    expect(ajv.compile(REFUSAL_REASON_SCHEMA)(reason)).toBe(true)
  })

  it('the JSON Schema has one object per code, with the fields each reason carries', async () => {
    const consts = REFUSAL_REASON_SCHEMA.oneOf.map((schema) => schema.properties.code.const)
    expect(consts).toEqual([...REFUSAL_CODES])
    // Every reason the fake records has exactly the fields its schema requires.
    const gitlab = await start({ release: '15.0' })
    gitlab.faults.add({ path: '/api/v4/users/1', status: 503 })._unsafeUnwrap()
    for (const [path, secret] of [
      [SELF, null],
      [SELF, 'glpat-reasons-alice-secret-99'],
      [SELF, BLOCKED],
      ['/api/v4/personal_access_tokens', READER],
      ['/api/v4/metadata', ALICE],
      ['/api/v4/users/1', ALICE],
      ['/api/v4/users/9999', ALICE],
      ['/api/v4/nowhere', ALICE],
    ] as const) {
      await call(gitlab, path, secret === null ? {} : as(secret))
      const reason = last(gitlab).reason
      if (reason === null) throw new Error(`${path}: no reason`)
      const schema = REFUSAL_REASON_SCHEMA.oneOf.find((s) => s.properties.code.const === reason.code)
      expect(Object.keys(reason).sort()).toEqual([...(schema?.required ?? [])].sort())
    }
  })

  it('the control API answers journal entries that fit JOURNAL_ENTRY_SCHEMA', async () => {
    const gitlab = await start()
    await call(gitlab, SELF, as(ALICE))
    await call(gitlab, SELF, as('glpat-reasons-alice-secret-99'))
    await call(gitlab, `${SELF}/rotate`, { method: 'POST', ...as(ALICE) })
    await call(gitlab, SELF, as(ALICE))
    const answer = (await (await call(gitlab, '/__patkit/journal')).json()) as { entries: unknown[] }
    const ajv = new Ajv2020({ strict: false })
    addFormatsModule.default(ajv)
    const validate = ajv.compile(JOURNAL_ENTRY_SCHEMA)
    expect(answer.entries.length).toBeGreaterThan(4)
    for (const entry of answer.entries) expect([validate(entry), validate.errors]).toEqual([true, null])
    // A closed schema: an entry with a field it does not declare does not fit.
    const request = answer.entries.find((entry) => (entry as { kind: string }).kind === 'request')
    expect(validate({ ...(request as object), secret: 'x' })).toBe(false)
  })
})
