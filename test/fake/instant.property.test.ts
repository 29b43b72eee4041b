import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseZonedInstant } from '../../src/fake/control/instant.js'
import { validateSeed } from '../../src/fake/seed/seed-schema.js'

// One reading of an instant: `--clock`, `POST /__patkit/clock/set` (parseZonedInstant) and the seed's
// `created_at` accept the same texts in the seed's syntax, so a day that does not exist is refused
// everywhere rather than rolled over into the next month by one of them.

const pad = (n: number, width: number) => String(n).padStart(width, '0')

// Texts of the form YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM), every field drawn beyond its valid range too.
const seedSyntax = fc
  .record({
    // Years from 100: the seed's own calendar check (parseCalendarDate) reads years 0-99 as 1900-1999.
    year: fc.integer({ min: 100, max: 9999 }),
    month: fc.integer({ min: 0, max: 13 }),
    day: fc.integer({ min: 0, max: 32 }),
    hour: fc.integer({ min: 0, max: 25 }),
    minute: fc.integer({ min: 0, max: 61 }),
    second: fc.integer({ min: 0, max: 61 }),
    fraction: fc.option(
      fc.integer({ min: 0, max: 999_999 }).map((n) => `.${n}`),
      { nil: undefined },
    ),
    zone: fc.oneof(
      fc.constant('Z'),
      fc
        .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 }))
        .map(([sign, h, m]) => `${sign}${pad(h, 2)}:${pad(m, 2)}`),
    ),
  })
  .map(
    (f) =>
      `${pad(f.year, 4)}-${pad(f.month, 2)}-${pad(f.day, 2)}T${pad(f.hour, 2)}:${pad(f.minute, 2)}:${pad(f.second, 2)}${f.fraction ?? ''}${f.zone}`,
  )

const seedAccepts = (text: string) =>
  validateSeed({
    users: [{ id: 1, username: 'root' }],
    tokens: [{ user_id: 1, name: 'x', scopes: ['api'], token: 'glpat-instant-check', created_at: text }],
  }).success

describe('parseZonedInstant', () => {
  it('accepts exactly what the seed format accepts as created_at', () => {
    fc.assert(
      fc.property(seedSyntax, (text) => {
        expect(parseZonedInstant(text) !== null, text).toBe(seedAccepts(text))
      }),
      { numRuns: 2000 },
    )
  })

  it.each([
    ['2026-02-30T00:00:00Z', null],
    ['2027-02-29T00:00:00Z', null],
    ['2028-02-29T00:00:00Z', '2028-02-29T00:00:00.000Z'],
    ['2026-01-01T00:00Z', '2026-01-01T00:00:00.000Z'],
    ['2026-01-01T00:00:00+0130', '2025-12-31T22:30:00.000Z'],
    ['2026-01-01T00:00:00', null],
  ])('%s -> %s', (text, expected) => {
    expect(parseZonedInstant(text)?.toISOString() ?? null).toBe(expected)
  })
})
