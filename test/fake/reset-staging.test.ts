import { describe, expect, it } from 'vitest'
import { memoryStore } from '../../src/memory/index.js'
import type { TokenStore } from '../../src/store/index.js'
import { BOB, control, fakeOver, ROOT, rotate, selfStatus, sqliteStore } from './support/data-fake.js'

// A reset or restore writes its data into a staging store and replaces the data in one step: a
// request arriving while the data is written is served from the data as it was, never from the
// half-written staging store (where a rotation would be answered 200 and then dropped), and ids keep
// going up across it, as GitLab's (and a SQL store's) do.

/** Staging stores (made only by a reset or restore) that run `probe` at their first write. */
function probedStaging(probe: () => void): () => TokenStore {
  return () => {
    const store = memoryStore()
    let first = true
    return {
      ...store,
      putUser: (user) => {
        if (first) {
          first = false
          probe()
        }
        return store.putUser(user)
      },
    }
  }
}

describe('a reset writes its data beside the data requests are served from', () => {
  it('a request during the reset is answered from the data as it was (a token minted before it: 200)', async () => {
    const probes: Promise<number>[] = []
    let probe = () => {}
    const fake = await fakeOver({ freshStore: probedStaging(() => probe()) })
    const { token: minted } = await rotate(fake, BOB)
    probe = () => probes.push(selfStatus(fake, ROOT), selfStatus(fake, minted))
    expect((await control(fake, 'POST', '/reset')).status).toBe(200)
    expect(probes).toHaveLength(2)
    // Before the fix the store was pointed at the staging store while the seed was written: ROOT (not
    // yet written there) and the rotated token were 401 mid-reset.
    expect(await Promise.all(probes)).toEqual([200, 200])
    // After it, the reset is whole: the token minted before it no longer authenticates.
    expect(await selfStatus(fake, minted)).toBe(401)
    expect(await selfStatus(fake, ROOT)).toBe(200)
  })

  it("ids go on above every id before a reset or a restore on a SQL store, as GitLab's do", async () => {
    const sqlite = await sqliteStore()
    try {
      const fake = await fakeOver({ store: sqlite.store, freshStore: undefined })
      const before = await rotate(fake, BOB)
      const again = await rotate(fake, before.token)
      expect((await control(fake, 'POST', '/reset')).status).toBe(200)
      const after = await rotate(fake, BOB)
      expect(after.id).toBeGreaterThan(again.id)
      const snapshot = await control(fake, 'GET', '/state')
      expect((await control(fake, 'PUT', '/state', snapshot.body)).status).toBe(200)
      const restored = await rotate(fake, after.token)
      expect(restored.id).toBeGreaterThan(after.id)
    } finally {
      await sqlite.close()
    }
  })

  it('the in-memory fake gives the ids and secrets after a reset that it gave after the start', async () => {
    const fake = await fakeOver()
    const first = await rotate(fake, BOB)
    expect((await control(fake, 'POST', '/reset')).status).toBe(200)
    expect(await rotate(fake, BOB)).toEqual(first)
  })
})
