import { describe, expect, it } from 'vitest'
import { SCOPES } from '../../../src/index.js'
import { gitlabSpecWorld, type SpecUser, type TokenInfo } from './world.js'

// GitLab's spec/requests/api/personal_access_tokens/self_information_spec.rb (commit dcb32080), one
// test per `it` (each scope of `Gitlab::Auth.all_available_scopes` is its own example: patkit's
// SCOPES), over real HTTP against the fake. docs/conformance.md maps them and lists those left out.

const PATH = '/personal_access_tokens/self'

async function world(kind: 'user' | 'admin', token: (w: SpecWorld, user: SpecUser) => Promise<TokenInfo>) {
  const w = await gitlabSpecWorld()
  const currentUser = kind === 'admin' ? await w.admin() : await w.user()
  return { ...w, currentUser, pat: await token(w, currentUser) }
}
type SpecWorld = Awaited<ReturnType<typeof gitlabSpecWorld>>

const plain = (w: SpecWorld, user: SpecUser) => w.token({ user })
// `:enable_admin_mode`: the administrator's token carries admin_mode (the fake runs with Admin Mode on).
const adminModeToken = (w: SpecWorld, user: SpecUser) => w.token({ user, scopes: ['api', 'admin_mode'] })

describe('DELETE /personal_access_tokens/self', () => {
  async function revokingTokenSucceeds(w: Awaited<ReturnType<typeof world>>) {
    const r = await w.api('DELETE', PATH, { personalAccessToken: w.pat })
    expect(r.status).toBe(204)
    expect((await w.reload(w.pat.id)).revoked).toBe(true)
  }

  describe('when current_user is an administrator', () => {
    it('revokes token', async () => {
      await revokingTokenSucceeds(await world('admin', adminModeToken))
    })

    describe('with impersonated token', () => {
      it('revokes token', async () => {
        await revokingTokenSucceeds(
          await world('admin', (w, user) =>
            w.token({ user, impersonation: true, scopes: ['api', 'admin_mode'] }),
          ),
        )
      })
    })
  })

  describe('when current_user is not an administrator', () => {
    it('revokes token', async () => {
      await revokingTokenSucceeds(await world('user', plain))
    })

    describe('with impersonated token', () => {
      it('cannot revoke token', async () => {
        const w = await world('user', (w, user) => w.token({ user, impersonation: true }))
        expect((await w.api('DELETE', PATH, { personalAccessToken: w.pat })).status).toBe(400)
      })
    })

    describe('with already revoked token', () => {
      it('cannot revoke token', async () => {
        const w = await world('user', (w, user) => w.token({ user, revoked: true }))
        expect((await w.api('DELETE', PATH, { personalAccessToken: w.pat })).status).toBe(401)
      })
    })
  })

  for (const scope of SCOPES) {
    describe(`with a '${scope}' scoped token`, () => {
      it('revokes token', async () => {
        await revokingTokenSucceeds(await world('user', (w, user) => w.token({ user, scopes: [scope] })))
      })
    })
  }
})

describe('GET /personal_access_tokens/self', () => {
  for (const scope of SCOPES) {
    describe(`with a '${scope}' scoped token`, () => {
      it('shows token info', async () => {
        const w = await world('user', (w, user) => w.token({ user, scopes: [scope] }))
        const r = await w.api('GET', PATH, { personalAccessToken: w.pat })
        expect(r.status).toBe(200)
        expect((r.json as { scopes: string[] }).scopes).toEqual([scope])
      })
    })
  }

  describe('when token is invalid', () => {
    it('returns 401', async () => {
      const w = await gitlabSpecWorld()
      expect((await w.send('GET', PATH, 'invalidtoken')).status).toBe(401)
    })
  })

  describe('when token is expired', () => {
    it('returns 401', async () => {
      const w = await world('user', (w, user) => w.token({ user, expiresAt: '2025-12-31' }))
      expect((await w.api('GET', PATH, { personalAccessToken: w.pat })).status).toBe(401)
    })
  })
})

describe('GET /personal_access_tokens/self/associations', () => {
  const path = `${PATH}/associations`

  describe('when token is invalid', () => {
    it('returns 401', async () => {
      const w = await gitlabSpecWorld()
      expect((await w.send('GET', path, 'invalidtoken')).status).toBe(401)
    })
  })

  describe('when token is valid', () => {
    describe('when token has no associations', () => {
      it('returns empty arrays', async () => {
        const w = await world('user', plain)
        const r = await w.api('GET', path, { personalAccessToken: w.pat })
        expect(r.json).toEqual({ groups: [], projects: [] })
        expect(r.status).toBe(200)
      })
    })
  })
})
