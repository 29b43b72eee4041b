import fc from 'fast-check'
import { FEATURES, type Release } from '../../src/authority/core/release.js'
import type { CalendarDate } from '../../src/domain/calendar.js'
import type { Token } from '../../src/index.js'

// The arbitraries of the hand-written JSON texts' property tests (token-json-text, resource-token-json-text):
// any text JSON must escape, any instant, any token, and the releases around each feature.

export const anyText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom('"', '\\', '\u0000', '\u001f', '\u2028', '\ud800', 'a"b\\c\nd', '</script>'),
)
export const instant = fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true })

export const tokenArbitrary: fc.Arbitrary<Token> = fc
  .record({
    id: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    userId: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    name: anyText,
    description: fc.option(anyText, { nil: null }),
    scopes: fc.array(anyText, { maxLength: 4 }),
    createdAt: instant,
    lastUsedAt: fc.option(instant, { nil: null }),
    lastUsedIps: fc.option(
      fc.array(fc.oneof(fc.ipV4(), fc.ipV6(), anyText), { minLength: 1, maxLength: 5 }),
      {
        nil: undefined,
      },
    ),
    expiresAt: fc.option(
      fc
        .date({ min: new Date(0), max: new Date(253402214400000), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10) as CalendarDate),
      { nil: null },
    ),
    revoked: fc.boolean(),
    impersonation: fc.boolean(),
    previousId: fc.option(fc.integer({ min: 1, max: 1000 }), { nil: null }),
  })
  .map(({ lastUsedIps, ...fields }) => ({
    ...fields,
    familyId: fields.id,
    digest: 'digest',
    ...(lastUsedIps === undefined ? {} : { lastUsedIps }),
  }))

// Each release a feature appeared in, and the one before it.
export const releases: Release[] = Object.values(FEATURES).flatMap(({ since }) => {
  const [major = 0, minor = 0] = since.split('.').map(Number)
  return [since, (minor === 0 ? `${major - 1}.11` : `${major}.${minor - 1}`) as Release]
})
