import { describe, expect, it } from 'vitest'
import { commaSeparatedToArray } from '../../src/http/request-params.js'
import { ADMIN, ALICE, BOB } from '../support/authority-fixtures.js'
import { httpWorld } from '../support/http-fixtures.js'

// The create routes' parameters as Grape validates them (GitLab's lib/api/users.rb):
//   requires :name, type: String
//   requires :scopes, type: Array[String], coerce_with: CommaSeparatedToArray.coerce, values: [...]
// Grape runs presence, then coercion, then `values:` and reports every failure, in declaration order.
// GitLab's coercion turns an absent or null `scopes` into [] (lib/api/validations/types/
// comma_separated_to_array.rb), which `values:` accepts: an absent `scopes` is `scopes is missing` and
// nothing more, and an empty one reaches the model (`Scopes can't be blank`, 422 on these routes).

const MISSING_NAME = [400, '{"error":"name is missing"}']
// From 19.2 (19.6 on the admin's route) `scopes` is optional beside `granular_scopes`, under Grape's
// exactly_one_of (facts on fine-grained tokens §10): an absent `scopes` is that rule's failure.
const MISSING_SCOPES = [
  400,
  '{"error":"scopes, granular_scopes are missing, exactly one parameter must be provided"}',
]
const MISSING_BOTH = [
  400,
  '{"error":"name is missing, scopes, granular_scopes are missing, exactly one parameter must be provided"}',
]
const INVALID_SCOPES = [400, '{"error":"scopes does not have a valid value"}']
const MISSING_NAME_INVALID_SCOPES = [400, '{"error":"name is missing, scopes does not have a valid value"}']
const BLANK_SCOPES = [422, `{"message":"Scopes can't be blank"}`]
const BLANK_NAME = [422, `{"message":"Name can't be blank"}`]
const CREATED = [201, 'created']

/** Each case for a route whose `values:` are `[good, other]`. */
function cases(good: string, other: string): readonly (readonly [string, unknown, readonly unknown[]])[] {
  return [
    ['name missing', { scopes: [good] }, MISSING_NAME],
    ['scopes missing', { name: 'x' }, MISSING_SCOPES],
    ['both missing', {}, MISSING_BOTH],
    ['empty scopes array', { name: 'x', scopes: [] }, BLANK_SCOPES],
    ['unknown scope', { name: 'x', scopes: ['reed'] }, INVALID_SCOPES],
    ['unknown scope among known ones', { name: 'x', scopes: [good, 'reed'] }, INVALID_SCOPES],
    ['name missing, empty scopes array', { scopes: [] }, MISSING_NAME],
    ['name missing, unknown scope', { scopes: ['reed'] }, MISSING_NAME_INVALID_SCOPES],
    ['scopes null (present, coerced to none)', { name: 'x', scopes: null }, BLANK_SCOPES],
    ['scopes an empty string', { name: 'x', scopes: '' }, BLANK_SCOPES],
    ['scopes a number (coerced to none)', { name: 'x', scopes: 5 }, BLANK_SCOPES],
    ['scopes comma-separated', { name: 'x', scopes: `${good}, ${other}` }, CREATED],
    ['scopes comma-separated, a trailing comma', { name: 'x', scopes: `${good},` }, CREATED],
    ['scopes comma-separated, an empty part', { name: 'x', scopes: `${good},,${other}` }, INVALID_SCOPES],
    ['scopes comma-separated, a blank last part', { name: 'x', scopes: `${good}, ` }, INVALID_SCOPES],
    ['scopes an array with comma-separated elements', { name: 'x', scopes: [`${good},${other}`] }, CREATED],
    ['scopes an array with a non-string element', { name: 'x', scopes: [good, 1] }, INVALID_SCOPES],
    ['scopes an array with a null element (no scope)', { name: 'x', scopes: [good, null] }, CREATED],
    ['name null (present, blank)', { name: null, scopes: [good] }, BLANK_NAME],
    ['name null, scopes missing', { name: null }, MISSING_SCOPES],
  ]
}

const ROUTES = [
  {
    route: 'POST /users/:user_id/personal_access_tokens',
    path: `/users/${BOB.id}/personal_access_tokens`,
    good: 'api',
    other: 'read_user',
  },
  {
    route: 'POST /user/personal_access_tokens',
    path: '/user/personal_access_tokens',
    good: 'k8s_proxy',
    other: 'self_rotate',
  },
] as const

describe("create routes: Grape's parameter errors, exactly", () => {
  for (const { route, path, good, other } of ROUTES) {
    describe(route, () => {
      it.each(cases(good, other))('%s', async (_title, body, [status, text]) => {
        const { call, issue } = await httpWorld()
        // The administrator creates for bob; alice creates for herself.
        const caller = await issue(path.startsWith('/users/') ? ADMIN.id : ALICE.id)
        const r = await call('POST', path, { token: caller.secret, body })
        expect(r.status).toBe(status)
        if (status === 201) expect((r.json as { token: string }).token).toMatch(/^glpat-/)
        else expect(r.text).toBe(text)
      })
    })

    it(`${route}: a form body is parsed the same way`, async () => {
      const { call, issue } = await httpWorld()
      const caller = await issue(path.startsWith('/users/') ? ADMIN.id : ALICE.id)
      const form = { 'content-type': 'application/x-www-form-urlencoded' }
      const noScopes = await call('POST', path, { token: caller.secret, rawBody: 'name=x', headers: form })
      expect([noScopes.status, noScopes.text]).toEqual(MISSING_SCOPES)
      const noName = await call('POST', path, {
        token: caller.secret,
        rawBody: `scopes[]=${good}`,
        headers: form,
      })
      expect([noName.status, noName.text]).toEqual(MISSING_NAME)
      const created = await call('POST', path, {
        token: caller.secret,
        rawBody: `name=x&scopes=${good},${other}`,
        headers: form,
      })
      expect(created.status).toBe(201)
    })
  }
})

describe('POST /users/:user_id/impersonation_tokens: `scopes` optional, coerced the same way, no values', () => {
  const BLANK = [400, `{"message":{"scopes":["can't be blank"]}}`]
  const UNAVAILABLE = [400, '{"message":{"scopes":["can only contain available scopes"]}}']
  const table: readonly (readonly [string, unknown, readonly unknown[]])[] = [
    ['both missing', {}, MISSING_NAME],
    ['name missing', { scopes: ['api'] }, MISSING_NAME],
    ['name missing, unknown scope (no values: check)', { scopes: ['reed'] }, MISSING_NAME],
    ['scopes missing', { name: 'n' }, BLANK],
    ['empty scopes array', { name: 'n', scopes: [] }, BLANK],
    ['scopes null', { name: 'n', scopes: null }, BLANK],
    ['unknown scope', { name: 'n', scopes: ['reed'] }, UNAVAILABLE],
    ['comma-separated, an empty part', { name: 'n', scopes: 'api,,read_user' }, UNAVAILABLE],
    ['comma-separated', { name: 'n', scopes: 'api, read_user' }, CREATED],
    [
      'name null (present, blank)',
      { name: null, scopes: ['api'] },
      [400, `{"message":{"name":["can't be blank"]}}`],
    ],
  ]
  it.each(table)('%s', async (_title, body, [status, text]) => {
    const { call, issue } = await httpWorld()
    const root = await issue(ADMIN.id)
    const r = await call('POST', `/users/${ALICE.id}/impersonation_tokens`, { token: root.secret, body })
    expect(r.status).toBe(status)
    if (status === 201) expect(r.json).toMatchObject({ scopes: ['api', 'read_user'], impersonation: true })
    else expect(r.text).toBe(text)
  })
})

describe("commaSeparatedToArray: GitLab's coercion, Ruby's split and strip", () => {
  it.each([
    ['api', ['api']],
    [' api , read_user ', ['api', 'read_user']],
    ['api,,read_user', ['api', '', 'read_user']],
    ['api,read_user,,', ['api', 'read_user']],
    [',api', ['', 'api']],
    ['api, ', ['api', '']],
    ['', []],
    [',', []],
    [
      ['api', 'read_user,sudo'],
      ['api', 'read_user', 'sudo'],
    ],
    [['api', null, ''], ['api']],
    [
      [1, true],
      ['1', 'true'],
    ],
    [null, []],
    [undefined, []],
    [5, []],
    [{ api: true }, []],
  ] as const)('%j is %j', (value, expected) => {
    expect(commaSeparatedToArray(value)).toEqual(expected)
  })
})
