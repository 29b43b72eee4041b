import { describe, expect, it } from 'vitest'
import type { Authority } from '../../src/authority/create-authority.js'
import { SCOPES } from '../../src/domain/scopes.js'
import { requireToken as expressToken } from '../../src/express/index.js'
import { requireToken as fastifyToken } from '../../src/fastify/index.js'
import { requireToken as honoToken } from '../../src/hono/index.js'
import { authenticateRequest, type GuardOptions } from '../../src/http/index.js'
import { withToken as nextToken } from '../../src/next/index.js'
import { withToken as nodeToken } from '../../src/node/index.js'
import { ALICE, world } from '../support/authority-fixtures.js'

// A guard whose `scopes` no token can satisfy (a typo, an empty list, a scope outside the
// authority's vocabulary) would answer every request 403: each guard throws where it is built.

const GUARDS: readonly (readonly [string, (options: GuardOptions) => unknown])[] = [
  ['patkit/http authenticateRequest', (o) => authenticateRequest(new Request('http://app.test/me'), o)],
  ['patkit/node withToken', (o) => nodeToken(() => {}, o)],
  ['patkit/express requireToken', (o) => expressToken(o)],
  ['patkit/fastify requireToken', (o) => fastifyToken(o)],
  ['patkit/hono requireToken', (o) => honoToken(o)],
  ['patkit/next withToken', (o) => nextToken(async () => new Response(), o)],
]

const APP_SCOPES = ['notes:read', 'notes:write', 'billing']

/** What `fn` threw (it must throw). */
function thrown(fn: () => unknown): Error {
  try {
    fn()
  } catch (e) {
    if (e instanceof Error) return e
    throw new Error(`threw a non-Error: ${String(e)}`)
  }
  throw new Error('did not throw')
}

describe.each(GUARDS)('%s: scopes are checked where the guard is built', (_name, build) => {
  it('a scope outside GitLab’s vocabulary is a RangeError naming it and listing the vocabulary', async () => {
    const { authority } = await world()
    const e = thrown(() => build({ authority, scopes: ['reed'] }))
    expect(e).toBeInstanceOf(RangeError)
    expect(e.message).toBe(
      `patkit guard: unknown scope "reed" in scopes; the authority's scopes are ${SCOPES.join(', ')} (or pass scopes: 'any' to let a token of any scope in)`,
    )
  })

  it('several unknown scopes are all named, beside known ones', async () => {
    const { authority } = await world()
    const e = thrown(() => build({ authority, scopes: ['read_api', 'reed', 'wrte'] }))
    expect(e).toBeInstanceOf(RangeError)
    expect(e.message).toMatch(/^patkit guard: unknown scopes "reed", "wrte" in scopes; /)
  })

  it("an empty list is a RangeError that points to scopes: 'any'", async () => {
    const { authority } = await world()
    const e = thrown(() => build({ authority, scopes: [] }))
    expect(e).toBeInstanceOf(RangeError)
    expect(e.message).toBe(
      "patkit guard: scopes: [] lets no token in; name the scopes a token needs one of, or pass scopes: 'any' to let a token of any scope in",
    )
  })

  it("scopes neither a list nor 'any' (a JavaScript caller's 'api') is a TypeError", async () => {
    const { authority } = await world()
    const e = thrown(() => build({ authority, scopes: 'api' as unknown as 'any' }))
    expect(e).toBeInstanceOf(TypeError)
    expect(e.message).toBe(`patkit guard: scopes must be a list of scopes or 'any', got "api"`)
  })

  it('with an application’s own vocabulary, its scopes build and GitLab’s are unknown', async () => {
    const { authority } = await world({ scopes: APP_SCOPES })
    expect(() => build({ authority, scopes: ['notes:read', 'billing'] })).not.toThrow()
    const e = thrown(() => build({ authority, scopes: ['api'] }))
    expect(e).toBeInstanceOf(RangeError)
    expect(e.message).toContain(
      `unknown scope "api" in scopes; the authority's scopes are ${APP_SCOPES.join(', ')} (`,
    )
  })

  it("GitLab's scopes, and 'any', build", async () => {
    const { authority } = await world()
    expect(() => build({ authority, scopes: ['read_api', 'api'] })).not.toThrow()
    expect(() => build({ authority, scopes: [...SCOPES] })).not.toThrow()
    expect(() => build({ authority, scopes: 'any' })).not.toThrow()
  })
})

describe('authority.settings.scopes: the vocabulary the guards check against', () => {
  it("is GitLab's scopes by default, the scopes option otherwise, frozen", async () => {
    const gitlab: Authority = (await world()).authority
    expect(gitlab.settings.scopes).toEqual(SCOPES)
    const app: Authority = (await world({ scopes: [...APP_SCOPES, 'billing'] })).authority
    expect(app.settings.scopes).toEqual(APP_SCOPES)
    expect(Object.isFrozen(app.settings.scopes)).toBe(true)
  })

  it('a guard built with an app scope lets a token of that scope in', async () => {
    const { authority, issue } = await world({ scopes: APP_SCOPES })
    const { secret } = await issue(ALICE.id, { scopes: ['notes:write'] })
    const outcome = await authenticateRequest(
      new Request('http://app.test/notes', { headers: { 'PRIVATE-TOKEN': secret } }),
      { authority, scopes: ['notes:read', 'notes:write'] },
    )
    expect(outcome._unsafeUnwrap().user.username).toBe(ALICE.username)
  })
})
