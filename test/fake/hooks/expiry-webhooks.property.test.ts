import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  addCalendarDays,
  type CalendarDate,
  calendarDaysBetween,
  utcDay,
} from '../../../src/domain/calendar.js'
import { migrate, sqlStore } from '../../../src/sql/index.js'
import type { TokenStore } from '../../../src/store/token-store.js'
import { emptyTables, pglite, postgres, uniquePrefix } from '../../sql/support/databases.js'
import { describeDatabase } from '../../sql/support/describe-database.js'
import { addHook, control, EXPIRES, extend, type Receiver, receiver, world } from './expiry-world.js'

// Any sequence of clock moves (back too), resets and rotations: the project hook receives exactly the
// notices a model of GitLab's daily worker gives, so none twice and none skipped; on memory, PGlite
// and PostgreSQL (issue 33's done-when).

type Op = { kind: 'move'; days: number } | { kind: 'reset' } | { kind: 'rotate'; days: number }

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -15, max: 45 }).map((days): Op => ({ kind: 'move', days })) },
  { weight: 1, arbitrary: fc.constant<Op>({ kind: 'reset' }) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 70 }).map((days): Op => ({ kind: 'rotate', days })) },
)

const START: CalendarDate = '2026-01-01'

interface ModelToken {
  readonly id: number
  readonly created: CalendarDate
  readonly expires: CalendarDate
  revoked: boolean
}

// GitLab's ranges (PersonalAccessToken::NOTIFICATION_INTERVALS): 60 for 31..60 days left, 30 for 8..30,
// 7 for 0..7: the expiry day itself counts (test/fake/hooks/expiry-day-notice.test.ts).
function intervalOf(left: number): 60 | 30 | 7 | null {
  if (left >= 31 && left <= 60) return 60
  if (left >= 8 && left <= 30) return 30
  if (left >= 0 && left <= 7) return 7
  return null
}

class Model {
  tokens: ModelToken[] = []
  claims = new Set<string>()
  last: CalendarDate | null = null
  sent: string[] = []
  constructor() {
    this.start()
  }
  start(): void {
    this.tokens = [{ id: 100, created: START, expires: EXPIRES, revoked: false }]
    this.claims = new Set()
    this.last = null
    this.run(START)
  }
  run(today: CalendarDate): void {
    if (today === this.last) return
    const first =
      this.last !== null && calendarDaysBetween(this.last, today) > 0 ? addCalendarDays(this.last, 1) : today
    this.last = today
    for (let day = first; calendarDaysBetween(day, today) >= 0; day = addCalendarDays(day, 1))
      for (const token of this.tokens) {
        if (token.revoked || calendarDaysBetween(token.created, day) < 0) continue
        const interval = intervalOf(calendarDaysBetween(day, token.expires))
        if (interval === null || this.claims.has(`${token.id}:${interval}`)) continue
        if (interval !== 7 && this.claims.has(`${token.id}:7`)) continue
        this.claims.add(`${token.id}:${interval}`)
        this.sent.push(`${token.id}:${interval}`)
      }
  }
  current(): ModelToken | undefined {
    return this.tokens.find((t) => !t.revoked)
  }
}

let r: Receiver
beforeAll(async () => {
  r = await receiver()
})
afterAll(async () => {
  await r.close()
})

/**
 * The property on one store: `store` gives each run its fake's store (emptied), or undefined for
 * memory. On SQL the claims are rows (`token_notices`), so a notice claimed once stays claimed.
 */
function deliversEachNoticeOnce(
  numRuns: number,
  store: () => Promise<TokenStore | undefined>,
): () => Promise<void> {
  return async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 8 }), async (ops) => {
        r.received.length = 0
        const given = await store()
        const gitlab = await world({
          extended: { project: true },
          ...(given === undefined ? {} : { store: given }),
        })
        try {
          await addHook(gitlab, r.url, { type: 'project', id: 7 }, 'P')
          const model = new Model()
          let admin = (
            await gitlab.issueToken({ userId: 1, name: 'a', scopes: ['api'], expiresAt: '2031-01-01' })
          ).secret
          const today = () => utcDay(gitlab.clock.now())
          for (const step of ops) {
            if (step.kind === 'move') {
              await control(gitlab, 'POST', '/clock/advance', { days: step.days })
            } else if (step.kind === 'reset') {
              await control(gitlab, 'POST', '/reset')
              await extend(gitlab, { project: true })
              await addHook(gitlab, r.url, { type: 'project', id: 7 }, 'P')
              admin = (
                await gitlab.issueToken({ userId: 1, name: 'a', scopes: ['api'], expiresAt: '2031-01-01' })
              ).secret
              model.start()
            } else {
              const current = model.current()
              if (current === undefined || calendarDaysBetween(today(), current.expires) <= 0) continue
              const expires = addCalendarDays(today(), step.days)
              const answer = await fetch(`${gitlab.apiUrl}/projects/7/access_tokens/${current.id}/rotate`, {
                method: 'POST',
                headers: { 'PRIVATE-TOKEN': admin, 'content-type': 'application/json' },
                body: JSON.stringify({ expires_at: expires }),
              })
              if (answer.status !== 200) throw new Error(`rotate: ${answer.status} ${await answer.text()}`)
              const rotated = (await answer.json()) as { id: number }
              current.revoked = true
              model.tokens.push({ id: rotated.id, created: today(), expires, revoked: false })
              // The control API's next call runs the day again: nothing new today for the old data.
              await control(gitlab, 'GET', '/clock')
            }
            model.run(today())
            await control(gitlab, 'POST', '/deliveries/wait')
          }
          const got = r.received.map(
            (x) =>
              `${(x.body['object_attributes'] as { id: number }).id}:${{ sixty_days: 60, thirty_days: 30, seven_days: 7 }[x.body['interval'] as string]}`,
          )
          expect(got.sort()).toEqual([...model.sent].sort())
        } finally {
          await gitlab.close()
        }
      }),
      { numRuns },
    )
  }
}

describe('expiry webhooks, property', () => {
  it(
    'deliver every notice the model gives, once',
    { timeout: 240_000 },
    deliversEachNoticeOnce(25, async () => undefined),
  )
})

// The same property where the claims are rows: fewer runs, each on emptied tables of one prefix.
for (const target of [pglite, postgres]) {
  const prefix = uniquePrefix(`hookprop_${target === pglite ? 'lite' : 'pg'}`)
  await describeDatabase(target, prefix, (db) => {
    beforeAll(async () => {
      ;(await migrate(db, { tablePrefix: prefix }))._unsafeUnwrap()
    })
    it(
      'deliver every notice the model gives, once (claims in the database)',
      { timeout: 240_000 },
      deliversEachNoticeOnce(6, async () => {
        await emptyTables(db, prefix)
        return sqlStore(db, { tablePrefix: prefix })
      }),
    )
  })
}
