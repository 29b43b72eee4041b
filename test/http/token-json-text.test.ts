import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { hasFeature } from '../../src/authority/core/release.js'
import { tokenJson, tokenJsonText, tokenWithIpsJson } from '../../src/http/token-json.js'
import { instant, releases, tokenArbitrary } from '../support/token-arbitraries.js'

// tokenJsonText writes the token entity's JSON by hand (GET /self's hot path): it must be byte for
// byte what JSON.stringify makes of the entity object, for any token, release and route.

const feature = fc.constantFrom('last_used_ips', 'last_used_ips_self', 'last_used_ips_list') as fc.Arbitrary<
  'last_used_ips' | 'last_used_ips_self' | 'last_used_ips_list'
>

describe('tokenJsonText', () => {
  it('is JSON.stringify of the entity, for every token, release and route', () => {
    fc.assert(
      fc.property(
        tokenArbitrary,
        instant,
        fc.constantFrom(...releases, '18.6', '18.9', '18.10', '19.6'),
        feature,
        (token, now, release, f) => {
          const entity = hasFeature(f, release)
            ? tokenWithIpsJson(token, now, release)
            : tokenJson(token, now, release)
          expect(tokenJsonText(token, now, release, f)).toBe(JSON.stringify(entity))
        },
      ),
      { numRuns: 2000 },
    )
  })
})
