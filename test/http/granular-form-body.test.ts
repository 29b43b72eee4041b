import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseForm } from '../../src/http/form-params.js'
import { ALICE } from '../support/authority-fixtures.js'
import { httpWorld } from '../support/http-fixtures.js'

// GitLab reads a form body through Rack's nested query parser (Rack::QueryParser#normalize_params,
// rack/rack lib/rack/query_parser.rb): `k[][child]=v` adds `child` to the last hash of the array `k`
// unless that hash has `child` already (params_hash_has_key?), in which case it starts a new hash; a
// child name holding `[]` (`k[][permissions][]`) is never "already there", so it always goes to the
// last hash. Grape then validates `granular_scopes` (an Array of hashes) as it does a JSON body's.

const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

describe('parseForm: arrays of hashes (Rack normalize_params)', () => {
  it('each repeated [access] starts a new hash; [permissions][] and [project_ids][] add to the last one', () => {
    const body = [
      'name=fine',
      'granular_scopes[][access]=user',
      'granular_scopes[][permissions][]=read_user',
      'granular_scopes[][permissions][]=read_personal_access_token',
      'granular_scopes[][access]=selected_memberships',
      'granular_scopes[][permissions][]=read_project',
      'granular_scopes[][project_ids][]=7',
      'granular_scopes[][project_ids][]=8',
      'granular_scopes[][group_ids]=5,6',
    ].join('&')
    expect(parseForm(body)).toEqual({
      name: 'fine',
      granular_scopes: [
        { access: 'user', permissions: ['read_user', 'read_personal_access_token'] },
        {
          access: 'selected_memberships',
          permissions: ['read_project'],
          project_ids: ['7', '8'],
          group_ids: '5,6',
        },
      ],
    })
  })

  it('a hash key repeated without [] starts a new hash whatever the key (Rack groups by key, not by access)', () => {
    expect(parseForm('a[][x]=1&a[][y]=2&a[][y]=3&a[][x]=4')).toEqual({
      a: [
        { x: '1', y: '2' },
        { y: '3', x: '4' },
      ],
    })
  })

  it('percent-encoded brackets are the same names, and `scopes[]` stays a plain array', () => {
    expect(
      parseForm(
        'scopes%5B%5D=api&granular_scopes%5B%5D%5Baccess%5D=user&granular_scopes%5B%5D%5Bpermissions%5D%5B%5D=read_user',
      ),
    ).toEqual({ scopes: ['api'], granular_scopes: [{ access: 'user', permissions: ['read_user'] }] })
  })

  it('a name whose array of hashes conflicts with a plain value is refused (Rack ParameterTypeError)', () => {
    expect(parseForm('granular_scopes=x&granular_scopes[][access]=user')).toBeUndefined()
    expect(parseForm('g[][a]=1&g[][a][b]=2')).toBeUndefined()
  })

  it('a plain value after the array replaces it, as Rack assigns params[k] = v', () => {
    expect(parseForm('g[][a]=1&g=x')).toEqual({ g: 'x' })
  })
})

// A form encoder writes each scope's fields after its `[access]`: the parsed form is the JSON list.
const word = fc.stringMatching(/^[a-z_]{1,12}$/)
interface FormScope {
  readonly access: string
  readonly permissions: readonly string[]
  readonly project_ids?: readonly string[]
}
const scopeArb: fc.Arbitrary<FormScope> = fc.record(
  {
    access: word,
    permissions: fc.array(word, { minLength: 1, maxLength: 4 }),
    project_ids: fc.array(fc.nat({ max: 999 }).map(String), { minLength: 1, maxLength: 3 }),
  },
  { requiredKeys: ['access', 'permissions'] },
)

function encode(scopes: readonly FormScope[]): string {
  return scopes
    .flatMap((scope) => [
      `granular_scopes[][access]=${scope.access}`,
      ...scope.permissions.map((p) => `granular_scopes[][permissions][]=${p}`),
      ...(scope.project_ids ?? []).map((id) => `granular_scopes[][project_ids][]=${id}`),
    ])
    .join('&')
}

describe('parseForm: the form encoding of any scope list is that list', () => {
  it('holds for lists of 1 to 5 scopes', () => {
    fc.assert(
      fc.property(fc.array(scopeArb, { minLength: 1, maxLength: 5 }), (scopes) => {
        expect(parseForm(encode(scopes))).toEqual({ granular_scopes: scopes })
      }),
    )
  })
})

describe('POST /user/personal_access_tokens with a form-encoded granular_scopes', () => {
  it('creates the token a JSON body would, with both scopes in order', async () => {
    const w = await httpWorld({ release: '19.6' })
    const me = await w.issue(ALICE.id, { name: 'ci', scopes: ['api'], expiresAt: '2026-04-01' })
    const created = await w.call('POST', '/user/personal_access_tokens', {
      token: me.secret,
      headers: FORM,
      rawBody: [
        'name=fine',
        'expires_at=2026-04-01',
        'granular_scopes[][access]=user',
        'granular_scopes[][permissions][]=read_user',
        'granular_scopes[][permissions][]=read_personal_access_token',
        'granular_scopes[][access]=personal_projects',
        'granular_scopes[][permissions][]=read_project',
      ].join('&'),
    })
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({
      name: 'fine',
      granular: true,
      scopes: [],
      granular_scopes: [
        {
          access: 'user',
          permissions: ['read_user', 'read_personal_access_token'],
          project_id: null,
          group_id: null,
        },
        { access: 'personal_projects', permissions: ['read_project'], project_id: null, group_id: null },
      ],
    })
  })

  it('a form whose granular_scopes conflicts in shape is the plain 400 Bad Request of an unparsable form', async () => {
    const w = await httpWorld({ release: '19.6' })
    const me = await w.issue(ALICE.id, { name: 'ci', scopes: ['api'], expiresAt: '2026-04-01' })
    const refused = await w.handler(
      new Request('http://gitlab.test/api/v4/user/personal_access_tokens', {
        method: 'POST',
        headers: { ...FORM, 'PRIVATE-TOKEN': me.secret },
        body: 'name=fine&granular_scopes=user&granular_scopes[][access]=user',
      }),
    )
    expect([refused.status, await refused.text()]).toEqual([400, 'Bad Request'])
  })

  it("refuses a form entry without permissions with Grape's `is missing`, as for JSON", async () => {
    const w = await httpWorld({ release: '19.6' })
    const me = await w.issue(ALICE.id, { name: 'ci', scopes: ['api'], expiresAt: '2026-04-01' })
    const refused = await w.call('POST', '/user/personal_access_tokens', {
      token: me.secret,
      headers: FORM,
      rawBody: 'name=fine&expires_at=2026-04-01&granular_scopes[][access]=user',
    })
    const json = await w.call('POST', '/user/personal_access_tokens', {
      token: me.secret,
      body: { name: 'fine', expires_at: '2026-04-01', granular_scopes: [{ access: 'user' }] },
    })
    expect(refused.status).toBe(400)
    expect([refused.status, refused.json]).toEqual([json.status, json.json])
  })
})
