import { type Authority, createAuthority } from '../authority/create-authority.js'
import type { IssueTokenInput } from '../authority/issue-token.js'
import type { Release } from '../authority/release.js'
import type { IssuedToken } from '../authority/rotate.js'
import { type Clock, type ManualClock, manualClock } from '../domain/clock.js'
import type { RandomSource } from '../domain/random.js'
import { createDigester } from '../domain/secret.js'
import { createHandler, type Handler } from '../http/create-handler.js'
import { memoryStore } from '../memory/memory-store.js'
import type { TokenStore } from '../store/token-store.js'
import { DEMO_USERS, FAKE_GITLAB_START, INSECURE_DEVELOPMENT_PEPPER } from './demo-defaults.js'
import { listen } from './listen.js'
import { describeIssueFailure, loadSeed } from './load-seed.js'
import type { SeedToken, SeedUser } from './seed-schema.js'
import { validateSeed } from './seed-schema.js'

/**
 * Options of {@link createFakeGitLab}. Everything is optional.
 *
 * @example
 * ```ts
 * import type { FakeGitLabOptions } from 'patkit/testing'
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
  /**
   * A clock, or the instant a manual clock starts at; default a manual clock at
   * {@link FAKE_GITLAB_START} (2026-01-01T00:00:00.000Z). Pass `systemClock` for real time.
   */
  readonly clock?: C | Date
  /** The GitLab release to emulate; default the newest. */
  readonly release?: Release
  /** Interface to listen on; default `127.0.0.1`. The port is always a free ephemeral one. */
  readonly host?: string
  /** The origin clients see, for absolute `Link` URLs; default the request's. */
  readonly publicUrl?: string
  /** Keys the secrets' digests; default {@link INSECURE_DEVELOPMENT_PEPPER}. */
  readonly pepper?: string
  /** The store; default a fresh `memoryStore()`. Seed users and tokens are added to it. */
  readonly store?: TokenStore
  /** Randomness for generated secrets; default the operating system's. */
  readonly random?: RandomSource
}

/**
 * A running fake GitLab token authority: GitLab's personal access token API on a real socket, with
 * the authority, store and clock behind it in reach of the test.
 *
 * @example
 * ```ts
 * import { createFakeGitLab } from 'patkit/testing'
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
  /** Stops the server (requests in flight finish first). Calling it again is harmless. */
  close(): Promise<void>
}

function resolveClock<C extends Clock>(clock: C | Date | undefined): C {
  if (clock instanceof Date) return manualClock(clock) as Clock as C
  // C defaults to ManualClock exactly when no clock object is passed, which is when we make one.
  return clock ?? (manualClock(new Date(FAKE_GITLAB_START)) as Clock as C)
}

/**
 * Starts a fake GitLab token authority on an ephemeral port of `127.0.0.1`: a memory store seeded with
 * `users` (default root and alice) and `tokens`, a manual clock (default at 2026-01-01T00:00:00.000Z)
 * so expiry is tested without waiting. It accepts the very data `patkit serve --seed` does.
 *
 * @throws {TypeError} (as a rejection) when the seed is invalid, naming the field, e.g.
 * `createFakeGitLab: tokens[0].scopes[1]: Invalid option: expected one of "api"|...`.
 * @example
 * ```ts
 * import { createFakeGitLab } from 'patkit/testing'
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
  const validated = validateSeed({ users: options.users ?? DEMO_USERS, tokens: options.tokens ?? [] })
  if (!validated.success) {
    const lines = validated.problems.map((p) => `${p.path}: ${p.message}`)
    throw new TypeError(`createFakeGitLab: ${lines.join('; ')}`)
  }
  const pepper = options.pepper ?? INSECURE_DEVELOPMENT_PEPPER
  const store = options.store ?? memoryStore()
  const clock = resolveClock(options.clock)
  const authority = createAuthority({
    store,
    pepper,
    clock,
    ...(options.random === undefined ? {} : { random: options.random }),
    ...(options.release === undefined ? {} : { release: options.release }),
  })
  const loaded = await loadSeed({ authority, store, digest: createDigester(pepper) }, validated.seed)
  if (loaded.isErr()) {
    throw new TypeError(`createFakeGitLab: ${loaded.error.path}: ${loaded.error.message}`)
  }
  const handler = createHandler(
    authority,
    options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl },
  )
  const server = await listen(handler, { host: options.host ?? '127.0.0.1', port: 0 })
  return Object.freeze({
    url: server.url,
    apiUrl: `${server.url}/api/v4`,
    handler,
    authority,
    store,
    clock,
    issueToken: async (input: IssueTokenInput) => {
      const result = await authority.issueToken(input)
      if (result.isErr()) {
        const { field, message } = describeIssueFailure(input, result.error)
        throw new Error(`createFakeGitLab: issueToken: ${field === null ? '' : `${field}: `}${message}`)
      }
      return result.value
    },
    close: () => server.close(),
  })
}
