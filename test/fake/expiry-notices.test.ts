import { afterEach, describe, expect, it } from 'vitest'
import type { AuthorityEvent } from '../../src/authority/core/events.js'
import { expiryNotices } from '../../src/authority/core/expiry-notices.js'
import { manualClock } from '../../src/domain/clock.js'
import { createFakeGitLab, type FakeGitLab } from '../../src/fake/fake-gitlab.js'
import { memoryStore } from '../../src/memory/memory-store.js'
import { draftFactory } from '../../src/testing/fixtures.js'

const at = (iso: string) => new Date(`${iso}T12:00:00.000Z`)

describe('expiryNotices (embedders)', () => {
  it('emits each threshold once per token through onEvent, as the clock passes it', async () => {
    const store = memoryStore()
    const clock = manualClock(at('2026-01-01'))
    const events: AuthorityEvent[] = []
    await store.putUser({ id: 2, username: 'alice', admin: false, blocked: false })
    const draft = draftFactory('expiry')
    const soon = (await store.insert(draft({ userId: 2, expiresAt: '2026-03-03' })))._unsafeUnwrap()
    await store.insert(draft({ userId: 2, expiresAt: '2027-01-01' }))
    const notices = expiryNotices({ store, clock, onEvent: (e) => events.push(e) })
    const days = async () =>
      (await notices.check())
        ._unsafeUnwrap()
        .map((e) => (e.type === 'token_expiring' ? [e.token.id, e.days] : []))
    expect(await days()).toEqual([])
    clock.set(at('2026-01-02'))
    expect(await days()).toEqual([[soon.id, 60]])
    expect(await days()).toEqual([])
    clock.set(at('2026-02-24'))
    expect(await days()).toEqual([[soon.id, 7]])
    expect(await days()).toEqual([])
    expect(events.map((e) => e.type)).toEqual(['token_expiring', 'token_expiring'])
  })
})

describe('expiry notices in the fake authority', () => {
  let gitlab: FakeGitLab | undefined
  afterEach(async () => gitlab?.close())

  it('moving the clock over the control API puts token_expiring events in the journal, once per threshold', async () => {
    const seen: AuthorityEvent[] = []
    gitlab = await createFakeGitLab({
      tokens: [
        {
          id: 5,
          user_id: 2,
          name: 'ci',
          scopes: ['api'],
          token: 'glpat-expiring-secret-1',
          expires_at: '2026-03-03',
        },
      ],
      onEvent: (event) => seen.push(event),
    })
    const move = (body: unknown) =>
      fetch(`${gitlab?.url}/__patkit/clock/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    const notices = async () => {
      const response = await fetch(`${gitlab?.url}/__patkit/journal?type=token_expiring`)
      const { entries } = (await response.json()) as {
        entries: { event: { days: number; token: { id: number } } }[]
      }
      return entries.map((e) => [e.event.token.id, e.event.days])
    }
    await move({ days: 1 }) // 2026-01-02: 59 days left
    expect(await notices()).toEqual([[5, 60]])
    await move({ days: 30 }) // 2026-02-01: 29 days left
    await move({ hours: 1 })
    expect(await notices()).toEqual([
      [5, 60],
      [5, 30],
    ])
    await move({ days: 23 }) // 2026-02-24: 7 days left
    expect(await notices()).toEqual([
      [5, 60],
      [5, 30],
      [5, 7],
    ])
    expect(seen.filter((e) => e.type === 'token_expiring')).toHaveLength(3)
    // A reset is the start again, clock included: 61 days left, no notice yet.
    await fetch(`${gitlab.url}/__patkit/reset`, { method: 'POST' })
    expect(await notices()).toEqual([])
    // One move of 54 days gives what 54 daily runs would have given, in their order.
    await move({ days: 54 }) // 2026-02-24: 7 days left
    expect(await notices()).toEqual([
      [5, 60],
      [5, 30],
      [5, 7],
    ])
  })
})
