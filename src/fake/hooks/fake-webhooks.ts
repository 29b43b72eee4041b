import type { Release } from '../../authority/core/release.js'
import { instanceMetadata } from '../../authority/users/instance-metadata.js'
import type { Clock } from '../../domain/clock.js'
import type { RandomSource } from '../../domain/random.js'
import type { HookTester } from '../../http/hook-test-routes.js'
import type { TokenStore } from '../../store/token-store.js'
import type { HostResolver } from '../../webhooks/destination-policy.js'
import { hookHeaders, uuidFrom } from '../../webhooks/hook-headers.js'
import type { Journal } from '../journal.js'
import { journalUrl } from '../journal-path.js'
import type { ExpiryHooksOptions } from './expiry-hooks.js'
import { type HookDeliveries, type HookDelivery, hookDeliveries } from './hook-deliveries.js'
import { noticeTargets } from './hook-targets.js'
import { testSamplePayload } from './test-sample.js'

/**
 * How a fake delivers its webhooks (GitLab's access-token expiry notices and the hook test API).
 *
 * @example
 * ```ts
 * import type { FakeWebhookOptions } from 'patkit/fake'
 * const options: FakeWebhookOptions = { allowHosts: ['receiver.internal'], timeoutMs: 2000 }
 * ```
 */
export interface FakeWebhookOptions {
  /** Deliver to any address, not only loopback (`patkit serve --allow-webhook-network`). Default false. */
  readonly allowNetwork?: boolean | undefined
  /** Host names (or addresses) allowed besides loopback. */
  readonly allowHosts?: readonly string[] | undefined
  /** Opens a hook's sealed secret token for `X-Gitlab-Token`; without it none is sent. */
  readonly openToken?: ((sealed: string) => string | null) | undefined
  /** Per delivery; default GitLab's 10 s. */
  readonly timeoutMs?: number | undefined
  /** Deliveries in flight at once; default 8. */
  readonly concurrency?: number | undefined
  /** Resolves receivers' host names; default the system's. */
  readonly resolve?: HostResolver | undefined
}

/**
 * A fake's webhook deliveries: the made ones (newest first, `GET /__patkit/deliveries`), the wait for
 * the queue, and the hook test API's sender.
 *
 * @example
 * ```ts
 * import type { FakeWebhooks } from 'patkit/fake'
 * declare const webhooks: FakeWebhooks
 * await webhooks.deliveries.idle()
 * webhooks.deliveries.list()[0]?.record.status // e.g. 200
 * ```
 */
export interface FakeWebhooks {
  readonly deliveries: HookDeliveries
  /** What the expiry worker needs besides the store and the clock. */
  readonly senderOptions: Omit<ExpiryHooksOptions, 'store' | 'clock'>
  /** `POST /{projects,groups}/:id/hooks/:hook_id/test/:trigger`'s sender. */
  readonly testHook: HookTester
  /** The address the fake listens on: `X-Gitlab-Instance` when no public URL was given. */
  listeningAt(url: string): void
}

export function fakeWebhooks(
  options: FakeWebhookOptions & {
    readonly store: TokenStore
    readonly clock: Clock
    readonly random: RandomSource
    readonly release: Release
    readonly publicUrl?: string
    readonly journal?: Journal
  },
): FakeWebhooks {
  let listening = 'http://127.0.0.1'
  const instanceUrl = () => options.publicUrl ?? listening
  const { journal } = options
  const deliveries = hookDeliveries({
    clock: options.clock,
    policy: {
      ...(options.allowNetwork === undefined ? {} : { allowNetwork: options.allowNetwork }),
      ...(options.allowHosts === undefined ? {} : { allowHosts: options.allowHosts }),
    },
    resolve: options.resolve,
    timeoutMs: options.timeoutMs,
    concurrency: options.concurrency,
    ...(journal === undefined
      ? {}
      : {
          // The journal never holds a credential: a hook URL's query ones and user information go.
          onDelivery: (d: HookDelivery) =>
            journal.recordNote('webhook_delivery', d.at, {
              ...deliveryJson(d),
              url: journalUrl(d.record.url),
            }),
        }),
  })
  const senderOptions = {
    random: options.random,
    release: options.release,
    instanceUrl,
    deliveries,
    openToken: options.openToken,
  }
  const testHook: HookTester = async (resource, hookId) => {
    const resources = options.store.resources
    if (resources === undefined) return { kind: 'not_found' }
    const hook = await resources.hooks.findHook(hookId)
    if (hook.isErr()) return { kind: 'failed', message: 'the store failed' }
    const found = hook.value
    if (found === null || found.resource.type !== resource.type || found.resource.id !== resource.id)
      return { kind: 'not_found' }
    const targets = await noticeTargets(resources, resource, 7, new Map())
    if (targets === null) return { kind: 'not_found' }
    const body = JSON.stringify(
      await testSamplePayload(resources, resource, targets.resource, instanceUrl(), options.clock.now()),
    )
    const token = found.sealedToken === null ? null : (options.openToken?.(found.sealedToken) ?? null)
    const headers = hookHeaders({
      gitlabVersion: instanceMetadata(options.release).version,
      instanceUrl: instanceUrl(),
      uuid: uuidFrom(options.random),
      ...(token === null ? {} : { token }),
    })
    const made = await deliveries.sendNow({
      hook: found,
      hooks: resources.hooks,
      headers,
      body,
      cause: 'test',
      tokenId: null,
      interval: null,
    })
    const { record } = made
    const ok = record.status !== null && record.status >= 200 && record.status < 300
    // TestHooks: 201 on a 2xx, else 422 with the answer's body or the error's text.
    return { kind: 'sent', ok, message: record.error?.message ?? record.responseBody }
  }
  return {
    deliveries,
    senderOptions,
    testHook,
    listeningAt: (url) => {
      listening = url
    },
  }
}

/**
 * A delivery as `GET /__patkit/deliveries` and the journal show it: the payload parsed, the headers
 * with the secret redacted, the answer's status and the duration.
 */
export function deliveryJson(delivery: HookDelivery): Record<string, unknown> {
  const { record } = delivery
  let payload: unknown = record.requestBody
  try {
    payload = JSON.parse(record.requestBody)
  } catch {
    // A body that is no JSON is shown as sent.
  }
  return {
    id: delivery.id,
    hook_id: delivery.hookId,
    resource: { type: delivery.resource.type, id: delivery.resource.id },
    at: delivery.at.toISOString(),
    cause: delivery.cause,
    token_id: delivery.tokenId,
    interval: delivery.interval,
    url: record.url,
    request_headers: record.requestHeaders,
    payload,
    status: record.status,
    response_body: record.responseBody,
    duration_ms: record.durationMs,
    error: record.error,
  }
}
