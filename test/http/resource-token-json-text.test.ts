import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ResourceToken } from '../../src/authority/resource/resource-token-access.js'
import { ACCESS_LEVELS } from '../../src/domain/resource.js'
import { resourceTokenJson, resourceTokenJsonText } from '../../src/http/resource-token-json.js'
import { anyText, instant, releases, tokenArbitrary } from '../support/token-arbitraries.js'

// resourceTokenJsonText writes GitLab's ResourceAccessToken entity by hand (every list item): byte
// for byte JSON.stringify of resourceTokenJson, and with a secret of the object with `token` last
// (ResourceAccessTokenWithToken), for any token, role, resource and release.

const shownArbitrary: fc.Arbitrary<ResourceToken> = fc.record({
  token: tokenArbitrary,
  accessLevel: fc.option(fc.constantFrom(...ACCESS_LEVELS), { nil: null }),
  resource: fc.record({
    type: fc.constantFrom('project' as const, 'group' as const),
    id: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  }),
})

describe('resourceTokenJsonText', () => {
  it('is JSON.stringify of the entity, with or without the secret, for every token and release', () => {
    fc.assert(
      fc.property(
        shownArbitrary,
        instant,
        fc.constantFrom(...releases, '18.6'),
        fc.option(anyText, { nil: undefined }),
        (shown, now, release, secret) => {
          const entity = resourceTokenJson(shown, now, release)
          const expected = secret === undefined ? entity : { ...entity, token: secret }
          expect(resourceTokenJsonText(shown, now, release, secret)).toBe(JSON.stringify(expected))
        },
      ),
      { numRuns: 2000 },
    )
  })
})
