import { afterEach, describe, expect, it } from 'vitest'
import { noticesDue } from '../../../src/fake/hooks/notice-schedule.js'
import type { FakeGitLab } from '../../../src/fake/index.js'
import { addHook, advanceDays, type Receiver, receiver, summary, world } from './expiry-world.js'

// GitLab's 7-day range starts at 0 days left: PersonalAccessToken::NOTIFICATION_INTERVALS is
// `{seven_days: 0..7, thirty_days: 8..30, sixty_days: 31..60}` and `scope_for_notification_interval`
// selects `expires_at BETWEEN Date.current + 0 AND Date.current + 7` (app/models/personal_access_token.rb,
// gitlabhq index id 2638073439), with no filter on expiry. So a token whose earlier daily runs gave no
// 7-day notice (one created after the day's 01:00 run and expiring the next day) gets it on its expiry
// day; the fake skipped it.

const open: { gitlab: FakeGitLab; r: Receiver }[] = []
afterEach(async () => {
  for (const { gitlab, r } of open.splice(0)) {
    await gitlab.close()
    await r.close()
  }
})

describe('the 7-day notice on the expiry day', () => {
  it('noticesDue gives the 7-day notice for a window that is the expiry day alone', () => {
    const token = { createdAt: new Date('2026-01-01T09:00:00Z'), expiresAt: '2026-01-02' as const }
    expect(noticesDue(token, '2026-01-02', '2026-01-02')).toEqual([{ interval: 7, on: '2026-01-02' }])
    // Not after it: the range ends at 0.
    expect(noticesDue(token, '2026-01-03', '2026-01-03')).toEqual([])
  })

  it('a token rotated to expire tomorrow gets its 7-day notice the next day (0 days left), once', async () => {
    const r = await receiver()
    const gitlab = await world()
    open.push({ gitlab, r })
    await addHook(gitlab, r.url, { type: 'project', id: 7 }, 'P')
    const admin = await gitlab.issueToken({ userId: 1, name: 'a', scopes: ['api'], expiresAt: '2031-01-01' })
    const answer = await fetch(`${gitlab.apiUrl}/projects/7/access_tokens/100/rotate`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': admin.secret, 'content-type': 'application/json' },
      body: JSON.stringify({ expires_at: '2026-01-02' }),
    })
    expect(answer.status).toBe(200)
    const { id } = (await answer.json()) as { id: number }
    await advanceDays(gitlab, 1)
    await advanceDays(gitlab, 1)
    expect(summary(r.received)).toEqual([`P:${id}:seven_days`])
  })
})
