import { expect } from 'vitest'
import type { AuditEvent, AuditEventDraft, AuditEventFilter } from '../../store/hook-store.js'
import type { ConformanceContext, WithCapability } from './context.js'
import { okValue } from './results.js'

/** An audit event draft with the defaults the tests leave alone. */
export function auditDraftFixture(overrides: Partial<AuditEventDraft> = {}): AuditEventDraft {
  return {
    authorId: 1,
    entityType: 'User',
    entityId: 1,
    eventName: 'personal_access_token_revoked',
    details: { custom_message: 'Revoked personal access token with id 5', target_id: 5 },
    createdAt: new Date('2026-06-15T12:00:00.123Z'),
    ...overrides,
  }
}

/** The instant `minutes` after 2026-06-15T12:00:00.000Z. */
const minute = (minutes: number) => new Date(Date.UTC(2026, 5, 15, 12, minutes, 0))

/** Appends the drafts one after the other, so ids rise in list order. */
async function appendAll(
  store: WithCapability<'resources'>,
  drafts: readonly AuditEventDraft[],
): Promise<AuditEvent[]> {
  const events: AuditEvent[] = []
  for (const draft of drafts) events.push(await okValue(store.resources.audit.appendAuditEvent(draft)))
  return events
}

/**
 * Conformance tests of the optional `resources` capability's audit events (`resources.audit`):
 * events stored exactly (JSON details, instants to the millisecond) with rising ids, listed newest
 * first in pages, and each filter (entity type, entity id, the inclusive created-after and
 * created-before bounds) alone and together.
 */
export function describeAudit(ctx: ConformanceContext): void {
  ctx.group('resources: audit events (optional)', () => {
    ctx.testOptional(
      'resources',
      'appendAuditEvent stores an event exactly with an id above every id before; findAuditEvent returns it',
      async (store) => {
        const { audit } = store.resources
        const draft = auditDraftFixture({
          authorId: 9,
          entityType: 'Project',
          entityId: 7,
          eventName: 'project_access_token_created',
          details: {
            custom_message: 'Created project access token with id 12',
            author_name: 'Ada "the admin"',
            target_id: 12,
            target_type: 'PersonalAccessToken',
            target_details: 'ci ✓',
            nested: { scopes: ['api', 'read_repository'], expires: null, bot: true },
          },
          createdAt: new Date('2026-03-01T01:02:03.004Z'),
        })
        const first = await okValue(audit.appendAuditEvent(draft))
        expect(Number.isSafeInteger(first.id) && first.id > 0, `id ${first.id}`).toBe(true)
        expect(first).toEqual({ ...draft, id: first.id })
        const second = await okValue(audit.appendAuditEvent(auditDraftFixture()))
        expect(second.id).toBeGreaterThan(first.id)
        const found = await okValue(audit.findAuditEvent(first.id))
        expect(found).toEqual({ ...draft, id: first.id })
        expect(found?.createdAt.toISOString()).toBe('2026-03-01T01:02:03.004Z')
        expect(await okValue(audit.findAuditEvent(second.id))).toEqual({
          ...auditDraftFixture(),
          id: second.id,
        })
        expect(await okValue(audit.findAuditEvent(second.id + 1000))).toBeNull()
      },
    )

    ctx.testOptional(
      'resources',
      'listAuditEvents returns the events newest first, one page and the total',
      async (store) => {
        const { audit } = store.resources
        const events = await appendAll(
          store,
          Array.from({ length: 5 }, (_, k) => auditDraftFixture({ entityId: k, createdAt: minute(k) })),
        )
        const newest = [...events].reverse()
        expect(await okValue(audit.listAuditEvents({}, 1, 2))).toEqual({
          items: newest.slice(0, 2),
          total: 5,
        })
        expect(await okValue(audit.listAuditEvents({}, 2, 2))).toEqual({
          items: newest.slice(2, 4),
          total: 5,
        })
        expect(await okValue(audit.listAuditEvents({}, 3, 2))).toEqual({ items: newest.slice(4), total: 5 })
        expect(await okValue(audit.listAuditEvents({}, 4, 2))).toEqual({ items: [], total: 5 })
        expect(await okValue(audit.listAuditEvents({}, 1, 100))).toEqual({ items: newest, total: 5 })
      },
    )

    ctx.testOptional(
      'resources',
      'listAuditEvents filters by entity type, entity id and inclusive created bounds, alone and together',
      async (store) => {
        const { audit } = store.resources
        // Newest by id is not newest by time: the order is the ids'.
        const [u1, p7, g7, p8, u1late, p7early] = await appendAll(store, [
          auditDraftFixture({ entityType: 'User', entityId: 1, createdAt: minute(10) }),
          auditDraftFixture({ entityType: 'Project', entityId: 7, createdAt: minute(20) }),
          auditDraftFixture({ entityType: 'Group', entityId: 7, createdAt: minute(30) }),
          auditDraftFixture({ entityType: 'Project', entityId: 8, createdAt: minute(40) }),
          auditDraftFixture({ entityType: 'User', entityId: 1, createdAt: minute(50) }),
          auditDraftFixture({ entityType: 'Project', entityId: 7, createdAt: minute(5) }),
        ])
        const ids = async (filter: AuditEventFilter) => {
          const { items, total } = await okValue(audit.listAuditEvents(filter, 1, 100))
          expect(total, `total of ${JSON.stringify(filter)}`).toBe(items.length)
          return items.map((event) => event.id)
        }
        const idsOf = (...events: (AuditEvent | undefined)[]) => events.map((event) => event?.id)
        expect(await ids({ entityType: 'Project' })).toEqual(idsOf(p7early, p8, p7))
        expect(await ids({ entityType: 'User' })).toEqual(idsOf(u1late, u1))
        expect(await ids({ entityId: 7 })).toEqual(idsOf(p7early, g7, p7))
        expect(await ids({ entityType: 'Project', entityId: 7 })).toEqual(idsOf(p7early, p7))
        expect(await ids({ entityType: 'Group', entityId: 8 })).toEqual([])
        // Both bounds inclusive, to the millisecond.
        expect(await ids({ createdAfter: minute(20) })).toEqual(idsOf(u1late, p8, g7, p7))
        expect(await ids({ createdAfter: new Date(minute(20).getTime() + 1) })).toEqual(idsOf(u1late, p8, g7))
        expect(await ids({ createdBefore: minute(20) })).toEqual(idsOf(p7early, p7, u1))
        expect(await ids({ createdBefore: new Date(minute(20).getTime() - 1) })).toEqual(idsOf(p7early, u1))
        expect(await ids({ createdAfter: minute(20), createdBefore: minute(40) })).toEqual(idsOf(p8, g7, p7))
        expect(
          await ids({
            entityType: 'Project',
            entityId: 7,
            createdAfter: minute(5),
            createdBefore: minute(5),
          }),
        ).toEqual(idsOf(p7early))
        expect(await ids({ createdAfter: minute(41), createdBefore: minute(49) })).toEqual([])
        const page = await okValue(audit.listAuditEvents({ entityType: 'Project' }, 2, 2))
        expect(page).toEqual({ items: [p7], total: 3 })
      },
    )

    ctx.testOptional(
      'resources',
      "listAuditEvents filters by author, with the other fields, and pages and counts only that author's",
      async (store) => {
        const { audit } = store.resources
        const [a1, b1, a2, a3, b2] = await appendAll(store, [
          auditDraftFixture({ authorId: 3, entityType: 'Project', entityId: 7, createdAt: minute(1) }),
          auditDraftFixture({ authorId: 4, entityType: 'Project', entityId: 7, createdAt: minute(2) }),
          auditDraftFixture({ authorId: 3, entityType: 'Project', entityId: 7, createdAt: minute(3) }),
          auditDraftFixture({ authorId: 3, entityType: 'Group', entityId: 7, createdAt: minute(4) }),
          auditDraftFixture({ authorId: 4, entityType: 'Project', entityId: 8, createdAt: minute(5) }),
        ])
        const ids = async (filter: AuditEventFilter) =>
          (await okValue(audit.listAuditEvents(filter, 1, 100))).items.map((event) => event.id)
        expect(await ids({ authorId: 3 })).toEqual([a3?.id, a2?.id, a1?.id])
        expect(await ids({ authorId: 4, entityType: 'Project', entityId: 7 })).toEqual([b1?.id])
        expect(await ids({ authorId: 4 })).toEqual([b2?.id, b1?.id])
        expect(await ids({ authorId: 5 })).toEqual([])
        // The page and the total are the author's: page 2 of 2 holds the third of three.
        expect(await okValue(audit.listAuditEvents({ authorId: 3 }, 2, 2))).toEqual({ items: [a1], total: 3 })
      },
    )
  })
}
