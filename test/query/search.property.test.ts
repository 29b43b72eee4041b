import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { matchesSearch, parseSearch } from '../../src/query/search.js'
import { referenceSearchMatches } from './reference.js'

// Pieces chosen so that names contain quoted phrases, short and long words, astral characters,
// LIKE wildcards and mixed case; queries are built from the same pieces, so they often match.
const PIECES = [
  'ab',
  'AB',
  'abc',
  'prod',
  'Prod ',
  ' ci',
  '"',
  '"prod ci"',
  ' "ab c" ',
  '😀',
  'é',
  'É',
  '_',
  '%',
  ' ',
  '\t',
]
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 5 }).map((parts) => parts.join(''))

describe('search against an independent reference', () => {
  it('matchesSearch(parseSearch(q)) agrees with the reference on random names and queries', () => {
    fc.assert(
      fc.property(text, text, (name, query) => {
        expect(matchesSearch(name, parseSearch(query))).toBe(referenceSearchMatches(name, query))
      }),
      { numRuns: 3000 },
    )
  })

  it('a name always matches a query equal to itself once squished', () => {
    fc.assert(
      fc.property(text, (name) => {
        const squished = name.replace(/\s+/g, ' ').trim()
        expect(matchesSearch(squished, parseSearch(name))).toBe(true)
      }),
      { numRuns: 500 },
    )
  })
})
