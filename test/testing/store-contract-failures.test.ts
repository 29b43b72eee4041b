import { errAsync, okAsync } from 'neverthrow'
import { describe, expect, it } from 'vitest'
import type { Token } from '../../src/domain/token.js'
import { memoryStore } from '../../src/memory/index.js'
import type { TokenStore } from '../../src/store/index.js'
import type { ConformanceContext } from '../../src/testing/conformance/context.js'
import { STORE_CONTRACTS } from '../../src/testing/conformance/contracts.js'
import { describeConformanceTests, runConformanceTest } from '../../src/testing/store-conformance.js'

// The suite's own test bodies, collected instead of registered, so that a test can run one on a
// broken store and read how it fails (the suite runs each through runConformanceTest too).
const bodies = new Map<string, (store: TokenStore) => Promise<void>>()
const collecting: ConformanceContext = {
  group: (_name, register) => register(),
  test: (title, body) => {
    bodies.set(title, body)
  },
  testOptional: (_capability, title, body) => {
    // Only memory stores, which have every capability, run these bodies here.
    bodies.set(title, body as (store: TokenStore) => Promise<void>)
  },
}
describeConformanceTests(collecting, collecting)

/** How the suite's test `title` fails on `store` (its error message), or `passed`. */
async function failureOf(title: string, store: TokenStore): Promise<string> {
  const body = bodies.get(title)
  if (body === undefined) throw new Error(`the suite has no test "${title}"`)
  try {
    await runConformanceTest(body, store)
    return 'passed'
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

const withIps = (token: Token | null): Token | null =>
  token === null || token.lastUsedIps !== undefined ? token : { ...token, lastUsedIps: [] }

/** A store that reads a token without addresses back as `lastUsedIps: []` (a NULL decoded as a list). */
function emptyIpLists(): TokenStore {
  const store = memoryStore()
  return {
    ...store,
    findById: (id) => store.findById(id).map(withIps),
    findByDigest: (digest) => store.findByDigest(digest).map(withIps),
  }
}

/** A store that answers ok to an insert it could not store (a second successor, a taken digest). */
function acceptsEveryInsert(): TokenStore {
  const store = memoryStore()
  return {
    ...store,
    insert: (draft) =>
      store.insert(draft).orElse(() => okAsync({ ...draft, id: 999, familyId: draft.familyId ?? 999 })),
  }
}

describe('issue 20: a store that breaks a contract fails the conformance suite naming the call and the contract', () => {
  it('a store that reads lastUsedIps back as [] fails, naming the read and no-empty-ips', async () => {
    const title = 'a token with no recorded address has no lastUsedIps (absent, not []) in any answer'
    expect(await failureOf(title, memoryStore())).toBe('passed')
    expect(await failureOf(title, emptyIpLists())).toBe(
      'findById(1): answered token 1 "token-1" of user 1, familyId 1, lastUsedIps [], digest "conformance-digest-1", ' +
        `which breaks [store contract no-empty-ips: ${STORE_CONTRACTS['no-empty-ips']}]`,
    )
  })

  it('a store that accepts a second successor fails, naming the insert, its token and one-successor', async () => {
    const title = 'a token never gets a second successor'
    expect(await failureOf(title, memoryStore())).toBe('passed')
    expect(await failureOf(title, acceptsEveryInsert())).toBe(
      'insert(draft "token-1" of user 1, previousId 1, familyId 1, digest "conformance-digest-4") ' +
        '[token 1 already has successor 2]: expected the store to refuse it ' +
        `[store contract one-successor: ${STORE_CONTRACTS['one-successor']}], ` +
        'got ok(token 999 "token-1" of user 1, previousId 1, familyId 1, digest "conformance-digest-4")',
    )
  })

  it('a store that accepts a taken digest fails, naming the insert and taken-id-or-digest', async () => {
    const message = await failureOf('insert refuses a digest that is already stored', acceptsEveryInsert())
    expect(message).toMatch(
      /^insert\(draft "second" of user 1, digest "conformance-digest-1"\) \[token 1 has that digest\]: /,
    )
    expect(message).toContain('[store contract taken-id-or-digest: ')
  })

  it('a failure where ok was expected names the call and shows the error', async () => {
    const store = memoryStore()
    const failing: TokenStore = {
      ...store,
      putUser: () => errAsync({ type: 'store_failure', operation: 'putUser', cause: new Error('disk full') }),
    }
    expect(await failureOf('putUser stores a user and findUser finds it by numeric id', failing)).toBe(
      'putUser(user 7 "alice"): expected ok, got the error { type: "store_failure", operation: "putUser", cause: Error: disk full }',
    )
  })

  it('a store that throws instead of returning a failure is named with the call', async () => {
    const store = memoryStore()
    const throwing: TokenStore = {
      ...store,
      findById: () => {
        throw new Error('connection lost')
      },
    }
    expect(await failureOf('findById returns null for an unknown id', throwing)).toBe(
      'findById(1001) threw instead of returning a store_failure: Error: connection lost',
    )
  })
})
