import { okAsync } from 'neverthrow'
import { expect, it, vi } from 'vitest'
import { memoryStore } from '../../src/memory/index.js'
import { describeStoreConformance } from '../../src/testing/index.js'

// Spied before the suite registers, since skip reasons are printed at registration.
const info = vi.spyOn(console, 'info').mockImplementation(() => {})

const REASON = 'this store matches usernames case-sensitively on purpose'

// A store that breaks exactly the skipped test: if the skip did not work, that test would fail.
describeStoreConformance({
  name: 'memory with a case-sensitive user lookup',
  create: () => {
    const store = memoryStore()
    return {
      ...store,
      findUser: (ref) =>
        typeof ref === 'string' && ref !== ref.toLowerCase() ? okAsync(null) : store.findUser(ref),
    }
  },
  skip: [{ reason: REASON, tests: ['findUser finds a user by username in any case'] }],
})

it('prints each skip reason once', () => {
  expect(info).toHaveBeenCalledTimes(1)
  expect(info.mock.calls[0]?.[0]).toContain(REASON)
})
