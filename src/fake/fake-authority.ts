import { err, ok, type Result } from 'neverthrow'
import type { AuthorityEvent } from '../authority/core/events.js'
import type { Release } from '../authority/core/release.js'
import { type Authority, authorityOver, resolveAuthorityDeps } from '../authority/create-authority.js'
import { GITLAB_PERMISSIONS } from '../domain/gitlab-permissions.js'
import { mintSecret } from '../domain/mint-secret.js'
import type { RandomSource } from '../domain/random.js'
import { createHandler, type Handler } from '../http/create-handler.js'
import { createNodeListener } from '../node/create-node-listener.js'
import { type NodeListener, toNodeListener } from '../node/node-listener.js'
import type { TokenStore } from '../store/token-store.js'
import { controlHandler } from './control/control-api.js'
import type { ControllableClock } from './controllable-clock.js'
import { fakeListener, refusalHook } from './fake-listener.js'
import { fakeNotices } from './fake-notices.js'
import { type FakeState, fakeState } from './fake-state.js'
import { createFaults, type Faults } from './faults.js'
import { type AuditRecorder, auditRecorder } from './hooks/audit-recorder.js'
import { type ExpiryHooks, expiryHooks } from './hooks/expiry-hooks.js'
import { type FakeWebhookOptions, type FakeWebhooks, fakeWebhooks } from './hooks/fake-webhooks.js'
import { HOOK_SECRET_KEY_BYTES, openHookSecret, sealHookSecret } from './hooks/hook-secret.js'
import { createJournal, type Journal } from './journal.js'
import { issuedSecret, secretPrefixes } from './secret-prefixes.js'
import type { SeedReport } from './seed/load-seed.js'
import type { SeedProblem, ValidSeed } from './seed/seed-schema.js'
import { type SwappableStore, swappableStore } from './swappable-store.js'

/**
 * How to build a fake authority with its control plane.
 *
 * @example
 * ```ts
 * import { cryptoRandom, systemClock } from 'patkit/authority'
 * import { controllableClock, type FakeAuthorityOptions } from 'patkit/fake'
 * import { memoryStore } from 'patkit/memory'
 *
 * const options: FakeAuthorityOptions = {
 *   store: memoryStore(),
 *   freshStore: () => memoryStore(),
 *   pepper,
 *   clock: controllableClock(systemClock),
 *   random: cryptoRandom,
 *   seed,
 * }
 * ```
 */
export interface FakeAuthorityOptions {
  /** Where the data starts; the seed is added to it. */
  readonly store: TokenStore
  /** A new empty store for reset and restore; absent when the data must never be replaced (a database). */
  readonly freshStore?: () => TokenStore
  readonly pepper: string
  readonly clock: ControllableClock
  /**
   * Randomness for secrets and fault probabilities. A factory (`() => seededRandom(7)`) is called
   * again on every reset and restore, so a test after a reset sees the same secrets as the first one.
   */
  readonly random: RandomSource | (() => RandomSource)
  readonly seed: ValidSeed
  /**
   * The store holds data of its own (a user's database or store): a reset goes back to all it held
   * once the seed was added (a snapshot of at most `START_SNAPSHOT_LIMIT` tokens, kept in memory), not
   * to the seed alone. Default false: the store starts empty and a reset goes back to the seed.
   */
  readonly keptData?: boolean
  readonly release?: Release
  /** GitLab's Admin Mode setting (see `AuthorityConfig.adminMode`); default off, as GitLab's. */
  readonly adminMode?: boolean
  /** GitLab's `require_personal_access_token_expiry` (see `AuthorityConfig.requireExpiry`); default true. */
  readonly requireExpiry?: boolean
  /** The origin clients see; its host is also one the control API answers for (see `allowedHosts`). */
  readonly publicUrl?: string
  /** When set, every control request needs it in `X-Patkit-Control-Token`. */
  readonly controlToken?: string
  /** Hosts the control API answers for beside the loopback ones (see `ControlParts.allowedHosts`). */
  readonly allowedHosts?: readonly string[]
  /** The body limit of the control API's bulk routes (see `ControlParts.controlBodyLimit`); default 16 MiB. */
  readonly controlBodyLimit?: number
  /** Whether the listener serves the control API under `/__patkit/`; default true. */
  readonly controlPlane?: boolean
  /**
   * The 32-byte AES-256-GCM key hook tokens are sealed under (`Hook.sealedToken`); default a random
   * key drawn at start, so hook tokens a database kept from an earlier run do not open (their
   * deliveries go without `X-Gitlab-Token`).
   */
  readonly hookSecretKey?: Uint8Array
  /** Also receives every authority event (after the journal). */
  readonly onEvent?: (event: AuthorityEvent) => void
  /**
   * How the expiry webhooks are delivered: where they may go (loopback only by default), the hook
   * secret opener, the timeout and the queue's width.
   */
  readonly webhooks?: FakeWebhookOptions
}

/**
 * A fake authority's parts: the authority over a swappable store, the GitLab handler, the control
 * plane (clock, state, journal, faults) and the `node:http` listener serving both.
 *
 * @example
 * ```ts
 * import { type FakeAuthorityOptions, fakeAuthority } from 'patkit/fake'
 * import { listenNode } from './listen.js'
 * declare const options: FakeAuthorityOptions
 *
 * const fake = await fakeAuthority(options)
 * if (fake.isOk()) await listenNode(fake.value.listener, { host: '127.0.0.1', port: 0 })
 * ```
 */
export interface FakeAuthority {
  readonly authority: Authority
  readonly store: SwappableStore
  readonly clock: ControllableClock
  readonly journal: Journal
  readonly faults: Faults
  readonly state: FakeState
  /** GitLab's API alone, as a web-standard handler (no control plane, no faults). */
  readonly handler: Handler
  /** The control API as a web-standard handler. */
  readonly control: Handler
  readonly listener: NodeListener
  /** What loading the start seed did. */
  readonly seeded: SeedReport
  /** The expiry webhooks' deliveries (`GET /__patkit/deliveries`) and the hook test sender. */
  readonly webhooks: FakeWebhooks
  /**
   * Remembers the prefix of a secret handed out in process (`issueToken`), so that the journal's
   * refusal of an unknown token can name it as the closest known one (never the secret itself).
   */
  rememberIssued(tokenId: number, secret: string): void
  /**
   * Runs GitLab's daily expiry notifier (`token_expiring` events) if it is due: the data was loaded
   * since its last run, or the clock is on a day not checked yet. The listener runs it before each
   * GitLab API request, the control API before and after each request; call it after changing the
   * data or the clock in process to see the notices at once.
   */
  checkExpiring(): Promise<void>
  /** The key hook tokens are sealed under (`openHookSecret` opens them with it). */
  readonly hookSecretKey: Uint8Array
  /**
   * Ends every open event stream of the control API (`GET /__patkit/journal/stream`), so that closing
   * the server does not wait for them; call it as the server closes.
   */
  closeStreams(): void
}

// A random source that starts over from its factory's first value on `rewind` (a plain source never does).
function rewindable(source: RandomSource | (() => RandomSource)): RandomSource & { rewind(): void } {
  if (typeof source !== 'function') return { bytes: (length) => source.bytes(length), rewind: () => {} }
  let current = source()
  return {
    bytes: (length) => current.bytes(length),
    rewind: () => {
      current = source()
    },
  }
}

/**
 * Builds a {@link FakeAuthority} and loads its start seed (the data a reset goes back to).
 *
 * @example
 * ```ts
 * import { systemClock } from 'patkit/authority'
 * import { controllableClock, fakeAuthority } from 'patkit/fake'
 * import { memoryStore } from 'patkit/memory'
 *
 * const clock = controllableClock(systemClock)
 * const fake = await fakeAuthority({ store, freshStore: () => memoryStore(), pepper, clock, random, seed })
 * ```
 */
export async function fakeAuthority(
  options: FakeAuthorityOptions,
): Promise<Result<FakeAuthority, readonly SeedProblem[]>> {
  const store = swappableStore(options.store)
  const random = rewindable(options.random)
  const journal = createJournal()
  const faults = createFaults(random)
  const { clock } = options
  let recorder: AuditRecorder | undefined
  const onEvent = (event: AuthorityEvent) => {
    journal.recordEvent(event)
    recorder?.record(event)
    options.onEvent?.(event)
  }
  // Hook tokens' key and nonces come from a source of their own: drawing them from `random` would
  // shift the secrets a reset replays.
  const hookRandom = typeof options.random === 'function' ? options.random() : options.random
  const hookSecretKey = options.hookSecretKey ?? hookRandom.bytes(HOOK_SECRET_KEY_BYTES)
  // GitLab.com's `enforce_granular_tokens` of top-level groups, by group id: the day it starts. Held
  // here, beside the store (no store keeps namespace settings); the fake's state writes it.
  const enforcement = new Map<number, string>()
  const config = {
    pepper: options.pepper,
    granularEnforcement: {
      enforcedFrom: (groupId: number) => enforcement.get(groupId) ?? null,
      anyEnforced: () => enforcement.size > 0,
    },
    // The fake is GitLab: `issueToken`'s permissions (seeds, the control API) are GitLab's assignable ones.
    permissions: Object.keys(GITLAB_PERMISSIONS),
    sealHookToken: (token: string) => sealHookSecret(hookSecretKey, token, hookRandom),
    clock,
    random,
    ...(options.release === undefined ? {} : { release: options.release }),
    ...(options.adminMode === undefined ? {} : { adminMode: options.adminMode }),
    ...(options.requireExpiry === undefined ? {} : { requireExpiry: options.requireExpiry }),
    onEvent,
  }
  const deps = resolveAuthorityDeps({ store, ...config })
  const authority = authorityOver(deps)
  // The seed path (recognizing seeded secrets), the control API's minting and the listener's fault
  // matching use the authority's own digester, prefix and format: one derivation from the options.
  const { digest } = deps
  recorder = auditRecorder({ store, userById: deps.userById })
  const audited = recorder
  // GitLab's daily expiry notifier, run when the data is loaded and on each new clock day (see
  // fake-notices.ts), before any request that could read the journal is answered.
  const notices = fakeNotices({ store, clock, onEvent })
  const webhooks = fakeWebhooks({
    store,
    clock,
    random,
    release: authority.settings.release,
    ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
    journal,
    openToken: (sealed) => openHookSecret(hookSecretKey, sealed).unwrapOr(null),
    ...(options.webhooks ?? {}),
  })
  const hooks: ExpiryHooks = expiryHooks({ ...webhooks.senderOptions, store, clock })
  // Both of GitLab's daily notices, the mails (events) and the webhooks, on the same days.
  const due = async (): Promise<void> => {
    await notices.due()
    await hooks.due()
  }
  // Before a request is answered: the audit events of earlier requests written, and the notices due.
  const beforeRequest = async () => {
    await audited.settled()
    await due()
  }
  const state = fakeState({
    authority,
    authorityFor: (staging) => authorityOver(resolveAuthorityDeps({ store: staging, ...config })),
    store,
    digest,
    seed: options.seed,
    enforcement,
    ...(options.keptData === true ? { keptData: true } : {}),
    ...(options.freshStore === undefined ? {} : { freshStore: options.freshStore }),
    onReplace: () => {
      random.rewind()
      notices.replaced()
      hooks.replaced()
      webhooks.deliveries.clear()
    },
    onReset: () => clock.reset(),
  })
  // The seed is a ValidSeed already (validated by its reader, as a reset trusts it): checking it again
  // would load the seed schema (zod) into every start (docs/benchmarks.md, target 9b).
  const seeded = await state.start()
  if (seeded.isErr()) return err(seeded.error)
  // The prefixes of the secrets handed out, for a refusal of an unknown token (its closest known one).
  const prefixes = secretPrefixes()
  for (const { token, secret } of seeded.value.issued) prefixes.remember(token.id, secret)
  await due()
  const handlerOptions = {
    ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
    hookTester: webhooks.testHook,
  }
  const handler = createHandler(authority, handlerOptions)
  const closing = new AbortController()
  const controlApi = controlHandler({
    clock,
    state,
    store,
    closing: closing.signal,
    journal,
    faults,
    mint: (userId) => mintSecret(deps, userId),
    controlToken: options.controlToken,
    controlBodyLimit: options.controlBodyLimit,
    allowedHosts: [
      ...(options.allowedHosts ?? []),
      ...(options.publicUrl === undefined ? [] : [new URL(options.publicUrl).host]),
    ],
    onClockChange: due,
    deliveries: webhooks.deliveries,
  })
  // Also after the answer is made: a reset's or restore's notices land after its journal clear.
  const control: Handler = async (request) => {
    await beforeRequest()
    const response = await controlApi(request)
    await due()
    // A token issued over the control API: its prefix, for the refusals of unknown tokens.
    if (request.method === 'POST' && response.status === 201) {
      const issued = issuedSecret(await response.clone().text())
      if (issued !== null) prefixes.remember(issued.id, issued.token)
    }
    return response
  }
  const listener = fakeListener({
    // The same API as `handler`, served without a Request and a Response per call.
    gitlab: createNodeListener(authority, { ...handlerOptions, onRefusal: refusalHook }),
    ...(options.controlPlane === false ? {} : { control: toNodeListener(control) }),
    journal,
    faults,
    clock,
    store,
    digest,
    beforeRequest,
    prefixes,
    adminMode: options.adminMode === true,
  })
  return ok({
    authority,
    store,
    clock,
    journal,
    faults,
    state,
    handler,
    control,
    listener,
    seeded: seeded.value,
    webhooks,
    rememberIssued: (tokenId, secret) => prefixes.remember(tokenId, secret),
    checkExpiring: beforeRequest,
    hookSecretKey,
    closeStreams: () => closing.abort(),
  })
}
