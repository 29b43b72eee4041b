import { afterEach } from 'vitest'
import type { IssueTokenInput } from '../../../src/authority/personal/issue-token.js'
import { createFakeGitLab, type FakeGitLab, type FakeGitLabOptions } from '../../../src/fake/index.js'
import type { Clock } from '../../../src/index.js'
import { specStore } from './support/spec-store.js'

// The parts of GitLab's request spec helpers the ported specs need, over real HTTP against a fake
// GitLab (createFakeGitLab on an ephemeral port). GitLab's `api(path, user)` mints a fresh token for
// the user on every call and sends it as `private_token` (spec/support/helpers/api_helpers.rb); so
// does `api` here. GitLab's test instance runs with Admin Mode on and its admin tokens carry the
// `admin_mode` scope (`create(:personal_access_token, :admin_mode)`, `api(..., admin_mode: true)`,
// `:enable_admin_mode`): the fake runs with `adminMode: true` and `admin()` tokens get the scope.

/** The fake's clock: GitLab's specs run at the current time; these at a fixed one. */
export const NOW = new Date('2026-01-01T10:00:00.000Z')
/** `Date.today` at {@link NOW}. */
export const TODAY = '2026-01-01'

export interface SpecUser {
  readonly id: number
  readonly username: string
  readonly admin: boolean
}

export interface Reply {
  readonly status: number
  readonly text: string
  readonly headers: Headers
  readonly json: unknown
}

export interface TokenInfo {
  readonly id: number
  readonly secret: string
  readonly userId: number
}

const open: FakeGitLab<Clock>[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((gitlab) => gitlab.close()))
})

/** `Date.today + days` at {@link NOW}, as GitLab writes a date. */
export function daysFromToday(days: number): string {
  return new Date(NOW.getTime() + days * 86_400_000).toISOString().slice(0, 10)
}

/**
 * A fake GitLab with GitLab's factories: `user()` and `admin()` create users, `token()` a personal
 * access token as `create(:personal_access_token, ...)` does (name `Personal access token`, scope
 * `api`, expiring in 5 days, for a new user unless one is given).
 */
export async function gitlabSpecWorld(options: Omit<FakeGitLabOptions, 'users' | 'clock'> = {}) {
  const users: SpecUser[] = []
  const store = options.store ?? (await specStore())
  const gitlab = await createFakeGitLab({
    adminMode: true,
    ...options,
    ...(store === undefined ? {} : { store }),
    users: [],
    clock: NOW,
  })
  open.push(gitlab)
  let nextUserId = 1

  async function createUser(admin: boolean, blocked = false): Promise<SpecUser> {
    const id = nextUserId++
    const user = { id, username: `user${id}`, admin }
    const put = await gitlab.authority.users.put({ ...user, blocked })
    if (put.isErr()) throw new Error(`cannot create user ${id}`)
    users.push(user)
    return user
  }

  /** `create(:personal_access_token, ...)`: `user` defaults to a new user. */
  async function token(
    overrides: Partial<Omit<IssueTokenInput, 'userId'>> & { readonly user?: SpecUser } = {},
  ): Promise<TokenInfo> {
    const { user, ...fields } = overrides
    const owner = user ?? (await createUser(false))
    const issued = await gitlab.issueToken({
      userId: owner.id,
      name: 'Personal access token',
      scopes: ['api'],
      expiresAt: daysFromToday(5),
      ...fields,
    })
    return { id: issued.token.id, secret: issued.secret, userId: owner.id }
  }

  async function send(
    method: string,
    path: string,
    secret: string | undefined,
    params?: Record<string, unknown>,
  ) {
    const url = new URL(`${gitlab.apiUrl}${path}`)
    if (secret !== undefined) url.searchParams.set('private_token', secret)
    let body: string | undefined
    const headers: Record<string, string> = {}
    if (params !== undefined) {
      if (method === 'GET' || method === 'DELETE') {
        for (const [k, v] of Object.entries(params))
          if (v !== undefined && v !== null) url.searchParams.set(k, String(v))
      } else {
        body = JSON.stringify(params)
        headers['content-type'] = 'application/json'
      }
    }
    const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) })
    const text = await response.text()
    return {
      status: response.status,
      text,
      headers: response.headers,
      json: text === '' ? undefined : (JSON.parse(text) as unknown),
    } satisfies Reply
  }

  /**
   * GitLab's `api(path, user)` then the request: a fresh token for `user` (with `admin_mode` when
   * `adminMode` and the user is an administrator), or the given `personalAccessToken`, or none.
   */
  async function api(
    method: string,
    path: string,
    who: { user?: SpecUser; personalAccessToken?: TokenInfo; adminMode?: boolean } = {},
    params?: Record<string, unknown>,
  ): Promise<Reply> {
    let secret: string | undefined
    if (who.personalAccessToken !== undefined) secret = who.personalAccessToken.secret
    else if (who.user !== undefined) {
      const scopes = who.adminMode === true && who.user.admin ? ['api', 'admin_mode'] : ['api']
      secret = (await token({ user: who.user, scopes })).secret
    }
    return send(method, path, secret, params)
  }

  /** The token's state as the store has it, read through an administrator's admin_mode token. */
  async function reload(
    id: number,
  ): Promise<{ revoked: boolean; active: boolean; expires_at: string | null }> {
    const root = await createUser(true)
    const seer = await token({ user: root, scopes: ['api', 'admin_mode'] })
    const r = await send('GET', `/personal_access_tokens/${id}`, seer.secret)
    if (r.status !== 200) throw new Error(`token ${id}: ${r.status} ${r.text}`)
    return r.json as { revoked: boolean; active: boolean; expires_at: string | null }
  }

  return {
    gitlab,
    user: () => createUser(false),
    admin: () => createUser(true),
    blockedUser: () => createUser(false, true),
    token,
    api,
    send,
    reload,
    /** Every token id the store holds (GitLab's `PersonalAccessToken.all`). */
    allTokenIds: async () => (await gitlab.snapshot()).tokens.map((t) => t.id),
  }
}

/** The ids of a list answer. */
export function ids(reply: Reply): number[] {
  return (reply.json as { id: number }[]).map((t) => t.id)
}
