import type { Release } from '../../authority/core/release.js'
import { instanceMetadata } from '../../authority/users/instance-metadata.js'
import { addCalendarDays, type CalendarDate, calendarDaysBetween, utcDay } from '../../domain/calendar.js'
import type { Clock } from '../../domain/clock.js'
import type { RandomSource } from '../../domain/random.js'
import type { ResourceRef } from '../../domain/resource.js'
import type { Token } from '../../domain/token.js'
import { everyToken } from '../../store/every-page.js'
import type { Hook, HookStore, NoticeInterval } from '../../store/hook-store.js'
import type { TokenStore } from '../../store/token-store.js'
import { accessTokenPayload } from '../../webhooks/access-token-payload.js'
import { hookHeaders, uuidFrom } from '../../webhooks/hook-headers.js'
import type { HookDeliveries } from './hook-deliveries.js'
import { type ChainLink, noticeTargets } from './hook-targets.js'
import { intervalName, noticesDue } from './notice-schedule.js'

/** What the fake's expiry webhooks need. */
export interface ExpiryHooksOptions {
  readonly store: TokenStore
  readonly clock: Clock
  readonly random: RandomSource
  readonly release: Release
  /** The fake's public URL: `X-Gitlab-Instance` and the payload's project URLs. */
  readonly instanceUrl: () => string
  readonly deliveries: HookDeliveries
  /** Opens a hook's sealed secret token; without it (or when it answers null) no `X-Gitlab-Token` is sent. */
  readonly openToken?: ((sealed: string) => string | null) | undefined
}

/** GitLab's `PersonalAccessTokens::ExpiringWorker` for hooks, run on the fake's clock. */
export interface ExpiryHooks {
  /**
   * Runs the worker for each day since the last run through today (today only after a start or a
   * replacement), when today was not run yet: claims each notice due (`claimNotice`, so it is sent once
   * also across restarts) and queues its deliveries. Resolves once they are queued, not made.
   */
  due(): Promise<void>
  /** The data was replaced: the next `due()` runs today. */
  replaced(): void
}

const EXTENDED: readonly NoticeInterval[] = [60, 30]

export function expiryHooks(options: ExpiryHooksOptions): ExpiryHooks {
  const uuid = uuidFrom(options.random)
  const gitlabVersion = instanceMetadata(options.release).version
  let lastDay: CalendarDate | null = null
  let running: Promise<void> = Promise.resolve()

  const run = async (first: CalendarDate, today: CalendarDate): Promise<void> => {
    const resources = options.store.resources
    // A store without hooks (one written before them) has no notices to give.
    if ((resources?.hooks as HookStore | undefined) === undefined || resources === undefined) return
    const now = options.clock.now()
    const listed = await everyToken(
      options.store,
      {
        revoked: false,
        excludeImpersonation: true,
        // Inclusive: a token expiring on `first` has 0 days left then, in the 7-day range.
        expiresAfter: first,
        expiresBefore: addCalendarDays(today, 61),
      },
      now,
    )
    if (listed.isErr()) return
    const bots = await resources.listUsers({ bot: true })
    if (bots.isErr()) return
    const homes = new Map<number, ResourceRef>()
    for (const bot of bots.value)
      if (typeof bot.id === 'number' && bot.botNamespace != null) homes.set(bot.id, bot.botNamespace)
    const { hooks } = resources
    const claimed: { token: Token; home: ResourceRef; interval: NoticeInterval; on: CalendarDate }[] = []
    for (const token of listed.value) {
      const home = typeof token.userId === 'number' ? homes.get(token.userId) : undefined
      if (home === undefined || token.expiresAt === null || token.revoked || token.impersonation) continue
      const due = noticesDue({ createdAt: token.createdAt, expiresAt: token.expiresAt }, first, today)
      if (due.length === 0) continue
      // GitLab's `expire_notification_delivered`: after the 7-day notice, none of the wider ones.
      const given = due.some((d) => EXTENDED.includes(d.interval)) ? await hooks.noticesOf(token.id) : null
      const last = given?.unwrapOr(null)?.has(7) === true
      for (const { interval, on } of due) {
        if (last && interval !== 7) continue
        const claim = await hooks.claimNotice(token.id, interval, now)
        if (claim.isOk() && claim.value) claimed.push({ token, home, interval, on })
      }
    }
    // In the order daily runs would have sent them: by the day each fell due, then by token id.
    claimed.sort((a, b) => calendarDaysBetween(b.on, a.on) || a.token.id - b.token.id)
    const memo = new Map<string, Promise<ChainLink[] | null>>()
    // One X-Gitlab-Event-UUID per hook per run (GitLab's recursion-detection UUID).
    const eventUuids = new Map<number, string>()
    for (const notice of claimed) {
      const targets = await noticeTargets(resources, notice.home, notice.interval, memo)
      if (targets === null) continue
      const payload = accessTokenPayload({
        baseUrl: options.instanceUrl(),
        resource: targets.resource,
        token: {
          id: notice.token.id,
          name: notice.token.name,
          userId: notice.token.userId as number,
          createdAt: notice.token.createdAt,
          expiresAt: notice.token.expiresAt as string,
          lastUsedAt: notice.token.lastUsedAt,
        },
        interval: intervalName(notice.interval),
      })
      const body = JSON.stringify(payload)
      for (const hook of targets.hooks) {
        let eventUuid = eventUuids.get(hook.id)
        if (eventUuid === undefined) {
          eventUuid = uuid()
          eventUuids.set(hook.id, eventUuid)
        }
        void options.deliveries.enqueue({
          hook,
          hooks,
          headers: headersOf(hook, eventUuid),
          body,
          cause: 'expiry',
          tokenId: notice.token.id,
          interval: notice.interval,
        })
      }
    }
  }

  const headersOf = (hook: Hook, eventUuid: string): Record<string, string> => {
    const token = hook.sealedToken === null ? null : (options.openToken?.(hook.sealedToken) ?? null)
    return hookHeaders({
      gitlabVersion,
      instanceUrl: options.instanceUrl(),
      uuid,
      eventUuid,
      ...(token === null ? {} : { token }),
    })
  }

  const once = async (): Promise<void> => {
    const today = utcDay(options.clock.now())
    if (today === lastDay) return
    // After a move back, or the first run: today alone. A day run again gives nothing twice (claims).
    const first =
      lastDay !== null && calendarDaysBetween(lastDay, today) > 0 ? addCalendarDays(lastDay, 1) : today
    lastDay = today
    try {
      await run(first, today)
    } catch {
      // A failing store skips the run, as the expiry mails' (fake-notices.ts): no request fails for it.
    }
  }

  return {
    due: () => {
      const next = running.then(once, once)
      running = next.catch(() => {})
      return next
    },
    replaced: () => {
      lastDay = null
    },
  }
}
