import { describe, expect, it } from 'vitest'
import type { Release } from '../../src/authority/core/release.js'
import type { IssueTokenInput } from '../../src/authority/personal/issue-token.js'
import { ALICE } from '../support/authority-fixtures.js'
import { httpWorld } from '../support/http-fixtures.js'

// GitLab's spec/requests/api/metadata_spec.rb, whose shared examples run for GET /metadata and for
// GET /version (lib/api/metadata.rb serves both), one test per `it` and endpoint, titled as in GitLab.
// GitLab's `match_response_schema('public_api/v4/metadata')` becomes the exact body of the emulated
// release. The older spec/requests/api/version_spec.rb (`returns authentication error`, `returns the
// version information`) is the same pair of `it`s, covered here for /version.

const METADATA_19_6 =
  '{"version":"19.6.0","revision":"patkit","kas":{"enabled":false,"externalUrl":null,"externalK8sProxyUrl":null,"version":null},"enterprise":false}'

async function instance(token: Partial<IssueTokenInput> = {}, release?: Release) {
  const w = await httpWorld(release === undefined ? {} : { release })
  const { secret } = await w.issue(ALICE.id, token)
  const get = (path: string, method = 'GET', withToken = true) =>
    w.call(method, `/api/v4${path}`, withToken ? { token: secret } : {})
  return { ...w, get }
}

for (const endpoint of ['/metadata', '/version']) {
  describe(`GitLab metadata_spec: GET ${endpoint}`, () => {
    describe('when unauthenticated', () => {
      it('returns authentication error', async () => {
        const { get } = await instance()
        const r = await get(endpoint, 'GET', false)
        expect(r.status).toBe(401)
        expect(r.text).toBe('{"message":"401 Unauthorized"}')
      })
    })

    describe('when authenticated as user', () => {
      it('returns the metadata information', async () => {
        const { get } = await instance()
        const r = await get(endpoint)
        expect(r.status).toBe(200)
        expect(r.text).toBe(METADATA_19_6)
      })
    })

    for (const scope of ['api', 'ai_features', 'read_user'] as const) {
      describe(`when authenticated with token, with ${scope} scope`, () => {
        it('returns the metadata information', async () => {
          const { get } = await instance({ scopes: [scope] })
          const r = await get(endpoint)
          expect(r.status).toBe(200)
          expect(r.text).toBe(METADATA_19_6)
        })

        it('returns "200" response on head requests', async () => {
          const { get } = await instance({ scopes: [scope] })
          const r = await get(endpoint, 'HEAD')
          expect(r.status).toBe(200)
          expect(r.text).toBe('')
        })
      })
    }

    describe('when authenticated with token, with neither api, ai_features nor read_user scope', () => {
      it('returns authorization error', async () => {
        const { get } = await instance({ scopes: ['read_repository'] })
        const r = await get(endpoint)
        expect(r.status).toBe(403)
        expect(r.text).toBe(
          '{"error":"insufficient_scope","error_description":"The request requires higher privileges than provided by the access token.","scope":"api read_api read_user ai_features"}',
        )
      })
    })
  })
}

describe('metadata and version: the emulated release (patkit)', () => {
  it('version is the emulated release, MAJOR.MINOR.0; read_api may read it too', async () => {
    const { get } = await instance({ scopes: ['read_api'] }, '17.3')
    expect((await get('/version')).json).toMatchObject({ version: '17.3.0', revision: 'patkit' })
  })

  it('GET /metadata exists from 15.2: before, it is an unknown path, 404 before authentication', async () => {
    const old = await instance({}, '15.1')
    const r = await old.get('/metadata', 'GET', false)
    expect(r.status).toBe(404)
    expect(r.text).toBe('{"error":"404 Not Found"}')
    const since = await instance({}, '15.2')
    expect((await since.get('/metadata')).text).toBe(
      '{"version":"15.2.0","revision":"patkit","kas":{"enabled":false,"externalUrl":null,"version":null}}',
    )
  })

  it('GET /version mirrors /metadata from 15.5; before, it answers version and revision only', async () => {
    const old = await instance({}, '15.4')
    expect((await old.get('/version')).text).toBe('{"version":"15.4.0","revision":"patkit"}')
    const since = await instance({}, '15.5')
    expect((await since.get('/version')).text).toBe(
      '{"version":"15.5.0","revision":"patkit","kas":{"enabled":false,"externalUrl":null,"version":null}}',
    )
  })

  it('enterprise appears in 15.6 and kas.externalK8sProxyUrl in 17.6', async () => {
    const { get } = await instance({}, '17.5')
    expect((await get('/metadata')).text).toBe(
      '{"version":"17.5.0","revision":"patkit","kas":{"enabled":false,"externalUrl":null,"version":null},"enterprise":false}',
    )
    const newer = await instance({}, '17.6')
    expect((await newer.get('/metadata')).json).toHaveProperty('kas.externalK8sProxyUrl', null)
  })
})
