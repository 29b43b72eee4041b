import { expect } from 'vitest'
import type { ResourceRef } from '../../domain/resource.js'
import type { HookLogStatus } from '../../store/hook-log-status.js'
import type { HookDraft, HookLogDraft, NoticeInterval } from '../../store/hook-store.js'
import type { ConformanceContext } from './context.js'
import { groupFixture, projectFixture } from './resources.js'
import { errValue, okValue } from './results.js'

/** A hook draft with the defaults the tests leave alone; its instant has milliseconds. */
export function hookDraftFixture(resource: ResourceRef, overrides: Partial<HookDraft> = {}): HookDraft {
  return {
    resource,
    url: `http://127.0.0.1:9000/${resource.type}/${resource.id}`,
    name: null,
    description: null,
    sealedToken: null,
    events: { resource_access_token_events: true },
    enableSslVerification: true,
    createdAt: new Date('2026-06-15T12:00:00.123Z'),
    ...overrides,
  }
}

/** A delivery attempt of a hook with the defaults the tests leave alone. */
export function hookLogFixture(hookId: number, overrides: Partial<HookLogDraft> = {}): HookLogDraft {
  return {
    hookId,
    trigger: 'resource_access_token_hooks',
    url: 'http://127.0.0.1:9000/hook',
    requestHeaders: { 'Content-Type': 'application/json', 'X-Gitlab-Token': '[REDACTED]' },
    requestData: '{"object_kind":"access_token"}',
    responseHeaders: { 'Content-Type': 'text/plain' },
    responseBody: 'ok',
    responseStatus: '200',
    executionDuration: 0.012345,
    internalErrorMessage: null,
    createdAt: new Date('2026-06-15T12:00:01.456Z'),
    ...overrides,
  }
}

const PROJECT: ResourceRef = { type: 'project', id: 7 }
const GROUP: ResourceRef = { type: 'group', id: 7 }

/** The instant `seconds` after 2026-06-15T12:00:00.000Z. */
const at = (seconds: number) => new Date(Date.UTC(2026, 5, 15, 12, 0, 0) + seconds * 1000)

/**
 * Conformance tests of the optional `resources` capability's webhooks (`resources.hooks`): hooks
 * stored exactly (event flags, sealed token, instants to the millisecond) and listed per project or
 * group, their delivery logs newest first in pages and deleted with them, a log of a missing hook
 * refused, the expiry notices claimed once per token and interval also under concurrency, the
 * projects' and groups' `extendedExpiryWebhooks`, and `replaceAll` emptying all of it.
 */
export function describeHooks(ctx: ConformanceContext): void {
  ctx.group('resources: webhooks, delivery logs and expiry notices (optional)', () => {
    ctx.testOptional(
      'resources',
      'insertHook stores a hook exactly with an id above every id before; findHook returns it',
      async (store) => {
        const { hooks } = store.resources
        const draft = hookDraftFixture(PROJECT, {
          name: 'Expiry',
          description: 'tells the bot owners',
          sealedToken: 'v1.sealed:abc/DEF+ghi==',
          events: { resource_access_token_events: true, push_events: false, tag_push_events: true },
          enableSslVerification: false,
          createdAt: new Date('2026-03-01T01:02:03.004Z'),
        })
        const first = await okValue(hooks.insertHook(draft))
        expect(Number.isSafeInteger(first.id) && first.id > 0, `id ${first.id}`).toBe(true)
        expect(first).toEqual({ ...draft, id: first.id })
        const second = await okValue(hooks.insertHook(hookDraftFixture(GROUP)))
        expect(second.id).toBeGreaterThan(first.id)
        const found = await okValue(hooks.findHook(first.id))
        expect(found).toEqual({ ...draft, id: first.id })
        expect(found?.createdAt.toISOString()).toBe('2026-03-01T01:02:03.004Z')
        expect(await okValue(hooks.findHook(second.id))).toEqual({
          ...hookDraftFixture(GROUP),
          id: second.id,
        })
        expect(await okValue(hooks.findHook(second.id + 1000))).toBeNull()
      },
    )

    ctx.testOptional(
      'resources',
      "listHooks returns one project's or group's hooks in id order, projects and groups apart",
      async (store) => {
        const { hooks } = store.resources
        const a = await okValue(hooks.insertHook(hookDraftFixture(PROJECT, { url: 'http://h/a' })))
        const g = await okValue(hooks.insertHook(hookDraftFixture(GROUP, { url: 'http://h/g' })))
        const other = await okValue(
          hooks.insertHook(hookDraftFixture({ type: 'project', id: 8 }, { url: 'http://h/o' })),
        )
        const b = await okValue(hooks.insertHook(hookDraftFixture(PROJECT, { url: 'http://h/b' })))
        expect(await okValue(hooks.listHooks(PROJECT))).toEqual([a, b])
        expect(await okValue(hooks.listHooks(GROUP))).toEqual([g])
        expect(await okValue(hooks.listHooks({ type: 'project', id: 8 }))).toEqual([other])
        expect(await okValue(hooks.listHooks({ type: 'group', id: 8 }))).toEqual([])
      },
    )

    ctx.testOptional(
      'resources',
      'updateHook replaces every field but the resource; null for an unknown id',
      async (store) => {
        const { hooks } = store.resources
        const hook = await okValue(hooks.insertHook(hookDraftFixture(PROJECT, { sealedToken: 'sealed-1' })))
        const changed = {
          ...hook,
          resource: GROUP,
          url: 'https://example.com/new',
          name: 'renamed',
          description: 'now described',
          sealedToken: null,
          events: { resource_access_token_events: false, merge_requests_events: true },
          enableSslVerification: false,
          createdAt: new Date('2026-07-01T00:00:00.999Z'),
        }
        const expected = { ...changed, resource: PROJECT }
        expect(await okValue(hooks.updateHook(changed))).toEqual(expected)
        expect(await okValue(hooks.findHook(hook.id))).toEqual(expected)
        expect(await okValue(hooks.listHooks(PROJECT))).toEqual([expected])
        expect(await okValue(hooks.listHooks(GROUP))).toEqual([])
        expect(await okValue(hooks.updateHook({ ...changed, id: hook.id + 1000 }))).toBeNull()
        expect(await okValue(hooks.findHook(hook.id + 1000))).toBeNull()
      },
    )

    ctx.testOptional(
      'resources',
      'deleteHook deletes the hook and its logs; false for an unknown id',
      async (store) => {
        const { hooks } = store.resources
        const kept = await okValue(hooks.insertHook(hookDraftFixture(PROJECT)))
        const gone = await okValue(hooks.insertHook(hookDraftFixture(PROJECT)))
        const keptLog = await okValue(hooks.appendHookLog(hookLogFixture(kept.id)))
        await okValue(hooks.appendHookLog(hookLogFixture(gone.id)))
        await okValue(hooks.appendHookLog(hookLogFixture(gone.id)))
        expect(await okValue(hooks.deleteHook(gone.id))).toBe(true)
        expect(await okValue(hooks.findHook(gone.id))).toBeNull()
        expect(await okValue(hooks.listHooks(PROJECT))).toEqual([kept])
        expect(await okValue(hooks.listHookLogs(gone.id, 1, 20))).toEqual({ items: [], total: 0 })
        expect(await okValue(hooks.listHookLogs(kept.id, 1, 20))).toEqual({ items: [keptLog], total: 1 })
        expect(await okValue(hooks.deleteHook(gone.id))).toBe(false)
        expect(await okValue(hooks.deleteHook(gone.id + 1000))).toBe(false)
      },
    )

    ctx.testOptional(
      'resources',
      'appendHookLog stores a delivery attempt exactly with an id above every id before',
      async (store) => {
        const { hooks } = store.resources
        const hook = await okValue(hooks.insertHook(hookDraftFixture(PROJECT)))
        const ok = hookLogFixture(hook.id)
        const failed = hookLogFixture(hook.id, {
          requestHeaders: {},
          responseHeaders: {},
          responseBody: '',
          responseStatus: 'internal error',
          executionDuration: 1.5,
          internalErrorMessage: 'connect ECONNREFUSED 127.0.0.1:9000',
          createdAt: new Date('2026-06-15T12:00:02.789Z'),
        })
        const first = await okValue(hooks.appendHookLog(ok))
        const second = await okValue(hooks.appendHookLog(failed))
        expect(Number.isSafeInteger(first.id) && first.id > 0, `id ${first.id}`).toBe(true)
        expect(second.id).toBeGreaterThan(first.id)
        expect(first).toEqual({ ...ok, id: first.id })
        expect(second).toEqual({ ...failed, id: second.id })
        const { items } = await okValue(hooks.listHookLogs(hook.id, 1, 20))
        expect(items).toEqual([second, first])
        expect(items[1]?.createdAt.toISOString()).toBe('2026-06-15T12:00:01.456Z')
        expect(items[1]?.executionDuration).toBe(0.012345)
      },
    )

    ctx.testOptional(
      'resources',
      "listHookLogs returns one hook's logs newest first, one page and the total",
      async (store) => {
        const { hooks } = store.resources
        const hook = await okValue(hooks.insertHook(hookDraftFixture(PROJECT)))
        const other = await okValue(hooks.insertHook(hookDraftFixture(PROJECT)))
        const logs = []
        for (let k = 0; k < 5; k++) {
          logs.push(
            await okValue(hooks.appendHookLog(hookLogFixture(hook.id, { requestData: `{"k":${k}}` }))),
          )
          await okValue(hooks.appendHookLog(hookLogFixture(other.id)))
        }
        const newest = [...logs].reverse()
        expect(await okValue(hooks.listHookLogs(hook.id, 1, 2))).toEqual({
          items: newest.slice(0, 2),
          total: 5,
        })
        expect(await okValue(hooks.listHookLogs(hook.id, 2, 2))).toEqual({
          items: newest.slice(2, 4),
          total: 5,
        })
        expect(await okValue(hooks.listHookLogs(hook.id, 3, 2))).toEqual({ items: newest.slice(4), total: 5 })
        expect(await okValue(hooks.listHookLogs(hook.id, 4, 2))).toEqual({ items: [], total: 5 })
        expect(await okValue(hooks.listHookLogs(hook.id + 1000, 1, 2))).toEqual({ items: [], total: 0 })
      },
    )

    ctx.testOptional(
      'resources',
      "listHookLogs filters by GitLab's statuses (codes and classes, together), counting only the matching",
      async (store) => {
        const { hooks } = store.resources
        const hook = await okValue(hooks.insertHook(hookDraftFixture(PROJECT)))
        const other = await okValue(hooks.insertHook(hookDraftFixture(PROJECT)))
        const statuses = ['200', '201', '299', '300', '404', '499', '500', '503', 'internal error', '100']
        const byStatus = new Map<string, number>()
        for (const responseStatus of statuses) {
          const log = await okValue(hooks.appendHookLog(hookLogFixture(hook.id, { responseStatus })))
          byStatus.set(responseStatus, log.id)
          await okValue(hooks.appendHookLog(hookLogFixture(other.id, { responseStatus })))
        }
        const shown = async (wanted: readonly HookLogStatus[]) => {
          const { items, total } = await okValue(hooks.listHookLogs(hook.id, 1, 100, wanted))
          expect(total, JSON.stringify(wanted)).toBe(items.length)
          return items.map((log) => log.responseStatus)
        }
        expect(await shown(['successful'])).toEqual(['299', '201', '200'])
        expect(await shown(['client_failure'])).toEqual(['499', '404'])
        expect(await shown(['server_failure'])).toEqual(['internal error', '503', '500'])
        expect(await shown([404, 300])).toEqual(['404', '300'])
        expect(await shown(['successful', 503])).toEqual(['503', '299', '201', '200'])
        expect(await shown([418])).toEqual([])
        expect(await shown([])).toHaveLength(statuses.length)
        // A page of the matching, and their total.
        expect(await okValue(hooks.listHookLogs(hook.id, 2, 2, ['successful']))).toEqual({
          items: [expect.objectContaining({ id: byStatus.get('200') })],
          total: 3,
        })
      },
    )

    ctx.testOptional(
      'resources',
      'appendHookLog of a hook that does not exist (or no longer) fails with a store_failure',
      async (store) => {
        const { hooks } = store.resources
        const hook = await okValue(hooks.insertHook(hookDraftFixture(PROJECT)))
        const missing = await errValue(hooks.appendHookLog(hookLogFixture(hook.id + 1000)))
        expect(missing.type).toBe('store_failure')
        await okValue(hooks.deleteHook(hook.id))
        const deleted = await errValue(hooks.appendHookLog(hookLogFixture(hook.id)))
        expect(deleted.type).toBe('store_failure')
        expect(await okValue(hooks.listHookLogs(hook.id, 1, 20))).toEqual({ items: [], total: 0 })
      },
    )

    ctx.testOptional(
      'resources',
      'claimNotice is true once per token and interval; noticesOf returns when each was given',
      async (store) => {
        const { hooks } = store.resources
        expect(await okValue(hooks.noticesOf(42))).toEqual(new Map())
        expect(await okValue(hooks.claimNotice(42, 7, at(1.001)))).toBe(true)
        expect(await okValue(hooks.claimNotice(42, 7, at(2)))).toBe(false)
        expect(await okValue(hooks.claimNotice(42, 30, at(3)))).toBe(true)
        expect(await okValue(hooks.claimNotice(43, 7, at(4)))).toBe(true)
        expect(await okValue(hooks.claimNotice(42, 30, at(5)))).toBe(false)
        expect(await okValue(hooks.noticesOf(42))).toEqual(
          new Map<NoticeInterval, Date>([
            [7, at(1.001)],
            [30, at(3)],
          ]),
        )
        expect(await okValue(hooks.noticesOf(43))).toEqual(new Map([[7, at(4)]]))
        expect(await okValue(hooks.noticesOf(44))).toEqual(new Map())
        expect(await okValue(hooks.claimNotice(42, 60, at(6)))).toBe(true)
        expect([...(await okValue(hooks.noticesOf(42))).keys()].sort((x, y) => x - y)).toEqual([7, 30, 60])
      },
    )

    ctx.testOptional(
      'resources',
      'of 16 concurrent claimNotice calls of one notice exactly one is true',
      async (store) => {
        const { hooks } = store.resources
        const count = 16
        const claims = await Promise.all(
          Array.from({ length: count }, (_, k) => okValue(hooks.claimNotice(50, 60, at(k)))),
        )
        const winners = claims.flatMap((won, k) => (won ? [k] : []))
        expect(winners, `claims ${claims.join(', ')}`).toHaveLength(1)
        expect(await okValue(hooks.noticesOf(50))).toEqual(new Map([[60, at(winners[0] ?? -1)]]))
        // Another interval of the token is a notice of its own, under concurrency too.
        const others = await Promise.all(
          ([7, 30] as const).flatMap((interval) =>
            Array.from({ length: 4 }, () => okValue(hooks.claimNotice(50, interval, at(100)))),
          ),
        )
        expect(others.filter(Boolean)).toHaveLength(2)
      },
    )

    ctx.testOptional(
      'resources',
      'putProject and putGroup keep extendedExpiryWebhooks, returned only when true',
      async (store) => {
        const { resources } = store
        const project = projectFixture(7, { extendedExpiryWebhooks: true })
        const group = groupFixture(3, { extendedExpiryWebhooks: true })
        expect(await okValue(resources.putProject(project))).toEqual(project)
        expect(await okValue(resources.putGroup(group))).toEqual(group)
        expect(await okValue(resources.findProject(7))).toEqual(project)
        expect(await okValue(resources.findGroup('group-3'))).toEqual(group)
        expect(await okValue(resources.listProjects())).toEqual([project])
        expect(await okValue(resources.listGroups())).toEqual([group])
        // false and absent read back alike: without the field.
        const off = projectFixture(7, { extendedExpiryWebhooks: false })
        const returned = await okValue(resources.putProject(off))
        expect(returned).toEqual(projectFixture(7))
        expect('extendedExpiryWebhooks' in returned).toBe(false)
        const found = await okValue(resources.findProject(7))
        expect(found).toEqual(projectFixture(7))
        expect(found !== null && 'extendedExpiryWebhooks' in found).toBe(false)
        await okValue(resources.putGroup(groupFixture(3)))
        const listed = await okValue(resources.listGroups())
        expect(listed).toEqual([groupFixture(3)])
        expect(listed.some((g) => 'extendedExpiryWebhooks' in g)).toBe(false)
      },
    )

    ctx.testOptional(
      'resources',
      'replaceAll empties the hooks, their logs, the notices given and the audit events; ids keep rising',
      async (store) => {
        const { hooks, audit } = store.resources
        const hook = await okValue(hooks.insertHook(hookDraftFixture(PROJECT)))
        const log = await okValue(hooks.appendHookLog(hookLogFixture(hook.id)))
        expect(await okValue(hooks.claimNotice(42, 7, at(1)))).toBe(true)
        const event = await okValue(
          audit.appendAuditEvent({
            authorId: 1,
            entityType: 'User',
            entityId: 1,
            eventName: 'personal_access_token_revoked',
            details: { custom_message: 'Revoked personal access token with id 42' },
            createdAt: at(2),
          }),
        )
        const project = projectFixture(7, { extendedExpiryWebhooks: true })
        await okValue(store.replaceAll({ users: [], tokens: [], groups: [], projects: [project] }))
        expect(await okValue(hooks.findHook(hook.id))).toBeNull()
        expect(await okValue(hooks.listHooks(PROJECT))).toEqual([])
        expect(await okValue(hooks.listHookLogs(hook.id, 1, 20))).toEqual({ items: [], total: 0 })
        expect(await okValue(hooks.noticesOf(42))).toEqual(new Map())
        expect(await okValue(audit.findAuditEvent(event.id))).toBeNull()
        expect(await okValue(audit.listAuditEvents({}, 1, 20))).toEqual({ items: [], total: 0 })
        expect(await okValue(store.resources.findProject(7))).toEqual(project)
        // The notice may be given again; new rows get ids above the ones before the reset.
        expect(await okValue(hooks.claimNotice(42, 7, at(3)))).toBe(true)
        const next = await okValue(hooks.insertHook(hookDraftFixture(PROJECT)))
        expect(next.id).toBeGreaterThan(hook.id)
        expect((await okValue(hooks.appendHookLog(hookLogFixture(next.id)))).id).toBeGreaterThan(log.id)
        const nextEvent = await okValue(
          audit.appendAuditEvent({
            authorId: 1,
            entityType: 'User',
            entityId: 1,
            eventName: 'personal_access_token_created',
            details: {},
            createdAt: at(4),
          }),
        )
        expect(nextEvent.id).toBeGreaterThan(event.id)
      },
    )
  })
}
