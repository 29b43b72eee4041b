import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { applyListQuery } from '../../src/query/apply.js'
import { listQueryArbitrary, tokensArbitrary } from '../support/list-arbitraries.js'
import { referenceList } from './reference.js'

// Names and searches mix ASCII case, LIKE's metacharacters, characters above the BMP and just below
// it, non-ASCII letters in both cases, spaces and quotes.
const NAME_PIECES = [
  'ci',
  'CI',
  'deploy',
  'Prod',
  'test_1',
  'test_2',
  '%',
  '_',
  '😀',
  '\uFFFD',
  'é',
  'É',
  ' ',
  '"',
]
const SEARCH_PIECES = ['ci', 'deploy', 'prod', 'test_1', '%', '_', '😀', 'é', ' ', '  ', '"', '"prod ci"']

const tokens = tokensArbitrary({ namePieces: NAME_PIECES, maxLength: 25, maxId: 10_000 })
const query = listQueryArbitrary({ maxUserId: 3, searchPieces: SEARCH_PIECES, maxPage: 5 })
// 1,000 random lists and queries against the brute-force reference: about 1 s alone, 2 s and more on
// a busy machine.
const PROPERTY_TIMEOUT_MS = 30_000

describe('applyListQuery against an independent brute-force reference', () => {
  it(
    'gives the same page and the same total for random tokens and queries',
    () => {
      fc.assert(
        fc.property(tokens, query, (all, q) => {
          const actual = applyListQuery(all, q)
          expect({ ids: actual.items.map((t) => t.id), total: actual.total }).toEqual(
            referenceList([...all], q),
          )
        }),
        { numRuns: 1000 },
      )
    },
    PROPERTY_TIMEOUT_MS,
  )

  it('the pages of one query partition its matches: no token twice, none missing', () => {
    fc.assert(
      fc.property(tokens, query, (all, q) => {
        const perPage = q.page.perPage
        const whole = applyListQuery(all, { ...q, page: { page: 1, perPage: all.length + 1 } }).items
        const pages = Math.max(1, Math.ceil(whole.length / perPage))
        const stitched = Array.from(
          { length: pages },
          (_, i) => applyListQuery(all, { ...q, page: { page: i + 1, perPage } }).items,
        ).flat()
        expect(stitched.map((t) => t.id)).toEqual(whole.map((t) => t.id))
      }),
      { numRuns: 300 },
    )
  })
})
