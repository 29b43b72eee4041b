import { afterEach, describe, expect, it } from 'vitest'
import type { FakeGitLab } from '../../../src/fake/index.js'
import { journalUrl } from '../../../src/fake/journal-path.js'
import {
  addHook,
  advanceDays,
  control,
  EXPIRES,
  IDS,
  type Receiver,
  receiver,
  summary,
  type WorldOptions,
  world,
} from './expiry-world.js'

const open: { gitlab?: FakeGitLab; receiver?: Receiver }[] = []
afterEach(async () => {
  for (const { gitlab, receiver: r } of open.splice(0)) {
    await gitlab?.close()
    await r?.close()
  }
})

// Project hooks P (subscribed) and U (not), group hooks G2 (acme/platform) and G1 (acme).
async function setUp(options: WorldOptions = {}) {
  const r = await receiver()
  const gitlab = await world(options)
  open.push({ gitlab, receiver: r })
  await addHook(gitlab, r.url, { type: 'project', id: 7 }, 'P')
  await addHook(gitlab, r.url, { type: 'project', id: 7 }, 'U', false)
  await addHook(gitlab, r.url, { type: 'group', id: 2 }, 'G2')
  await addHook(gitlab, r.url, { type: 'group', id: 1 }, 'G1')
  return { gitlab, r }
}

// From 2026-01-01 (63 days left) to 60, 30 and 7 days left, one move each.
async function walk(gitlab: FakeGitLab, r: Receiver): Promise<string[][]> {
  const seen: string[][] = []
  for (const days of [3, 30, 23]) {
    const before = r.received.length
    await advanceDays(gitlab, days)
    seen.push(summary(r.received.slice(before)))
  }
  return seen
}

const P = IDS.projectToken
const G = IDS.groupToken

describe('expiry webhooks on the fake clock', () => {
  it('without the extended settings: the 7-day notice only, to the project hook and every group above', async () => {
    const { gitlab, r } = await setUp()
    expect(await walk(gitlab, r)).toEqual([
      [],
      [],
      [
        `G1:${G}:seven_days`,
        `G1:${P}:seven_days`,
        `G2:${G}:seven_days`,
        `G2:${P}:seven_days`,
        `P:${P}:seven_days`,
      ].sort(),
    ])
  })

  it('with every extended setting: 60, 30 and 7 days; a project hook never hears the group token', async () => {
    const { gitlab, r } = await setUp({ extended: { project: true, group1: true, group2: true } })
    const all = (interval: string) =>
      [
        `G1:${G}:${interval}`,
        `G1:${P}:${interval}`,
        `G2:${G}:${interval}`,
        `G2:${P}:${interval}`,
        `P:${P}:${interval}`,
      ].sort()
    expect(await walk(gitlab, r)).toEqual([all('sixty_days'), all('thirty_days'), all('seven_days')])
  })

  it('each ancestor group by its own setting for 30 and 60 days', async () => {
    const { gitlab, r } = await setUp({ extended: { project: true, group1: true, group2: false } })
    const [sixty] = await walk(gitlab, r)
    expect(sixty).toEqual([`G1:${G}:sixty_days`, `G1:${P}:sixty_days`, `P:${P}:sixty_days`].sort())
  })

  it('one jump across all three days gives the three notices once, in the order of the days', async () => {
    const { gitlab, r } = await setUp({ extended: { project: true } })
    await advanceDays(gitlab, 56)
    const p = r.received.filter((x) => x.path === '/P').map((x) => x.body['interval'])
    expect(p).toEqual(['sixty_days', 'thirty_days', 'seven_days'])
    await advanceDays(gitlab, 1)
    await advanceDays(gitlab, -20)
    await advanceDays(gitlab, 20)
    expect(r.received.filter((x) => x.path === '/P')).toHaveLength(3)
  })

  it('none for revoked tokens, tokens that never expire, humans or unsubscribed hooks', async () => {
    const { gitlab, r } = await setUp({ extended: { project: true, group1: true, group2: true } })
    await walk(gitlab, r)
    const tokens = new Set(r.received.map((x) => (x.body['object_attributes'] as { id: number }).id))
    expect([...tokens].sort()).toEqual([P, G])
    expect(r.received.some((x) => x.path === '/U')).toBe(false)
  })

  it('sends GitLab’s payload and headers', async () => {
    const { gitlab, r } = await setUp()
    await advanceDays(gitlab, 56)
    const got = r.received.find((x) => x.path === '/P')
    expect(got?.body).toEqual({
      object_kind: 'access_token',
      project: expect.objectContaining({
        id: 7,
        name: 'API',
        path_with_namespace: 'acme/platform/api',
        namespace: 'Platform',
      }),
      object_attributes: {
        user_id: IDS.projectBot,
        created_at: '2026-01-01 00:00:00 UTC',
        id: P,
        name: 'deploy',
        expires_at: EXPIRES,
        last_used_at: null,
      },
      event_name: 'expiring_access_token',
      interval: 'seven_days',
    })
    const group = r.received.find(
      (x) => x.path === '/G2' && (x.body['object_attributes'] as { id: number }).id === G,
    )
    expect(group?.body['group']).toEqual({
      group_name: 'Platform',
      group_path: 'platform',
      group_id: 2,
      full_path: 'acme/platform',
    })
    expect(got?.headers['x-gitlab-event']).toBe('Resource Access Token Hook')
    expect(got?.headers['x-gitlab-instance']).toBe(gitlab.url)
    expect(got?.headers['user-agent']).toMatch(/^GitLab\/\d+\.\d+\.0$/)
    expect(got?.headers['content-type']).toBe('application/json')
    expect(got?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/)
    expect(got?.headers['x-gitlab-webhook-uuid']).toMatch(/^[0-9a-f-]{36}$/)
    expect(got?.headers['x-gitlab-token']).toBeUndefined()
  })

  it('sends the opened hook secret and lists it redacted', async () => {
    const r = await receiver()
    const gitlab = await world({
      webhooks: { openToken: (sealed) => (sealed === 'sealed:s3cret' ? 's3cret' : null) },
    })
    open.push({ gitlab, receiver: r })
    await addHook(gitlab, r.url, { type: 'project', id: 7 }, 'P', true, 'sealed:s3cret')
    await advanceDays(gitlab, 56)
    expect(r.received[0]?.headers['x-gitlab-token']).toBe('s3cret')
    const listed = (await (await control(gitlab, 'GET', '/deliveries')).json()) as {
      deliveries: { request_headers: Record<string, string>; status: number; payload: { interval: string } }[]
    }
    expect(listed.deliveries[0]?.request_headers['X-Gitlab-Token']).toBe('[REDACTED]')
    expect(listed.deliveries[0]?.status).toBe(200)
    expect(listed.deliveries[0]?.payload.interval).toBe('seven_days')
    expect(JSON.stringify(listed)).not.toContain('s3cret')
  })

  it('logs each attempt in the hook store and the journal', async () => {
    const { gitlab, r } = await setUp()
    await advanceDays(gitlab, 56)
    const hooks = gitlab.store.resources?.hooks
    const logs = (await hooks?.listHookLogs(1, 1, 20))?._unsafeUnwrap()
    expect(logs?.total).toBe(1)
    expect(logs?.items[0]).toMatchObject({
      trigger: 'resource_access_token_hooks',
      responseStatus: '200',
      responseBody: 'thanks',
    })
    expect(logs?.items[0]?.executionDuration).toBeGreaterThanOrEqual(0)
    const journal = gitlab.journal.query({ kind: 'event', type: 'webhook_delivery' as never })
    expect(journal.count).toBe(r.received.length)
  })
})

describe('the journal of deliveries', () => {
  it("never holds a credential of a hook's URL: its query's and user information are filtered", async () => {
    const r = await receiver()
    const gitlab = await world()
    open.push({ gitlab, receiver: r })
    await addHook(gitlab, r.url, { type: 'project', id: 7 }, 'P?private_token=glpat-hook-url-secret-1&x=1')
    await advanceDays(gitlab, 56)
    expect(r.received.length).toBeGreaterThan(0)
    const { entries } = gitlab.journal.query({ kind: 'event', type: 'webhook_delivery' as never })
    const urls = entries.map((e) => (e.kind === 'event' ? e.event['url'] : undefined))
    expect(urls).toEqual(entries.map(() => `${r.url}/P?private_token=[FILTERED]&x=1`))
    expect(JSON.stringify(entries)).not.toContain('glpat-hook-url-secret-1')
    expect(journalUrl('https://user:pw@example.com/h?api_key=k&a=1')).toBe(
      'https://[FILTERED]@example.com/h?api_key=[FILTERED]&a=1',
    )
  })
})

describe('failed deliveries', () => {
  it.each([500, 'hang'] as const)(
    'a receiver answering %s gets one attempt and a log, no retry',
    async (answer) => {
      const { gitlab, r } = await setUp({ webhooks: { timeoutMs: 300 } })
      r.answer = answer
      await advanceDays(gitlab, 56)
      await advanceDays(gitlab, 1)
      expect(r.received.filter((x) => x.path === '/P')).toHaveLength(1)
      const log = (await gitlab.store.resources?.hooks.listHookLogs(1, 1, 20))?._unsafeUnwrap()
      expect(log?.total).toBe(1)
      expect(log?.items[0]?.responseStatus).toBe(answer === 500 ? '500' : 'internal error')
      if (answer === 'hang') expect(log?.items[0]?.internalErrorMessage).toContain('no answer within 300 ms')
    },
  )

  it('a refused connection gets one attempt and an internal error', async () => {
    const r = await receiver()
    const dead = r.url
    await r.close()
    const gitlab = await world()
    open.push({ gitlab })
    await addHook(gitlab, dead, { type: 'project', id: 7 }, 'P')
    await advanceDays(gitlab, 56)
    await advanceDays(gitlab, 1)
    const log = (await gitlab.store.resources?.hooks.listHookLogs(1, 1, 20))?._unsafeUnwrap()
    expect(log?.total).toBe(1)
    expect(log?.items[0]?.responseStatus).toBe('internal error')
    const listed = (await (await control(gitlab, 'GET', '/deliveries?wait=true')).json()) as {
      deliveries: { error: { kind: string } }[]
    }
    expect(listed.deliveries.map((d) => d.error.kind)).toEqual(['refused'])
  })

  it('a receiver outside loopback is blocked unless allowed', async () => {
    const gitlab = await world()
    open.push({ gitlab })
    await addHook(gitlab, 'http://10.255.255.1:9', { type: 'project', id: 7 }, 'P')
    await advanceDays(gitlab, 56)
    const listed = (await (await control(gitlab, 'GET', '/deliveries')).json()) as {
      deliveries: { error: { kind: string; message: string } }[]
    }
    expect(listed.deliveries[0]?.error.kind).toBe('blocked')
  })
})
