import { describe, expect, it } from 'vitest'
import type { FakeGitLab } from '../../../src/fake/index.js'
import type { HookLogDraft } from '../../../src/store/hook-store.js'
import { call, startWorld } from './world.js'

// GET .../hooks/:hook_id/events (lib/api/hooks/events.rb @ 0a3208dc: `status`, per_page 1..20 default
// 20) and the WebHookLog entity (lib/api/entities/web_hook_log.rb @ 41946e65; X-Gitlab-Token shown
// as [REDACTED] by WebHookLog#request_headers, app/models/hooks/web_hook_log.rb @ 0286e4c6).

const URL_OK = 'http://127.0.0.1:9/hook'

function log(hookId: number, status: string, minute: number): HookLogDraft {
  return {
    hookId,
    trigger: 'resource_access_token_hooks',
    url: URL_OK,
    requestHeaders: { 'Content-Type': 'application/json', 'X-Gitlab-Token': 'raw-secret' },
    requestData: '{"object_kind":"access_token"}',
    responseHeaders: { 'Content-Type': 'text/plain' },
    responseBody: 'ok',
    responseStatus: status,
    executionDuration: 0.25,
    internalErrorMessage: status === 'internal error' ? 'connection refused' : null,
    createdAt: new Date(Date.UTC(2026, 0, 1, 1, minute)),
  }
}

async function withLogs(gitlab: FakeGitLab, statuses: readonly string[]): Promise<void> {
  await call(gitlab, 'maintainer', 'POST', '/projects/7/hooks', { url: URL_OK })
  const hooks = gitlab.store.resources?.hooks
  for (const [i, status] of statuses.entries()) await hooks?.appendHookLog(log(1, status, i))
}

describe('a hook’s events', () => {
  it('are WebHookLog entities, newest first, with the secret header redacted', async () => {
    const gitlab = await startWorld()
    await withLogs(gitlab, ['200', '500'])
    const answer = await call(gitlab, 'maintainer', 'GET', '/projects/7/hooks/1/events')
    expect(answer.status).toBe(200)
    const text = await answer.text()
    expect(text).not.toContain('raw-secret')
    const events = JSON.parse(text)
    expect(events).toHaveLength(2)
    expect(events[0]).toEqual({
      id: 2,
      url: URL_OK,
      trigger: 'resource_access_token_hooks',
      request_headers: { 'Content-Type': 'application/json', 'X-Gitlab-Token': '[REDACTED]' },
      request_data: { object_kind: 'access_token' },
      response_headers: { 'Content-Type': 'text/plain' },
      response_body: 'ok',
      execution_duration: 0.25,
      response_status: '500',
      created_at: '2026-01-01T01:01:00.000Z',
    })
    expect(answer.headers.get('x-total')).toBe('2')
    expect(answer.headers.get('x-per-page')).toBe('20')
  })

  it('filter by status: codes, words, comma lists and arrays', async () => {
    const gitlab = await startWorld()
    await withLogs(gitlab, ['200', '201', '404', '500', 'internal error'])
    const statusesOf = async (query: string) => {
      const answer = await call(gitlab, 'maintainer', 'GET', `/projects/7/hooks/1/events?${query}`)
      expect(answer.status, query).toBe(200)
      return (await answer.json()).map((e: { response_status: string }) => e.response_status)
    }
    expect(await statusesOf('status=successful')).toEqual(['201', '200'])
    expect(await statusesOf('status=client_failure')).toEqual(['404'])
    expect(await statusesOf('status=server_failure')).toEqual(['internal error', '500'])
    expect(await statusesOf('status=404,200')).toEqual(['404', '200'])
    expect(await statusesOf('status[]=500&status[]=201')).toEqual(['500', '201'])
    const bad = await call(gitlab, 'maintainer', 'GET', '/projects/7/hooks/1/events?status=weird')
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({ error: 'status does not have a valid value' })
  })

  it('page at most 20 a page, with GitLab’s pagination headers', async () => {
    const gitlab = await startWorld()
    await withLogs(
      gitlab,
      Array.from({ length: 25 }, () => '200'),
    )
    const first = await call(gitlab, 'maintainer', 'GET', '/projects/7/hooks/1/events')
    expect(await first.json()).toHaveLength(20)
    expect(first.headers.get('x-next-page')).toBe('2')
    const second = await call(gitlab, 'maintainer', 'GET', '/projects/7/hooks/1/events?page=2&per_page=20')
    const items = await second.json()
    expect(items).toHaveLength(5)
    expect(items[4].id).toBe(1)
    expect(second.headers.get('x-total-pages')).toBe('2')
    const filtered = await call(
      gitlab,
      'maintainer',
      'GET',
      '/projects/7/hooks/1/events?status=200&per_page=10&page=3',
    )
    expect((await filtered.json()).map((e: { id: number }) => e.id)).toEqual([5, 4, 3, 2, 1])
    expect(filtered.headers.get('x-total')).toBe('25')
    for (const perPage of ['21', '0', '100']) {
      const refused = await call(
        gitlab,
        'maintainer',
        'GET',
        `/projects/7/hooks/1/events?per_page=${perPage}`,
      )
      expect(refused.status, perPage).toBe(400)
      expect(await refused.json()).toEqual({ error: 'per_page does not have a valid value' })
    }
  })

  it('of a missing hook: 404 Not found; of a group hook, by an Owner', async () => {
    const gitlab = await startWorld()
    const missing = await call(gitlab, 'maintainer', 'GET', '/projects/7/hooks/3/events')
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ message: '404 Not found' })
    await call(gitlab, 'owner', 'POST', '/groups/1/hooks', { url: URL_OK })
    await gitlab.store.resources?.hooks.appendHookLog(log(1, '200', 0))
    const group = await call(gitlab, 'owner', 'GET', '/groups/1/hooks/1/events')
    expect(group.status).toBe(200)
    expect(await group.json()).toHaveLength(1)
    expect((await call(gitlab, 'maintainer', 'GET', '/groups/1/hooks/1/events')).status).toBe(403)
  })
})
