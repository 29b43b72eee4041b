import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

const root = join(import.meta.dirname, '..', '..', '..')
const CLI = join(root, 'dist', 'cli.js')

/** The bounds of every wait; a server that needs longer is broken, not slow. */
const START_TIMEOUT_MS = 20_000
const STOP_TIMEOUT_MS = 5_000

/** A `patkit serve` child process on 127.0.0.1. */
export interface Served {
  /** `http://127.0.0.1:PORT`, from the server's first stdout line. */
  readonly url: string
  /** `127.0.0.1:PORT`. */
  readonly hostPort: string
  /** SIGTERM, then SIGKILL if it has not exited in time; removes the seed file. */
  readonly close: () => Promise<void>
}

const running = new Set<ChildProcess>()

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true)
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve(true)
    })
  })
}

async function stop(child: ChildProcess): Promise<void> {
  running.delete(child)
  child.kill('SIGTERM')
  if (!(await waitForExit(child, STOP_TIMEOUT_MS))) {
    child.kill('SIGKILL')
    await waitForExit(child, STOP_TIMEOUT_MS)
  }
}

/**
 * Starts the authority the way users do: `node dist/cli.js serve --host 127.0.0.1 --port 0 --seed FILE`
 * (dist/ is built by `npm test`'s pretest step, or `npx tsup`), and reads the real URL from the first
 * line, `patkit listening on http://HOST:PORT`.
 */
export async function serve(seed: unknown): Promise<Served> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build it first (npx tsup; npm test does)`)
  const dir = mkdtempSync(join(tmpdir(), 'patkit-e2e-'))
  const seedFile = join(dir, 'seed.json')
  writeFileSync(seedFile, JSON.stringify(seed, null, 2))
  const child = spawn(
    process.execPath,
    [CLI, 'serve', '--host', '127.0.0.1', '--port', '0', '--seed', seedFile],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  running.add(child)
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const cleanup = async () => {
    await stop(child)
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    const line = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`patkit serve printed nothing within ${START_TIMEOUT_MS} ms; stderr: ${stderr}`)),
        START_TIMEOUT_MS,
      )
      const lines = createInterface({ input: child.stdout ?? process.stdin })
      lines.once('line', (l) => {
        clearTimeout(timer)
        resolve(l)
      })
      child.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`patkit serve exited with ${code}; stderr: ${stderr}`))
      })
    })
    const url = /^patkit listening on (http:\/\/(127\.0\.0\.1:\d+))$/.exec(line)
    if (url?.[1] === undefined || url[2] === undefined) throw new Error(`unexpected first line: ${line}`)
    // Keep draining stdout so a chatty server can never block on a full pipe.
    child.stdout?.resume()
    return { url: url[1], hostPort: url[2], close: cleanup }
  } catch (error) {
    await cleanup()
    throw error
  }
}

/** Stops every server still running: for `afterAll`, in case a test failed before its own close. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map(stop))
}
