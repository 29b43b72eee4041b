import { describe, expect, it } from 'vitest'
import { gitlabSpecWorld } from './world.js'

// The personal access token `it`s of GitLab's users specs that the index holds and that apply to a
// token authority: ee/spec/requests/api/users_spec.rb (commit of id 28492215895 in the search
// index). The stored spec/requests/api/users_spec.rb is a 2018 version whose only token `it`s are
// impersonation tokens. docs/conformance.md lists every `it` and why the others are left out.

describe('POST /user/personal_access_tokens', () => {
  describe('when disable_personal_access_tokens feature is available', () => {
    describe('when personal access tokens are enabled in settings', () => {
      it('creates a personal access token', async () => {
        const w = await gitlabSpecWorld()
        const user = await w.user()
        // `expires_at: 3.days.from_now` is a Time: Rails sends it as `Time#to_s`, `2026-01-04 10:00:00 UTC`.
        const params = {
          name: 'new pat',
          description: 'description',
          expires_at: '2026-01-04 10:00:00 UTC',
          scopes: ['k8s_proxy'],
        }
        const r = await w.api('POST', '/user/personal_access_tokens', { user }, params)
        expect(r.status).toBe(201)
        const json = r.json as Record<string, unknown>
        expect(json['name']).toBe('new pat')
        expect(json['description']).toBe('description')
        expect(json['expires_at']).toBe('2026-01-04')
        expect(json['scopes']).toEqual(['k8s_proxy'])
        expect(json['id']).toBeTypeOf('number')
        expect(json['created_at']).toBeTypeOf('string')
        expect(json['active']).toBe(true)
        expect(json['revoked']).toBe(false)
        expect(json['token']).toBeTypeOf('string')
      })
    })
  })
})
