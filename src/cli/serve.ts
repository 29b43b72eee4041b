import { ResultAsync } from 'neverthrow'
import { defaultTokenFormat, LATEST_RELEASE } from '../authority/core/release.js'
import { systemClock } from '../domain/clock.js'
import type { StoreFailure } from '../domain/errors.js'
import { mintSecret } from '../domain/mint-secret.js'
import { cryptoRandom, type RandomSource, seededRandom } from '../domain/random.js'
import { DEFAULT_TOKEN_PREFIX } from '../domain/secret.js'
import { isLoopbackHost, isWildcardHost } from '../fake/control/control-guard.js'
import { controllableClock } from '../fake/controllable-clock.js'
import {
  DEMO_BOT,
  DEMO_GROUP,
  DEMO_PROJECT,
  DEMO_USERS,
  INSECURE_DEVELOPMENT_PEPPER,
} from '../fake/demo-defaults.js'
import { fakeAuthority } from '../fake/fake-authority.js'
import { type ListeningServer, listenNode } from '../fake/listen.js'
import type { SeedReport } from '../fake/seed/load-seed.js'
import type { ValidSeed } from '../fake/seed/seed-schema.js'
import { memoryStore } from '../memory/memory-store.js'
import type { TokenStore } from '../store/token-store.js'
import { type OpenedStore, openStore } from './open-store.js'
import type { ServeOptions } from './serve-options.js'
import { stopRequests } from './stop-requests.js'

/**
 * Where the CLI writes: one line at a time, to stdout or stderr.
 */
export interface CliOutput {
  out(line: string): void
  err(line: string): void
}

function reason(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause)
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}

// Whether a store holds no token and none of the demo users (the bot too; by id or username), nor the
// demo group or project.
function isEmpty(store: TokenStore): ResultAsync<boolean, StoreFailure> {
  const anyToken = store.list({
    filter: {},
    sort: 'id_asc',
    page: { page: 1, perPage: 1 },
    now: systemClock.now(),
  })
  const demoUsers = ResultAsync.combine(
    [...DEMO_USERS, DEMO_BOT].flatMap((user) => [store.findUser(user.id), store.findUser(user.username)]),
  )
  const { resources } = store
  const demoResources = ResultAsync.combine(
    resources === undefined
      ? []
      : [
          resources.findGroup(DEMO_GROUP.id),
          resources.findGroup(DEMO_GROUP.path),
          resources.findProject(DEMO_PROJECT.id),
        ],
  )
  return ResultAsync.combine([anyToken, demoUsers, demoResources] as const).map(
    ([tokens, users, found]) =>
      tokens.total === 0 && users.every((user) => user === null) && found.every((one) => one === null),
  )
}

/**
 * The start seed: the seed file; or, for an empty store, the demo users with one fresh `api` token
 * each (fresh secrets, kept in the seed so a reset brings the same ones back); or nothing for a
 * database that holds data. Returns it with the lines to print after the listening line.
 */
async function startSeed(
  store: TokenStore,
  options: ServeOptions,
  file: ValidSeed | undefined,
  random: RandomSource,
): Promise<{ seed: ValidSeed; lines: (url: string, report: SeedReport) => string[] } | { error: string }> {
  if (file !== undefined) {
    return {
      seed: file,
      lines: (_, { users, groups, projects, issued, restored, skipped }) => {
        const kept = skipped.length === 0 ? '' : ` (${skipped.length} already stored)`
        // Groups and projects are named only when the file has some: the line stays as it was otherwise.
        const resources = [
          ...(groups === 0 ? [] : [count(groups, 'group')]),
          ...(projects === 0 ? [] : [count(projects, 'project')]),
        ]
        const what = [count(users, 'user'), ...resources].join(', ')
        return [
          `seeded ${what} and ${count(issued.length + restored.length, 'token')} from ${options.seed}${kept}`,
        ]
      },
    }
  }
  // Demo data goes only into an empty store: a database that holds anything is the user's, and
  // start-up never changes (or adds to) their users and tokens.
  const empty = await isEmpty(store)
  if (empty.isErr()) return { error: `cannot read the database: ${reason(empty.error.cause)}` }
  if (!empty.value) {
    return {
      seed: {},
      lines: () => [
        'the database already holds users or tokens: no demo users or tokens were created (use --seed FILE for known ones)',
      ],
    }
  }
  const format = defaultTokenFormat(options.release ?? LATEST_RELEASE)
  const secrets = DEMO_USERS.map((user) =>
    mintSecret({ random, prefix: DEFAULT_TOKEN_PREFIX, format }, user.id),
  )
  const seed: ValidSeed = {
    users: DEMO_USERS.map((user) => ({ ...user })),
    tokens: DEMO_USERS.map((user, i) => ({
      user_id: user.id,
      name: 'patkit demo',
      scopes: ['api'],
      token: secrets[i] ?? '',
    })),
  }
  const userLines = DEMO_USERS.map(
    (user, i) => `${user.username}${user.admin === true ? ' (admin)' : ''}: ${secrets[i]}`,
  )
  const tryLine = (url: string) =>
    `try: curl -H "PRIVATE-TOKEN: ${secrets[0]}" ${url}/api/v4/personal_access_tokens`
  // A store without projects and groups (one of a host's own) gets the demo users alone.
  if (store.resources === undefined) return { seed, lines: (url) => [...userLines, tryLine(url)] }
  // Minted after the users' secrets, so `--random-seed N` gives them the same secrets as before.
  const botSecret = mintSecret({ random, prefix: DEFAULT_TOKEN_PREFIX, format }, DEMO_BOT.id)
  const withResources: ValidSeed = {
    ...seed,
    users: [...(seed.users ?? []), { ...DEMO_BOT }],
    groups: [{ ...DEMO_GROUP }],
    projects: [{ ...DEMO_PROJECT }],
    tokens: [
      ...(seed.tokens ?? []),
      { user_id: DEMO_BOT.id, name: 'patkit demo', scopes: ['api'], token: botSecret },
    ],
  }
  const projectPath = `${DEMO_GROUP.path}/${DEMO_PROJECT.path}`
  return {
    seed: withResources,
    lines: (url) => [
      ...userLines,
      tryLine(url),
      `${DEMO_BOT.username} (bot of project ${projectPath}, Maintainer): ${botSecret}`,
      // alice, a Maintainer of the project: GitLab lets a Maintainer list its access tokens.
      `try: curl -H "PRIVATE-TOKEN: ${secrets[1]}" ${url}/api/v4/projects/${DEMO_PROJECT.id}/access_tokens`,
      `try: curl -H "PRIVATE-TOKEN: ${botSecret}" ${url}/api/v4/personal_access_tokens/self`,
    ],
  }
}

/** Tells the authority's seeded stream apart from the demo secrets' (any constant would do). */
const AUTHORITY_STREAM = 0x5bd1e995

/** A pepper shorter than this is guessable enough to warn about (32 random characters: ~190 bits). */
const MIN_PEPPER_LENGTH = 32

// What is weak about the pepper: the public development pepper on a database, or given explicitly
// (where it looks like a real one), or a short explicit pepper.
function pepperWarnings({ pepper, pepperSource, database }: ServeOptions): string[] {
  if (pepperSource === 'default') {
    return database === undefined
      ? []
      : ['the stored digests use the public development pepper; set --pepper-file, --pepper or PATKIT_PEPPER']
  }
  if (pepper === INSECURE_DEVELOPMENT_PEPPER) {
    return [
      'the pepper given is the public development pepper: anyone can test guessed secrets against the digests',
    ]
  }
  if (pepper.length < MIN_PEPPER_LENGTH) {
    return [
      `the pepper is ${pepper.length} characters long; use at least ${MIN_PEPPER_LENGTH} random characters`,
    ]
  }
  return []
}

// A control API without a token that answers for a host name other than loopback ones: whoever reaches
// the server under that name (through a proxy to the loopback interface, say) drives it.
function controlWarnings({ control, controlToken, allowedHosts, publicUrl }: ServeOptions): string[] {
  if (!control || controlToken !== undefined) return []
  const named = [...allowedHosts, ...(publicUrl === undefined ? [] : [new URL(publicUrl).hostname])]
  const exposed = named.filter((host) => !isLoopbackHost(host))
  return exposed.length === 0
    ? []
    : [
        `the control API (/__patkit/) answers for ${exposed.join(', ')} without a control token; give --control-token-file FILE (or PATKIT_CONTROL_TOKEN) if others reach it there`,
      ]
}

async function start(options: ServeOptions, io: CliOutput, opened: OpenedStore, file: ValidSeed | undefined) {
  const { randomSeed } = options
  const random = randomSeed === undefined ? cryptoRandom : seededRandom(randomSeed)
  const initial = await startSeed(opened.store, options, file, random)
  if ('error' in initial) {
    io.err(`patkit serve: ${initial.error}`)
    return null
  }
  const clock = controllableClock(systemClock, {
    ...(options.clock === undefined ? {} : { at: options.clock }),
    frozen: options.frozen,
  })
  const fake = await fakeAuthority({
    store: opened.store,
    // A database's start is what it holds once the seed is in: a reset goes back to that, rows the
    // database already had included, never to an empty database.
    ...(opened.replaceable ? { freshStore: () => memoryStore() } : { keptData: true }),
    pepper: options.pepper,
    clock,
    // Its own stream, apart from the demo secrets', started over on every reset: the n-th secret
    // minted after a start or a reset is the same every time.
    random: randomSeed === undefined ? cryptoRandom : () => seededRandom(randomSeed ^ AUTHORITY_STREAM),
    seed: initial.seed,
    ...(options.release === undefined ? {} : { release: options.release }),
    ...(options.adminMode ? { adminMode: true } : {}),
    ...(options.requireExpiry ? {} : { requireExpiry: false }),
    ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
    ...(options.controlToken === undefined ? {} : { controlToken: options.controlToken }),
    ...(options.controlBodyLimit === undefined ? {} : { controlBodyLimit: options.controlBodyLimit }),
    ...(options.hookSecretKey === undefined ? {} : { hookSecretKey: options.hookSecretKey }),
    // Clients address the server by its listen address (unless that is every interface's).
    allowedHosts: [...(isWildcardHost(options.host) ? [] : [options.host]), ...options.allowedHosts],
    controlPlane: options.control,
    webhooks: { allowNetwork: options.webhookNetwork, allowHosts: options.webhookHosts },
  })
  if (fake.isErr()) {
    const where = file === undefined ? 'cannot create the demo data' : `seed file ${options.seed}`
    for (const problem of fake.error) io.err(`patkit serve: ${where}: ${problem.path}: ${problem.message}`)
    return null
  }
  let server: ListeningServer
  try {
    server = await listenNode(fake.value.listener, {
      host: options.host,
      port: options.port,
      shutdownGraceMs: options.shutdownGrace * 1000,
    })
  } catch (cause) {
    io.err(`patkit serve: cannot listen on ${options.host}:${options.port}: ${reason(cause)}`)
    return null
  }
  fake.value.webhooks.listeningAt(server.url)
  // A database too large for the start snapshot a reset goes back to: said at once, not at the first reset.
  const refusal = fake.value.state.resetRefusal()
  if (refusal !== null && options.control)
    io.err(`patkit serve: warning: POST /__patkit/reset is refused: ${refusal}`)
  // The first stdout line is a contract: test suites in any language read it to learn the port.
  io.out(`patkit listening on ${server.url}`)
  const lines = initial.lines(server.url, fake.value.seeded)
  for (const line of lines) io.out(line)
  // What to do next, after the lines a test suite reads by position: the dashboard, a first call, the docs.
  for (const line of nextSteps(server.url, options, lines)) io.out(line)
  // Open journal streams end as the server closes, rather than hold it for the grace.
  const { close } = server
  return {
    ...server,
    close: () => {
      fake.value.closeStreams()
      return close()
    },
  }
}

/** The banner's last lines: where the dashboard is, a first call to make, where the docs are. */
function nextSteps(url: string, options: ServeOptions, lines: readonly string[]): string[] {
  const steps: string[] = []
  if (options.control) {
    const token = options.controlToken === undefined ? '' : ' (it asks for the control token)'
    steps.push(`dashboard: ${url}/__patkit/${token}`)
  }
  if (!lines.some((line) => line.startsWith('try: curl'))) {
    steps.push(
      `try: curl -H "PRIVATE-TOKEN: <a token of your seed>" ${url}/api/v4/personal_access_tokens/self`,
    )
  }
  steps.push(
    `docs: README.md in the patkit package ("Fake GitLab in your tests"); patkit serve --help for the flags${options.control ? `; the control API at ${url}/__patkit/openapi.json` : ''}`,
  )
  return steps
}

/**
 * Runs `patkit serve` with validated options until SIGINT or SIGTERM; resolves with the exit code:
 * 0 after a clean shutdown, 1 when it could not start. Nothing is listening before the seed (or the
 * demo data) is in place, so a bad seed never leaves a half-ready server.
 */
export async function serve(options: ServeOptions, io: CliOutput): Promise<number> {
  let seed: ValidSeed | undefined
  if (options.seed !== undefined) {
    // The seed file's schema (zod) loads only when there is a file to check: not on a plain start.
    const { readSeedFile } = await import('./seed-file.js')
    const read = await readSeedFile(options.seed)
    if (read.isErr()) {
      for (const line of read.error) io.err(`patkit serve: ${line}`)
      return 1
    }
    seed = read.value
  }
  // Listen for signals from the start: a SIGTERM while the store opens must still end in a clean exit.
  const stop = stopRequests({ watchParent: !options.daemon })
  const opened = await openStore(options.database, options.pepper, options.tablePrefix, options.cache)
  if (opened.isErr()) {
    io.err(`patkit serve: ${opened.error}`)
    stop.dispose()
    return 1
  }
  for (const warning of [...pepperWarnings(options), ...controlWarnings(options)])
    io.err(`patkit serve: warning: ${warning}`)
  const server = await start(options, io, opened.value, seed)
  if (server === null) {
    await opened.value.close().catch(() => {})
    stop.dispose()
    return 1
  }
  const why = await stop.reason
  stop.dispose()
  io.err(`patkit serve: ${why.startsWith('SIG') ? `${why} received` : why}, closing`)
  // A second signal means "now": do not wait for slow clients.
  process.once('SIGINT', () => process.exit(1))
  process.once('SIGTERM', () => process.exit(1))
  await server.close()
  await opened.value.close()
  return 0
}
