import fc from 'fast-check'
import { beforeAll, expect, it } from 'vitest'
import { memoryStore } from '../../src/memory/index.js'
import type { TokenStore } from '../../src/store/token-store.js'
import { okValue } from '../../src/testing/conformance/results.js'
import { listQueryArbitrary, tokensArbitrary } from '../support/list-arbitraries.js'
import { migratedStore } from './support/conformance.js'
import {
  type DatabaseTarget,
  emptyTables,
  mariadb,
  pglite,
  postgres,
  sqliteMemory,
  uniquePrefix,
} from './support/databases.js'
import { describeDatabase } from './support/describe-database.js'

// Each run empties the tables, imports up to 20 tokens and asks 8 lists: a few dozen round trips.
const RUNS = 50

// Names mix ASCII case, LIKE's metacharacters and escape character, spaces, quotes, a backslash (an
// escape in MySQL string literals), characters above the BMP and just below it (code point order),
// and non-ASCII letters. Only lower-case non-ASCII letters: SQLite's lower() folds ASCII only, and
// PostgreSQL's follows the database's LC_CTYPE, so 'É' matching 'é' differs by database (see
// docs/storage.md); every store agrees on ASCII case.
const NAME_PIECES = [
  'ci',
  'CI',
  'Deploy',
  'prod',
  'test_1',
  'test_2',
  '%',
  '_',
  '!',
  ' ',
  '"',
  '\\',
  'é',
  'ß',
  '😀',
  '\uFFFD',
]
const SEARCH_PIECES = [
  'ci',
  'CI',
  'deploy',
  'PROD',
  'test_1',
  '%',
  '_',
  '!',
  '\\',
  'é',
  'ß',
  '😀',
  ' ',
  '  ',
  '"',
  '"prod ci"',
]

const tokens = tokensArbitrary({
  namePieces: NAME_PIECES,
  minLength: 1,
  maxLength: 20,
  maxId: 100_000,
  descriptions: ['deploy key', 'é'],
  nullFreq: 3,
  scopes: (i) => (i % 2 === 0 ? ['api'] : ['read_api', 'self_rotate']),
})
const listQuery = listQueryArbitrary({ maxUserId: 4, searchPieces: SEARCH_PIECES, maxPage: 3 })

function describeEquivalence(target: DatabaseTarget, tag: string): Promise<void> {
  const prefix = uniquePrefix(tag)
  return describeDatabase(target, prefix, (db) => {
    let store: TokenStore
    beforeAll(async () => {
      store = await migratedStore(db, prefix)
    })

    it(`lists the same tokens, in the same order, with the same total as memoryStore (${RUNS} runs)`, {
      timeout: 120_000,
    }, async () => {
      await fc.assert(
        fc.asyncProperty(
          tokens,
          fc.array(listQuery, { minLength: 8, maxLength: 8 }),
          async (data, queries) => {
            await emptyTables(db, prefix)
            const reference = memoryStore()
            for (const token of data) {
              await okValue(store.importToken(token))
              await okValue(reference.importToken(token))
            }
            for (const query of queries) {
              const expected = await okValue(reference.list(query))
              const actual = await okValue(store.list(query))
              expect(actual.total).toBe(expected.total)
              expect(actual.items.map((t) => t.id)).toEqual(expected.items.map((t) => t.id))
              expect(actual.items).toEqual(expected.items)
            }
          },
        ),
        { numRuns: RUNS },
      )
    })
  })
}

await describeEquivalence(sqliteMemory, 'esqlite')
await describeEquivalence(pglite, 'epglite')
await describeEquivalence(postgres, 'epg')
await describeEquivalence(mariadb, 'emy')
