import { GitbeakerRequestError, Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SECRETS, SEED } from './support/seed.js'
import { type Served, serve, stopAll } from './support/serve.js'

// gitbeaker 43 (@gitbeaker/rest) creates and uses a fine-grained personal access token against
// `patkit serve` at its default release (19.6). gitbeaker's typed `PersonalAccessTokens.create(userId,
// name, scopes, options)` cannot create one: it is POST users/:id/personal_access_tokens and always
// sends `scopes` (even `[]`), which GitLab refuses together with `granular_scopes` (Grape's
// exactly_one_of), and it has no call for POST user/personal_access_tokens. So the token is created
// with the client's raw call, `requester.post(endpoint, { body })`, which sends the body as JSON (its
// keys decamelized, so `granular_scopes` and `project_ids` go out as written). Everything else is
// gitbeaker's typed API: Users.showCurrentUser, PersonalAccessTokens.all, rotate and show.

afterAll(stopAll)

const client = (url: string, token: string) => new Gitlab({ host: url, token })

const GRANULAR_SCOPES = [
  {
    access: 'user',
    permissions: ['read_user', 'read_personal_access_token', 'rotate_personal_access_token'],
  },
]
// GitLab's PersonalAccessTokenGranularScope entity, as the answers show them from 19.6.
const SHOWN = GRANULAR_SCOPES.map((s) => ({ ...s, project_id: null, group_id: null }))

interface Created extends Record<string, unknown> {
  id: number
  token: string
}

/** A fine-grained token of alice's, created with gitbeaker's raw request call. */
async function createFine(url: string, name: string): Promise<{ status: number; body: Created }> {
  const alice = client(url, SECRETS.alice)
  const { status, body } = await alice.requester.post<Created>('user/personal_access_tokens', {
    body: { name, granular_scopes: GRANULAR_SCOPES },
  })
  return { status, body }
}

/** What a gitbeaker call rejects with: the status and the description it took from our body. */
async function failure(promise: Promise<unknown>): Promise<{ description: string; status: number }> {
  try {
    await promise
  } catch (error) {
    if (!(error instanceof GitbeakerRequestError)) throw error
    return { description: error.cause?.description ?? '', status: error.cause?.response.status ?? 0 }
  }
  throw new Error('the call succeeded; a failure was expected')
}

describe('gitbeaker with a fine-grained token', () => {
  let server: Served
  beforeAll(async () => {
    server = await serve(SEED)
  })
  afterAll(() => server.close())

  it("the typed create() cannot send granular_scopes without scopes: GitLab's 400", async () => {
    // The options are typed `{ expiresAt? }`; gitbeaker still sends any other key, decamelized.
    const options = { granularScopes: GRANULAR_SCOPES } as { expiresAt?: string }
    const refused = await failure(
      client(server.url, SECRETS.root).PersonalAccessTokens.create(2, 'typed', [], options),
    )
    expect(refused).toEqual({ description: 'scopes, granular_scopes are mutually exclusive', status: 400 })
  })

  it('requester.post creates one: 201, granular, no legacy scopes, its granular_scopes', async () => {
    const { status, body } = await createFine(server.url, 'beaker-create')
    expect(status).toBe(201)
    expect(body).toMatchObject({
      name: 'beaker-create',
      user_id: 2,
      granular: true,
      scopes: [],
      granular_scopes: SHOWN,
    })
    expect(body.token).toMatch(/^glpat-/)
  })

  it('the token authenticates (GET /user) and lists its user tokens, granular_scopes on its own only', async () => {
    const { body: created } = await createFine(server.url, 'beaker-list')
    const fine = client(server.url, created.token)
    expect(await fine.Users.showCurrentUser()).toMatchObject({ id: 2, username: 'alice' })
    const listed = await fine.PersonalAccessTokens.all()
    const mine = listed.find((t) => t.id === created.id)
    expect(mine).toMatchObject({ name: 'beaker-list', granular: true, scopes: [], granular_scopes: SHOWN })
    const legacy = listed.filter((t) => t['granular'] === false)
    expect(legacy.map((t) => t.id)).toEqual([2, 3, 4, 5, 6, 7])
    expect(legacy.some((t) => 'granular_scopes' in t)).toBe(false)
  })

  it("is refused outside its scopes with GitLab's 403 (gitbeaker shows the body's `error`)", async () => {
    const { body: created } = await createFine(server.url, 'beaker-refused')
    const fine = client(server.url, created.token)
    // GET /users is read_user at the instance boundary; the token holds it at the user boundary only.
    expect(await failure(fine.Users.all())).toEqual({
      description: 'insufficient_granular_scope',
      status: 403,
    })
    // Creating a token needs create_personal_access_token.
    expect(
      await failure(
        fine.requester.post('user/personal_access_tokens', {
          body: { name: 'more', granular_scopes: GRANULAR_SCOPES },
        }),
      ),
    ).toEqual({ description: 'insufficient_granular_scope', status: 403 })
  })

  it("rotate('self') keeps the granular scopes; the new token works, the old one is revoked", async () => {
    const { body: created } = await createFine(server.url, 'beaker-rotate')
    const fine = client(server.url, created.token)
    const rotated = await fine.PersonalAccessTokens.rotate('self')
    expect(rotated).toMatchObject({
      name: 'beaker-rotate',
      granular: true,
      scopes: [],
      granular_scopes: SHOWN,
    })
    expect(rotated.id).not.toBe(created.id)
    expect(await client(server.url, rotated.token).Users.showCurrentUser()).toMatchObject({ id: 2 })
    expect(await failure(fine.Users.showCurrentUser())).toEqual({ description: 'invalid_token', status: 401 })
    const seen = await client(server.url, SECRETS.root).PersonalAccessTokens.show({ tokenId: rotated.id })
    expect(seen).toMatchObject({ user_id: 2, granular: true, granular_scopes: SHOWN })
  })
})
