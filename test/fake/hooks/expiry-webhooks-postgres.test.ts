import { expect, it } from 'vitest'
import { createFakeGitLab, type FakeGitLab, manualClock } from '../../../src/fake/index.js'
import { migrate, sqlStore } from '../../../src/sql/index.js'
import { postgres, uniquePrefix } from '../../sql/support/databases.js'
import { describeDatabase } from '../../sql/support/describe-database.js'
import { addHook, advanceDays, IDS, type Receiver, receiver, summary, world } from './expiry-world.js'

// Issue 33's done-when on PostgreSQL: the clock crosses 60, 30 and 7 days before expiry and the
// receiver gets exactly GitLab's notices, each once, also when the fake is started again over the same
// database in between (GitLab's per-token *_notification_sent_at columns: here `token_notices`).
const prefix = uniquePrefix('hookpg')
const P = IDS.projectToken
const G = IDS.groupToken
const all = (interval: string) =>
  [
    `G1:${G}:${interval}`,
    `G1:${P}:${interval}`,
    `G2:${G}:${interval}`,
    `G2:${P}:${interval}`,
    `P:${P}:${interval}`,
  ].sort()

await describeDatabase(postgres, prefix, (db) => {
  it('60, 30 and 7 days, once each, across a restart on the same database', { timeout: 60_000 }, async () => {
    ;(await migrate(db, { tablePrefix: prefix }))._unsafeUnwrap()
    const r: Receiver = await receiver()
    let gitlab: FakeGitLab | undefined
    try {
      gitlab = await world({ store: sqlStore(db, { tablePrefix: prefix }) })
      const resources = gitlab.store.resources
      if (resources === undefined) throw new Error('the SQL store has resources')
      // Every level opted in to the 60- and 30-day notices (GitLab's extended_*_expiry_webhooks_execute).
      for (const id of [1, 2]) {
        const group = (await resources.findGroup(id))._unsafeUnwrap()
        if (group === null) throw new Error(`group ${id}`)
        ;(await resources.putGroup({ ...group, extendedExpiryWebhooks: true }))._unsafeUnwrap()
      }
      const project = (await resources.findProject(7))._unsafeUnwrap()
      if (project === null) throw new Error('project 7')
      ;(await resources.putProject({ ...project, extendedExpiryWebhooks: true }))._unsafeUnwrap()
      await addHook(gitlab, r.url, { type: 'project', id: 7 }, 'P')
      await addHook(gitlab, r.url, { type: 'group', id: 2 }, 'G2')
      await addHook(gitlab, r.url, { type: 'group', id: 1 }, 'G1')

      await advanceDays(gitlab, 3) // 60 days left
      expect(summary(r.received)).toEqual(all('sixty_days'))
      const clockAt = gitlab.clock.now()
      await gitlab.close()

      // The same database, a new process's fake: no seed (users: [], nothing to add), the clock where
      // the first one stopped. Starting runs the daily worker: the 60-day notices were sent already.
      const before = r.received.length
      gitlab = await createFakeGitLab({
        store: sqlStore(db, { tablePrefix: prefix }),
        users: [],
        clock: manualClock(clockAt),
      })
      await advanceDays(gitlab, 0)
      expect(r.received.length).toBe(before)
      await advanceDays(gitlab, 30) // 30 days left
      expect(summary(r.received.slice(before))).toEqual(all('thirty_days'))
      const mid = r.received.length
      await advanceDays(gitlab, 23) // 7 days left
      expect(summary(r.received.slice(mid))).toEqual(all('seven_days'))
      // And nothing more on later days.
      const last = r.received.length
      await advanceDays(gitlab, 3)
      expect(r.received.length).toBe(last)
    } finally {
      await gitlab?.close()
      await r.close()
    }
  })
})
