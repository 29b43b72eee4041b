import { describe, expect, it } from 'vitest'
import { createFakeGitLab } from '../../src/fake/index.js'

describe('README snippets', () => {
  it('the fake GitLab snippet: a token issued for 2026-01-08 is expired after advancing the clock 7 days', async () => {
    const gitlab = await createFakeGitLab()
    try {
      const { secret } = await gitlab.issueToken({
        userId: 2,
        name: 'ci',
        scopes: ['api'],
        expiresAt: '2026-01-08',
      })
      const self = () =>
        fetch(`${gitlab.url}/api/v4/personal_access_tokens/self`, { headers: { 'PRIVATE-TOKEN': secret } })
      expect((await self()).status).toBe(200)
      gitlab.clock.advance(7 * 24 * 60 * 60 * 1000)
      const expired = await self()
      expect(expired.status).toBe(401)
      expect(await expired.json()).toMatchObject({ error: 'invalid_token' })
    } finally {
      await gitlab.close()
    }
  })
})
