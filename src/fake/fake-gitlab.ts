import type { Result } from 'neverthrow'
import type { AuthorityEvent } from '../authority/core/events.js'
import type { IssuedToken } from '../authority/core/issued-token.js'
import type { Release } from '../authority/core/release.js'
import type { Authority } from '../authority/create-authority.js'
import type { IssueTokenInput } from '../authority/personal/issue-token.js'
import { type Clock, type ManualClock, systemClock } from '../domain/clock.js'
import { cryptoRandom, type RandomSource } from '../domain/random.js'
import type { Handler } from '../http/create-handler.js'
import { memoryStore } from '../memory/memory-store.js'
import type { TokenStore } from '../store/token-store.js'
import { isLoopbackHost, isWildcardHost } from './control/control-guard.js'
import { type ControllableClock, controllableClock } from './controllable-clock.js'
import { DEMO_USERS, FAKE_GITLAB_START, INSECURE_DEVELOPMENT_PEPPER } from './demo-defaults.js'
import { fakeAuthority } from './fake-authority.js'
import type { StateSnapshot } from './fake-state.js'
import type { Faults } from './faults.js'
import type { FakeWebhookOptions } from './hooks/fake-webhooks.js'
import { HOOK_SECRET_KEY_BYTES } from './hooks/hook-secret.js'
import type { Journal } from './journal.js'
import { listenNode } from './listen.js'
import { describeIssueFailure } from './seed/load-seed.js'
import type { SeedGroup, SeedProject } from './seed/seed-resource-schema.js'
import type { Seed, SeedProblem, SeedToken, SeedUser } from './seed/seed-schema.js'
import { validateSeed } from './seed/seed-schema.js'

/**
 * Options of {@link createFakeGitLab}. Everything is optional.
 *
 * @example
 * ```ts
 * import type { FakeGitLabOptions } from 'patkit/fake'
 * const options: FakeGitLabOptions = {
 *   users: [{ id: 1, username: 'root', admin: true }],
 *   tokens: [{ user_id: 1, name: 'ci', scopes: ['api'], token: 'glpat-known-secret' }],
 *   clock: new Date('2030-01-01T00:00:00.000Z'),
 *   release: '16.9',
 * }
 * ```
 */
export interface FakeGitLabOptions<C extends Clock = ManualClock> {
  /** Users in the seed format; default {@link DEMO_USERS} (root, admin, id 1; alice, id 2). `[]` for none. */
  readonly users?: readonly SeedUser[]
  /** Tokens in the seed format (GitLab's field names, known secrets); default none. */
  readonly tokens?: readonly SeedToken[]
  /** Groups in the seed format (`parent_id`, `visibility`, `members`); default none. */
  readonly groups?: readonly SeedGroup[]
  /** Projects in the seed format (`group_id`, `visibility`, `members`); default none. */
  readonly projects?: readonly SeedProject[]
  /**
   * A clock, or the instant a manual clock starts at; default a manual clock at
   * {@link FAKE_GITLAB_START} (2026-01-01T00:00:00.000Z). Pass `systemClock` for real time.
   */
  readonly clock?: C | Date
  /** The GitLab release to emulate; default the newest. */
  readonly release?: Release
  /** GitLab's Admin Mode setting (see `AuthorityConfig.adminMode`); default off, as GitLab's. */
  readonly adminMode?: boolean
  /** GitLab's `require_personal_access_token_expiry` (see `AuthorityConfig.requireExpiry`); default true. */
  readonly requireExpiry?: boolean
  /**
   * Interface to listen on; default `127.0.0.1`. The port is always a free ephemeral one. An address
   * other machines reach (`0.0.0.0`, a LAN address) needs a `controlToken`.
   */
  readonly host?: string
  /**
   * The origin clients see, for absolute `Link` URLs; default the request's. The control API also
   * answers for its host.
   */
  readonly publicUrl?: string
  /** Keys the secrets' digests; default {@link INSECURE_DEVELOPMENT_PEPPER}. */
  readonly pepper?: string
  /**
   * The store; default a fresh `memoryStore()`. Seed users and tokens are added to it; a `reset()`
   * goes back to all it held then.
   */
  readonly store?: TokenStore
  /**
   * Randomness for generated secrets and fault probabilities; default the operating system's. A
   * factory (`() => seededRandom(7)`) starts over on every `reset()` and `restore()`, so each test
   * after a reset sees the same secrets.
   */
  readonly random?: RandomSource | (() => RandomSource)
  /**
   * The 32-byte AES-256-GCM key the fake seals webhooks' secret tokens under (never stored in plain
   * text). Default: a random key per start, from `random`; hook tokens a database kept from an earlier
   * start then do not open, and their deliveries go without `X-Gitlab-Token` (docs/webhooks.md).
   */
  readonly hookSecretKey?: Uint8Array
  /** Receives every authority event (also recorded in `journal`), `token_expiring` included. */
  readonly onEvent?: (event: AuthorityEvent) => void
  /**
   * When set, the control API (`/__patkit/...`) needs it in the `X-Patkit-Control-Token` header.
   * Required when `host` is not a loopback address.
   */
  readonly controlToken?: string
  /**
   * Host names (or IP addresses) the control API answers for beside `localhost`, `127.0.0.0/8`, `[::1]`,
   * `host` and the `publicUrl`'s host; `*` for any. A request for any other `Host` is refused (403), as
   * a DNS-rebinding web page would send it.
   */
  readonly allowedHosts?: readonly string[]
  /**
   * How the access-token expiry webhooks are delivered (loopback receivers only by default; the hook
   * secret opener; the timeout, default 10 s).
   */
  readonly webhooks?: FakeWebhookOptions
}

/**
 * A running fake GitLab token authority: GitLab's personal access token API on a real socket, with
 * the authority, store and clock behind it in reach of the test.
 *
 * @example
 * ```ts
 * import { createFakeGitLab } from 'patkit/fake'
 * const gitlab = await createFakeGitLab()
 * const { secret } = await gitlab.issueToken({ userId: 2, name: 'ci', scopes: ['api'] })
 * await fetch(`${gitlab.apiUrl}/personal_access_tokens/self`, { headers: { 'PRIVATE-TOKEN': secret } })
 * await gitlab.close()
 * ```
 */
export interface FakeGitLab<C extends Clock = ManualClock> {
  /** `http://HOST:PORT`, e.g. `http://127.0.0.1:54321`. */
  readonly url: string
  /** `url + '/api/v4'`: the base URL a GitLab client takes. */
  readonly apiUrl: string
  /** The same API as a `(Request) => Promise<Response>`, to call without the socket. */
  readonly handler: Handler
  readonly authority: Authority
  readonly store: TokenStore
  /** The authority's clock; a manual one unless another was given: `advance(ms)` and `set(date)`. */
  readonly clock: C
  /**
   * Puts a token in place without authorization (a known `secret`, or a fresh one) and returns it with
   * its secret. Rejects with an `Error` naming the problem (unknown user, invalid scope, ...).
   */
  issueToken(input: IssueTokenInput): Promise<IssuedToken>
  /** Every request and authority event since the start or the last clear (never a secret). */
  readonly journal: Journal
  /** Fault rules applied to GitLab's API on the socket (not to `handler`). */
  readonly faults: Faults
  /**
   * Back to the start: the start data (`users`, `tokens`, `groups` and `projects`, same secrets, ids and dates), the clock
   * at its start (a clock you passed is left alone), the journal and the faults cleared, then the
   * expiry notices of the start data. With a `store` of yours (its `replaceAll` replaces the data), the start data
   * is all that store held once the start was done (a snapshot kept in memory), never the seed alone; over 10 000 tokens at start it rejects, naming the limit.
   */
  reset(): Promise<void>
  /**
   * Every user, token, group and project in the seed format (`token` where the secret is known, else
   * `token_digest`).
   */
  snapshot(): Promise<StateSnapshot>
  /** Replaces the data with a snapshot (or any seed), in the default memory store or a `store` of yours. */
  restore(snapshot: StateSnapshot | Seed): Promise<void>
  /** Stops the server (requests in flight finish first). Calling it again is harmless. */
  close(): Promise<void>
}

function resolveClock<C extends Clock>(
  clock: C | Date | undefined,
): { own: C; controllable: ControllableClock } {
  if (clock === undefined || clock instanceof Date) {
    const at = clock ?? new Date(FAKE_GITLAB_START)
    // C defaults to ManualClock exactly when no clock object is passed; a frozen controllable clock is one.
    const controllable = controllableClock(systemClock, { at, frozen: true })
    return { own: controllable as Clock as C, controllable }
  }
  return { own: clock, controllable: controllableClock(clock) }
}

function problemsText(problems: readonly SeedProblem[]): string {
  return problems.map((p) => `${p.path}: ${p.message}`).join('; ')
}

/**
 * Starts a fake GitLab token authority on an ephemeral port of `127.0.0.1`: a memory store seeded with
 * `users` (default root and alice) and `tokens`, a manual clock (default at 2026-01-01T00:00:00.000Z)
 * so expiry is tested without waiting. It accepts the very data `patkit serve --seed` does.
 *
 * The control API (`gitlab.url + '/__patkit/...'`) answers only requests for a loopback host (or one of
 * `allowedHosts`) that no web page of another origin sent, with JSON bodies, and with `controlToken`
 * when one is set (docs/cli.md, "Who can reach the control API").
 *
 * @throws {TypeError} (as a rejection) when the seed is invalid, naming the field, e.g.
 * `createFakeGitLab: tokens[0].scopes[1]: Invalid option: expected one of "api"|...`; or when `host`
 * is not a loopback address and no `controlToken` is given.
 * @example
 * ```ts
 * import { createFakeGitLab } from 'patkit/fake'
 *
 * const gitlab = await createFakeGitLab({
 *   tokens: [{ user_id: 2, name: 'ci', scopes: ['api'], token: 'glpat-ci-secret', expires_at: '2026-01-10' }],
 * })
 * const self = () =>
 *   fetch(`${gitlab.apiUrl}/personal_access_tokens/self`, { headers: { 'PRIVATE-TOKEN': 'glpat-ci-secret' } })
 * ;(await self()).status // 200
 * gitlab.clock.set(new Date('2026-01-10T00:00:00.000Z'))
 * ;(await self()).status // 401: expired
 * await gitlab.close()
 * ```
 */
export async function createFakeGitLab<C extends Clock = ManualClock>(
  options: FakeGitLabOptions<C> = {},
): Promise<FakeGitLab<C>> {
  const validated = validateSeed({
    users: options.users ?? DEMO_USERS,
    tokens: options.tokens ?? [],
    ...(options.groups === undefined ? {} : { groups: options.groups }),
    ...(options.projects === undefined ? {} : { projects: options.projects }),
  })
  if (!validated.success) {
    const lines = validated.problems.map((p) => `${p.path}: ${p.message}`)
    throw new TypeError(`createFakeGitLab: ${lines.join('; ')}`)
  }
  const host = options.host ?? '127.0.0.1'
  if (!isLoopbackHost(host) && options.controlToken === undefined) {
    throw new TypeError(
      `createFakeGitLab: host ${JSON.stringify(host)} is reachable from other machines: give a controlToken to guard the control API`,
    )
  }
  if (options.hookSecretKey !== undefined && options.hookSecretKey.length !== HOOK_SECRET_KEY_BYTES) {
    throw new TypeError(
      `createFakeGitLab: hookSecretKey must be ${HOOK_SECRET_KEY_BYTES} bytes, got ${options.hookSecretKey.length}`,
    )
  }
  const pepper = options.pepper ?? INSECURE_DEVELOPMENT_PEPPER
  const replaceable = options.store === undefined
  const clock = resolveClock(options.clock)
  const fake = await fakeAuthority({
    store: options.store ?? memoryStore(),
    // A store of the user's: a reset goes back to all it held at the start, never to the seed alone.
    ...(replaceable ? { freshStore: () => memoryStore() } : { keptData: true }),
    pepper,
    clock: clock.controllable,
    random: options.random ?? cryptoRandom,
    seed: validated.seed,
    ...(options.release === undefined ? {} : { release: options.release }),
    ...(options.adminMode === undefined ? {} : { adminMode: options.adminMode }),
    ...(options.requireExpiry === undefined ? {} : { requireExpiry: options.requireExpiry }),
    ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
    ...(options.controlToken === undefined ? {} : { controlToken: options.controlToken }),
    allowedHosts: [...(isWildcardHost(host) ? [] : [host]), ...(options.allowedHosts ?? [])],
    ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
    ...(options.hookSecretKey === undefined ? {} : { hookSecretKey: options.hookSecretKey }),
    ...(options.webhooks === undefined ? {} : { webhooks: options.webhooks }),
  })
  if (fake.isErr()) throw new TypeError(`createFakeGitLab: ${problemsText(fake.error)}`)
  const { authority, state, journal, faults, handler, checkExpiring } = fake.value
  const server = await listenNode(fake.value.listener, { host, port: 0 })
  fake.value.webhooks.listeningAt(server.url)
  const settle = async (outcome: Promise<Result<unknown, readonly SeedProblem[]>>, what: string) => {
    const result = await outcome
    if (result.isErr()) throw new TypeError(`createFakeGitLab: ${what}: ${problemsText(result.error)}`)
  }
  return Object.freeze({
    url: server.url,
    apiUrl: `${server.url}/api/v4`,
    handler,
    authority,
    store: fake.value.store,
    clock: clock.own,
    journal,
    faults,
    reset: async () => {
      await settle(state.reset(), 'reset')
      journal.clear()
      faults.clear()
      await checkExpiring() // the start data's notices, after the clear
    },
    snapshot: async () => {
      const snapshot = await state.snapshot()
      if (snapshot.isErr())
        throw new Error('createFakeGitLab: snapshot: the store failed', { cause: snapshot.error.cause })
      return snapshot.value
    },
    restore: async (snapshot: StateSnapshot | Seed) => {
      await settle(state.restore(snapshot), 'restore')
      await checkExpiring()
    },
    issueToken: async (input: IssueTokenInput) => {
      const result = await authority.issueToken(input)
      if (result.isErr()) {
        const { field, message } = describeIssueFailure(input, result.error)
        throw new Error(`createFakeGitLab: issueToken: ${field === null ? '' : `${field}: `}${message}`)
      }
      fake.value.rememberIssued(result.value.token.id, result.value.secret)
      return result.value
    },
    close: () => {
      fake.value.closeStreams()
      return server.close()
    },
  })
}
