import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

// The CLI under test is the built one, as users run it; `npm test` builds dist/ first (pretest).
export const root = join(import.meta.dirname, '..', '..', '..')
export const cli = join(root, 'dist', 'cli.js')

/** Every wait in these tests is bounded: a hung child fails the test with this message, not the run. */
export const WAIT_MS = 15_000

/**
 * The timeout of a test that starts `patkit serve`: one start is about 0.3 s of CPU, a test waits for
 * several (restarts, processes started together), and on a busy machine that takes seconds, near
 * vitest's 5 s default. Twice WAIT_MS, so a child that hangs fails with the wait's message first.
 */
export const SERVE_TIMEOUT = 2 * WAIT_MS

const children = new Set<ChildProcessWithoutNullStreams>()

export interface Exit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

export interface CliProcess {
  readonly child: ChildProcessWithoutNullStreams
  /** Every stdout line so far. */
  readonly lines: string[]
  readonly stderr: () => string
  /** Resolves when at least `count` stdout lines arrived; rejects after `WAIT_MS`. */
  waitForLines(count: number): Promise<string[]>
  /** Resolves with the exit status; rejects after `WAIT_MS`. */
  exited(): Promise<Exit>
}

function withTimeout<T>(promise: Promise<T>, what: string, stderr: () => string, waitMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`timed out after ${waitMs} ms waiting for ${what}; stderr: ${stderr()}`)),
      waitMs,
    )
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** Spawns `node dist/cli.js ...args`; the child is killed by `killAll` if a test leaves it running. */
export function runCli(
  args: readonly string[],
  // `waitMs`: for a start that does much work first (seeding 10 001 tokens takes 8 s alone on 2 cores).
  options: { cwd?: string; env?: NodeJS.ProcessEnv; waitMs?: number } = {},
): CliProcess {
  const waitMs = options.waitMs ?? WAIT_MS
  if (!existsSync(cli)) throw new Error(`${cli} is missing: build first (npx tsup, or npm test)`)
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: options.cwd ?? root,
    env: options.env ?? { ...process.env, PATKIT_PEPPER: '', PATKIT_CONTROL_TOKEN: '' },
  })
  children.add(child)
  const exit = new Promise<Exit>((resolve) => {
    child.once('close', (code, signal) => {
      children.delete(child)
      resolve({ code, signal })
    })
  })
  let errText = ''
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (chunk: string) => {
    errText += chunk
  })
  const lines: string[] = []
  const waiters: (() => void)[] = []
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line)
    for (const wake of waiters.splice(0)) wake()
  })
  const stderr = () => errText
  return {
    child,
    lines,
    stderr,
    waitForLines: (count) =>
      withTimeout(
        new Promise<string[]>((resolve, reject) => {
          const check = () => {
            if (lines.length >= count) resolve(lines.slice(0, count))
            else waiters.push(check)
          }
          void exit.then(({ code }) => {
            if (lines.length < count)
              reject(new Error(`exited (${code}) after ${lines.length} lines: ${errText}`))
          })
          check()
        }),
        `${count} stdout lines`,
        stderr,
        waitMs,
      ),
    exited: () => withTimeout(exit, 'the process to exit', stderr, waitMs),
  }
}

export interface Server extends CliProcess {
  readonly url: string
  readonly apiUrl: string
  /** Sends the signal and resolves with the exit status. */
  stop(signal?: NodeJS.Signals): Promise<Exit>
}

const LISTENING = /^patkit listening on (http:\/\/127\.0\.0\.1:(\d+))$/

/** Starts `patkit serve --port 0 ...args` and waits for the listening line (and `extraLines` more). */
export async function startServe(
  args: readonly string[] = [],
  options: { extraLines?: number; cwd?: string; env?: NodeJS.ProcessEnv; waitMs?: number } = {},
): Promise<Server> {
  const run = runCli(['serve', '--port', '0', ...args], options)
  const [first] = await run.waitForLines(1 + (options.extraLines ?? 0))
  const match = LISTENING.exec(first ?? '')
  if (match === null) throw new Error(`unexpected first line ${JSON.stringify(first)}`)
  const url = match[1] as string
  return {
    ...run,
    url,
    apiUrl: `${url}/api/v4`,
    stop: (signal = 'SIGTERM') => {
      run.child.kill(signal)
      return run.exited()
    },
  }
}

/** Kills whatever a test left running (afterEach). */
export async function killAll(): Promise<void> {
  const left = [...children]
  for (const child of left) child.kill('SIGKILL')
  await Promise.all(left.map((child) => new Promise((resolve) => child.once('close', resolve))))
}
