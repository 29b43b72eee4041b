import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { err, ok, type Result } from 'neverthrow'
import { parseRelease, type Release } from '../authority/core/release.js'
import { hostNameOf, isLoopbackHost } from '../fake/control/control-guard.js'
import { parseZonedInstant } from '../fake/control/instant.js'
import { INSECURE_DEVELOPMENT_PEPPER } from '../fake/demo-defaults.js'
import { parseHookSecretKey } from '../fake/hooks/hook-secret.js'
import { tablePrefixProblem } from '../sql/table-prefix-rule.js'
import { type DatabaseUrl, parseDatabaseUrl } from './database-url.js'

/**
 * The validated command line of `patkit serve`.
 */
export interface ServeOptions {
  readonly help: boolean
  readonly host: string
  readonly port: number
  readonly seed?: string
  readonly database?: DatabaseUrl
  readonly release?: Release
  /** GitLab's Admin Mode setting (`--admin-mode`). */
  readonly adminMode: boolean
  /** GitLab's `require_personal_access_token_expiry`; false with `--no-require-expiry`. */
  readonly requireExpiry: boolean
  readonly publicUrl?: string
  /** Table prefix of the SQL store (`--database` only); the store's default when absent. */
  readonly tablePrefix?: string
  /** The verification cache (`--cache`, `--cache-strict`; `--database` only); absent: none. */
  readonly cache?: 'default' | 'strict'
  /** Seconds a shutdown waits for requests in flight before closing every connection. */
  readonly shutdownGrace: number
  /** Keep running when the parent process exits or a piped stdin closes. */
  readonly daemon: boolean
  /** Where the clock starts (`--clock`); absent: now. */
  readonly clock?: Date
  /** Whether the clock stands still from the start (`--frozen`). */
  readonly frozen: boolean
  /** Seed of the random source (`--random-seed`): the same secrets on every start. */
  readonly randomSeed?: number
  /** Whether the control API is served (false with `--no-control`). */
  readonly control: boolean
  /** Guards the control API (`--control-token`, `--control-token-file`, `PATKIT_CONTROL_TOKEN`). */
  readonly controlToken?: string
  /** Bytes `PUT /__patkit/state` and `POST /__patkit/users` read at most (`--control-body-limit`); absent: 16 MiB. */
  readonly controlBodyLimit?: number
  /** Hosts the control API answers for beside the loopback ones and the listen host (`--allow-host`). */
  readonly allowedHosts: readonly string[]
  /** The key hook tokens are sealed under (`--hook-secret-key`, `PATKIT_HOOK_SECRET_KEY`); absent: random per start. */
  readonly hookSecretKey?: Uint8Array
  /** Webhooks may go to any address, not only loopback (`--allow-webhook-network`). */
  readonly webhookNetwork: boolean
  /** Hosts webhooks may go to beside loopback (`--allow-webhook-host`). */
  readonly webhookHosts: readonly string[]
  readonly pepper: string
  /** Where the pepper came from; `default` is the public development pepper. */
  readonly pepperSource: 'flag' | 'file' | 'env' | 'default'
}

/** The default `--port`. */
const DEFAULT_PORT = 3000

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  host: { type: 'string' },
  port: { type: 'string' },
  seed: { type: 'string' },
  database: { type: 'string' },
  release: { type: 'string' },
  'admin-mode': { type: 'boolean' },
  'no-require-expiry': { type: 'boolean' },
  'public-url': { type: 'string' },
  'table-prefix': { type: 'string' },
  cache: { type: 'boolean' },
  'cache-strict': { type: 'boolean' },
  pepper: { type: 'string' },
  'pepper-file': { type: 'string' },
  'shutdown-grace': { type: 'string' },
  daemon: { type: 'boolean' },
  clock: { type: 'string' },
  frozen: { type: 'boolean' },
  'random-seed': { type: 'string' },
  'control-token': { type: 'string' },
  'control-token-file': { type: 'string' },
  'no-control': { type: 'boolean' },
  'control-body-limit': { type: 'string' },
  'allow-host': { type: 'string', multiple: true },
  'hook-secret-key': { type: 'string' },
  'allow-webhook-network': { type: 'boolean' },
  'allow-webhook-host': { type: 'string', multiple: true },
} as const

/**
 * The default `--shutdown-grace`, in seconds.
 */
const DEFAULT_SHUTDOWN_GRACE = 5

function parseFlags(argv: readonly string[]) {
  return parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: true })
}

function parsePort(value: string | undefined): Result<number, string> {
  if (value === undefined) return ok(DEFAULT_PORT)
  const port = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN
  return port >= 0 && port <= 65_535
    ? ok(port)
    : err(`--port must be an integer from 0 to 65535, got ${JSON.stringify(value)}`)
}

function parseShutdownGrace(value: string | undefined): Result<number, string> {
  if (value === undefined) return ok(DEFAULT_SHUTDOWN_GRACE)
  const seconds = /^\d{1,4}$/.test(value) ? Number(value) : Number.NaN
  return seconds <= 3600
    ? ok(seconds)
    : err(`--shutdown-grace must be a whole number of seconds from 0 to 3600, got ${JSON.stringify(value)}`)
}

function parseClock(value: string | undefined): Result<Date | undefined, string> {
  if (value === undefined) return ok(undefined)
  const at = parseZonedInstant(value)
  return at !== null
    ? ok(at)
    : err(
        `--clock must be an ISO 8601 instant with Z or an offset, on a real calendar day, e.g. 2026-01-01T00:00:00Z, got ${JSON.stringify(value)}`,
      )
}

const KIB = 1024
const MIB = 1024 * 1024
const UNIT_BYTES: Readonly<Record<string, number>> = { '': 1, KiB: KIB, MiB: MIB }

// Bytes, as a count or with KiB or MiB: from the 64 KiB every control route takes to 1 GiB.
function parseControlBodyLimit(value: string | undefined): Result<number | undefined, string> {
  if (value === undefined) return ok(undefined)
  const match = /^(\d{1,10})(KiB|MiB)?$/.exec(value.trim())
  const bytes = match === null ? Number.NaN : Number(match[1]) * (UNIT_BYTES[match[2] ?? ''] ?? Number.NaN)
  return bytes >= 64 * KIB && bytes <= 1024 * MIB
    ? ok(bytes)
    : err(
        `--control-body-limit must be a size from 64KiB to 1024MiB, in bytes or with KiB or MiB (e.g. 67108864 or 64MiB), got ${JSON.stringify(value)}`,
      )
}

function parseRandomSeed(value: string | undefined): Result<number | undefined, string> {
  if (value === undefined) return ok(undefined)
  return /^\d{1,10}$/.test(value) && Number(value) <= 0xffffffff
    ? ok(Number(value))
    : err(`--random-seed must be an integer from 0 to 4294967295, got ${JSON.stringify(value)}`)
}

function parseHost(value: string | undefined): Result<string, string> {
  if (value === undefined) return ok('127.0.0.1')
  const host = value.trim()
  return host === '' || /\s/.test(host)
    ? err(`--host must be a host name or address, got ${JSON.stringify(value)}`)
    : ok(host)
}

function parsePublicUrl(value: string): Result<string, string> {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return err(`--public-url must be an absolute http(s) URL, got ${JSON.stringify(value)}`)
  }
  return url.protocol === 'http:' || url.protocol === 'https:'
    ? ok(value)
    : err(`--public-url must be an http or https URL, got ${JSON.stringify(value)}`)
}

function required(name: string, value: string | undefined): Result<string | undefined, string> {
  return value !== undefined && value.trim() === '' ? err(`--${name} must not be empty`) : ok(value)
}

/**
 * Reads a whole file as UTF-8 text; throws what `fs` throws.
 */
type ReadTextFile = (path: string) => string

type PepperChoice = Pick<ServeOptions, 'pepper' | 'pepperSource'>

// The pepper from --pepper, --pepper-file (its content without one trailing line break, so `echo`
// and editors may add one), PATKIT_PEPPER, or the public development pepper, in that order.
function choosePepper(
  flag: string | undefined,
  file: string | undefined,
  envPepper: string | undefined,
  readFile: ReadTextFile,
): Result<PepperChoice, string> {
  if (flag !== undefined && file !== undefined) return err('--pepper and --pepper-file exclude each other')
  if (flag !== undefined) return ok({ pepper: flag, pepperSource: 'flag' })
  if (file !== undefined) {
    return readSecretFile('pepper-file', file, readFile).map((pepper) => ({
      pepper,
      pepperSource: 'file' as const,
    }))
  }
  if (envPepper !== undefined && envPepper !== '') return ok({ pepper: envPepper, pepperSource: 'env' })
  return ok({ pepper: INSECURE_DEVELOPMENT_PEPPER, pepperSource: 'default' })
}

// The text of a secret file without one trailing line break (`echo` and editors add one).
function readSecretFile(flag: string, file: string, readFile: ReadTextFile): Result<string, string> {
  let content: string
  try {
    content = readFile(file)
  } catch (error) {
    return err(`--${flag} ${JSON.stringify(file)} cannot be read: ${(error as Error).message}`)
  }
  const secret = content.replace(/\r?\n$/, '')
  return secret.trim() === '' ? err(`--${flag} ${JSON.stringify(file)} is empty`) : ok(secret)
}

// --hook-secret-key wins over PATKIT_HOOK_SECRET_KEY; an empty variable is none.
function chooseHookSecretKey(
  flag: string | undefined,
  envKey: string | undefined,
): Result<Uint8Array | undefined, string> {
  const [value, source] =
    flag !== undefined
      ? [flag, '--hook-secret-key']
      : [envKey === '' ? undefined : envKey, 'PATKIT_HOOK_SECRET_KEY']
  if (value === undefined) return ok(undefined)
  return parseHookSecretKey(value).mapErr(
    (problem) => `${source} ${problem} (make one with \`openssl rand -hex 32\`)`,
  )
}

/** The shortest control token taken: 16 characters (`openssl rand -hex 16` makes 32). */
const MIN_CONTROL_TOKEN_LENGTH = 16

// A control token guessable in a few tries (one character, a word) guards nothing: refused, naming
// where it came from (`--control-token`, `--control-token-file "f"`, `PATKIT_CONTROL_TOKEN`).
function checkedControlToken(token: string, source: string): Result<string, string> {
  if (token.trim() === '')
    return err(
      `${source} is only whitespace: set it to a control token of at least ${MIN_CONTROL_TOKEN_LENGTH} characters (\`openssl rand -hex 16\`), or unset it`,
    )
  const length = [...token].length
  if (length >= MIN_CONTROL_TOKEN_LENGTH) return ok(token)
  return err(
    `${source} is ${length} character${length === 1 ? '' : 's'} long: a control token must be at least ${MIN_CONTROL_TOKEN_LENGTH} characters: make one with \`openssl rand -hex 16\``,
  )
}

// The control token from --control-token, --control-token-file or PATKIT_CONTROL_TOKEN, in that order
// (the two flags exclude each other, as the pepper's do); none with --no-control, which excludes both
// flags and ignores the variable.
function chooseControlToken(
  values: { flag: string | undefined; file: string | undefined; off: boolean },
  envToken: string | undefined,
  readFile: ReadTextFile,
): Result<string | undefined, string> {
  const { flag, file, off } = values
  if (flag !== undefined && file !== undefined)
    return err('--control-token and --control-token-file exclude each other')
  if (off && (flag !== undefined || file !== undefined))
    return err(
      `--no-control and --${flag === undefined ? 'control-token-file' : 'control-token'} exclude each other`,
    )
  if (off) return ok(undefined)
  if (flag !== undefined) return checkedControlToken(flag, '--control-token')
  if (file !== undefined)
    return readSecretFile('control-token-file', file, readFile).andThen((token) =>
      checkedControlToken(token, `--control-token-file ${JSON.stringify(file)}`),
    )
  if (envToken === undefined || envToken === '') return ok(undefined)
  return checkedControlToken(envToken, 'PATKIT_CONTROL_TOKEN')
}

// Whether a value is `host:port` (a bare IPv6 address has two colons or more).
function hasPort(value: string): boolean {
  const rest = value.startsWith('[') ? value.slice(value.indexOf(']') + 1) : value
  return rest.split(':').length === 2
}

function parseAllowedHosts(values: readonly string[] | undefined): Result<readonly string[], string> {
  const hosts: string[] = []
  for (const value of values ?? []) {
    const name = value === '*' ? '*' : hostNameOf(value)
    if (name === null || hasPort(value)) {
      return err(
        `--allow-host must be a host name or IP address without a port (every port is allowed), or *, got ${JSON.stringify(value)}`,
      )
    }
    hosts.push(name)
  }
  return ok(hosts)
}

/**
 * How the refusal of a command line that leaves the control API without a token where one is needed
 * begins: the CLI prints it with its fix, not with the whole usage (the flags are fine).
 */
export const CONTROL_TOKEN_NEEDED = 'the control API (/__patkit/) needs a control token when'

// Why the control API needs a token here, or null: it is reachable from other machines, or it would
// hand out (and replace) a database's data.
function controlTokenNeed(host: string, database: DatabaseUrl | undefined, allowedHosts: readonly string[]) {
  if (!isLoopbackHost(host)) return `--host ${host} is reachable from other machines`
  if (database !== undefined) return 'a --database holds data of its own'
  if (allowedHosts.includes('*')) return '--allow-host * lets any web site address it'
  return null
}

/**
 * Parses and validates the arguments after `serve`. Every error is a sentence naming the flag, for
 * the user (the caller prints it with the usage and exits 2). `env` supplies `PATKIT_PEPPER` and
 * `PATKIT_CONTROL_TOKEN`; `readFile` reads `--pepper-file` and `--control-token-file`. A command line
 * that would leave the control API without a token where one is needed (a `--host` other machines
 * reach, a `--database`, `--allow-host *`) is an error too.
 */
export function parseServeArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  readFile: ReadTextFile = (path) => readFileSync(path, 'utf8'),
): Result<ServeOptions, string> {
  let values: ReturnType<typeof parseFlags>['values']
  try {
    const parsed = parseFlags(argv)
    if (parsed.positionals.length > 0) {
      return err(`serve takes no arguments, got ${JSON.stringify(parsed.positionals[0])}`)
    }
    values = parsed.values
  } catch (error) {
    // parseArgs' messages already name the flag: "Unknown option '--prot'", "Option '--port <value>' argument missing".
    return err((error as Error).message)
  }
  if (values.help === true) {
    return ok({
      help: true,
      host: '127.0.0.1',
      port: DEFAULT_PORT,
      shutdownGrace: DEFAULT_SHUTDOWN_GRACE,
      daemon: false,
      frozen: false,
      adminMode: false,
      requireExpiry: true,
      pepper: INSECURE_DEVELOPMENT_PEPPER,
      pepperSource: 'default',
      control: true,
      allowedHosts: [],
      webhookNetwork: false,
      webhookHosts: [],
    })
  }
  const host = parseHost(values.host)
  if (host.isErr()) return err(host.error)
  const port = parsePort(values.port)
  if (port.isErr()) return err(port.error)
  const shutdownGrace = parseShutdownGrace(values['shutdown-grace'])
  if (shutdownGrace.isErr()) return err(shutdownGrace.error)
  const seed = required('seed', values.seed)
  if (seed.isErr()) return err(seed.error)
  const clock = parseClock(values.clock)
  if (clock.isErr()) return err(clock.error)
  const randomSeed = parseRandomSeed(values['random-seed'])
  if (randomSeed.isErr()) return err(randomSeed.error)
  const controlFlag = required('control-token', values['control-token'])
  if (controlFlag.isErr()) return err(controlFlag.error)
  const control = values['no-control'] !== true
  const controlToken = chooseControlToken(
    { flag: controlFlag.value, file: values['control-token-file'], off: !control },
    env['PATKIT_CONTROL_TOKEN'],
    readFile,
  )
  if (controlToken.isErr()) return err(controlToken.error)
  const allowedHosts = parseAllowedHosts(values['allow-host'])
  if (allowedHosts.isErr()) return err(allowedHosts.error)
  const webhookHosts = values['allow-webhook-host'] ?? []
  const badHook = webhookHosts.find((h) => !/^[A-Za-z0-9.:[\]-]+$/.test(h))
  if (badHook !== undefined)
    return err(
      `--allow-webhook-host must be a host name or IP address without a port, got ${JSON.stringify(badHook)}`,
    )
  const controlBodyLimit = parseControlBodyLimit(values['control-body-limit'])
  if (controlBodyLimit.isErr()) return err(controlBodyLimit.error)
  if (controlBodyLimit.value !== undefined && !control)
    return err('--no-control and --control-body-limit exclude each other')
  const hookSecretKey = chooseHookSecretKey(values['hook-secret-key'], env['PATKIT_HOOK_SECRET_KEY'])
  if (hookSecretKey.isErr()) return err(hookSecretKey.error)
  const pepperFlag = required('pepper', values.pepper)
  if (pepperFlag.isErr()) return err(pepperFlag.error)
  let database: DatabaseUrl | undefined
  if (values.database !== undefined) {
    const parsed = parseDatabaseUrl(values.database)
    if (parsed.isErr()) return err(parsed.error)
    database = parsed.value
  }
  let release: Release | undefined
  if (values.release !== undefined) {
    const parsed = parseRelease(values.release)
    if (parsed.isErr()) {
      return err(
        `--release must be a GitLab release MAJOR.MINOR such as 16.10, got ${JSON.stringify(values.release)}`,
      )
    }
    release = parsed.value
  }
  let publicUrl: string | undefined
  if (values['public-url'] !== undefined) {
    const parsed = parsePublicUrl(values['public-url'])
    if (parsed.isErr()) return err(parsed.error)
    publicUrl = parsed.value
  }
  const tablePrefix = values['table-prefix']
  if (tablePrefix !== undefined) {
    if (database === undefined) return err('--table-prefix needs --database')
    // The SQL store's own rule, from its Kysely-free module: the store itself is loaded only later,
    // and a prefix it would refuse must be a usage error here, not a TypeError when it opens.
    const problem = tablePrefixProblem(tablePrefix)
    if (problem !== null) return err(`--table-prefix ${problem}, got ${JSON.stringify(tablePrefix)}`)
  }
  const cache = values['cache-strict'] === true ? 'strict' : values.cache === true ? 'default' : undefined
  // The in-memory store is one instance already, and the control plane replaces its data underneath.
  if (cache !== undefined && database === undefined) {
    return err(`--${cache === 'strict' ? 'cache-strict' : 'cache'} needs --database`)
  }
  const pepper = choosePepper(pepperFlag.value, values['pepper-file'], env['PATKIT_PEPPER'], readFile)
  if (pepper.isErr()) return err(pepper.error)
  const need =
    control && controlToken.value === undefined
      ? controlTokenNeed(host.value, database, allowedHosts.value)
      : null
  if (need !== null) {
    return err(
      `${CONTROL_TOKEN_NEEDED} ${need}: give --control-token-file FILE, PATKIT_CONTROL_TOKEN or --control-token T, or turn the control API off with --no-control (for example: PATKIT_CONTROL_TOKEN=$(openssl rand -hex 16) patkit serve ...)`,
    )
  }
  return ok({
    help: false,
    host: host.value,
    port: port.value,
    shutdownGrace: shutdownGrace.value,
    daemon: values.daemon === true,
    frozen: values.frozen === true,
    adminMode: values['admin-mode'] === true,
    requireExpiry: values['no-require-expiry'] !== true,
    ...(clock.value === undefined ? {} : { clock: clock.value }),
    ...(randomSeed.value === undefined ? {} : { randomSeed: randomSeed.value }),
    control,
    allowedHosts: allowedHosts.value,
    webhookNetwork: values['allow-webhook-network'] === true,
    webhookHosts: webhookHosts.map((h) => h.replace(/^\[|\]$/g, '')),
    ...(controlToken.value === undefined ? {} : { controlToken: controlToken.value }),
    ...(controlBodyLimit.value === undefined ? {} : { controlBodyLimit: controlBodyLimit.value }),
    ...pepper.value,
    ...(hookSecretKey.value === undefined ? {} : { hookSecretKey: hookSecretKey.value }),
    ...(seed.value === undefined ? {} : { seed: seed.value }),
    ...(database === undefined ? {} : { database }),
    ...(release === undefined ? {} : { release }),
    ...(publicUrl === undefined ? {} : { publicUrl }),
    ...(tablePrefix === undefined ? {} : { tablePrefix }),
    ...(cache === undefined ? {} : { cache }),
  })
}
