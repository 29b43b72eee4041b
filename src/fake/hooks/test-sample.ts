import { addCalendarDays, utcDay } from '../../domain/calendar.js'
import type { ResourceRef } from '../../domain/resource.js'
import type { ResourceStore } from '../../store/resource-store.js'
import {
  type AccessTokenHookGroup,
  type AccessTokenHookProject,
  accessTokenPayload,
} from '../../webhooks/access-token-payload.js'

// The hook test API's sample for `resource_access_token_events`, as GitLab builds it:
// TestHooks::ProjectService maps the trigger to Integrations::ProjectTestData#access_tokens_events_data
// (gitlabhq, index ids 705021725 and 1000753539):
//   PersonalAccessToken.new(id: 1, name: 'pat_for_webhook_event', user: project.bots.first,
//                           created_at: Time.zone.now, expires_at: 2.days.from_now)
//   Gitlab::DataBuilder::ResourceAccessToken.build(token, :expiring, project)
// That builder takes no `data`, so the sample has no `interval` key; `user_id` is null without a bot.
// The trigger sends inline (`force: true`), not through Sidekiq: its Time values are ActiveSupport's JSON,
// ISO 8601 with milliseconds, not the worker's Time#to_s (GitLab issues 545108 and 263111).

/** The sample payload for a hook of `ref`, whose payload resource is `resource`, at `now`. */
export async function testSamplePayload(
  resources: ResourceStore,
  ref: ResourceRef,
  resource: AccessTokenHookProject | AccessTokenHookGroup,
  baseUrl: string,
  now: Date,
): Promise<Record<string, unknown>> {
  const bots = await resources.listUsers({ bot: true })
  // `project.bots.first`: the resource's bot users, the oldest (lowest id) first.
  const bot = bots
    .unwrapOr([])
    .filter((u) => u.botNamespace?.type === ref.type && u.botNamespace.id === ref.id)
    .map((u) => u.id)
    .filter((id): id is number => typeof id === 'number')
    .sort((a, b) => a - b)[0]
  const { interval: _, ...payload } = accessTokenPayload({
    baseUrl,
    resource,
    token: {
      id: 1,
      name: 'pat_for_webhook_event',
      userId: bot ?? 0,
      createdAt: now,
      // `2.days.from_now` cast to the date column: the UTC day two days on.
      expiresAt: addCalendarDays(utcDay(now), 2),
      lastUsedAt: null,
    },
    interval: 'seven_days',
  })
  return {
    ...payload,
    object_attributes: { ...payload.object_attributes, user_id: bot ?? null, created_at: now.toISOString() },
  }
}
