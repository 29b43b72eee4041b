import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { hasFeature } from '../../src/authority/core/release.js'
import { GRANULAR_ACCESS, type GranularScope } from '../../src/domain/granular-scope.js'
import { tokenJson, tokenJsonText, tokenWithIpsJson } from '../../src/http/token-json.js'
import { instant, releases, tokenArbitrary } from '../support/token-arbitraries.js'

// tokenJsonText writes the token entity's JSON by hand (GET /self's hot path): it must be byte for
// byte what JSON.stringify makes of the entity object, for any token, release and route.

const feature = fc.constantFrom('last_used_ips', 'last_used_ips_self', 'last_used_ips_list') as fc.Arbitrary<
  'last_used_ips' | 'last_used_ips_self' | 'last_used_ips_list'
>

// A fine-grained token's scopes, or none for a legacy token.
const granular: fc.Arbitrary<readonly GranularScope[] | null> = fc.option(
  fc.array(
    fc.record({
      access: fc.constantFrom(...GRANULAR_ACCESS),
      permissions: fc.array(fc.constantFrom('read_repository', 'create_issue', 'read_pipeline'), {
        maxLength: 2,
      }),
      projectId: fc.option(fc.nat(), { nil: null }),
      groupId: fc.option(fc.nat(), { nil: null }),
    }),
    { minLength: 1, maxLength: 2 },
  ),
  { nil: null },
)

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

  it('answers a frozen token asked again at other instants, releases and routes as if written anew', () => {
    // The text of a frozen token is remembered; every call must still be the entity of its own
    // arguments (an expiry day begun between two calls, another release or route, granular or not).
    const call = fc.record({
      now: instant,
      release: fc.constantFrom(...releases, '18.6', '18.9', '18.10', '19.6'),
      f: feature,
      withGranularScopes: fc.boolean(),
    })
    fc.assert(
      fc.property(
        tokenArbitrary,
        granular,
        fc.array(call, { minLength: 2, maxLength: 8 }),
        (drawn, scopes, calls) => {
          const token = Object.freeze(
            scopes === null ? { ...drawn } : { ...drawn, scopes: [], granularScopes: scopes },
          )
          for (const { now, release, f, withGranularScopes } of calls) {
            const entity: Record<string, unknown> = hasFeature(f, release)
              ? { ...tokenWithIpsJson(token, now, release) }
              : { ...tokenJson(token, now, release) }
            if (!withGranularScopes) delete entity['granular_scopes']
            expect(tokenJsonText(token, now, release, f, withGranularScopes)).toBe(JSON.stringify(entity))
          }
        },
      ),
      { numRuns: 1000 },
    )
  })
})
