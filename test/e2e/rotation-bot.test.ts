import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { describe, expect, it } from 'vitest'
import { findPython } from './support/python.js'

// The rotation bot of test/e2e/rotation_bot (python-gitlab) tested by its own pytest suite against
// `patkit serve`, through the control API only: clock, reset, journal and faults. This file runs that
// suite and asserts its outcome, and checks that the suite's server never outlives a killed Python
// process. Without a python3 that has both gitlab and pytest the tests are skipped with the reason,
// unless PATKIT_REQUIRE_E2E=1 (CI) makes that a failure.

const root = join(import.meta.dirname, '..', '..')
const SUITE = join(import.meta.dirname, 'rotation_bot')
const CLI = join(root, 'dist', 'cli.js')
const found = findPython(['gitlab', 'pytest'], 'python3-gitlab python3-pytest')
const required = process.env['PATKIT_REQUIRE_E2E'] === '1'

/** Bounds of the waits below: a run that needs longer is broken, not slow. */
const PYTEST_TIMEOUT_MS = 120_000
const EXIT_TIMEOUT_MS = 10_000

function python(ctx: { skip: (note?: string) => void }): string | null {
  if ('reason' in found) {
    if (required) throw new Error(`PATKIT_REQUIRE_E2E=1 but ${found.reason}`)
    console.warn(`skipped: ${found.reason}`)
    ctx.skip(found.reason)
    return null
  }
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build it first (npx tsup; npm test does)`)
  return found.python
}

// The interpreter's environment: the node running vitest for patkit, no bytecode or cache files in the
// checkout, and no PYTEST_ADDOPTS from the caller changing the summary line asserted below.
function pythonEnv(): NodeJS.ProcessEnv {
  const { PYTEST_ADDOPTS: _, ...env } = process.env
  return { ...env, PATKIT_NODE: process.execPath, PYTHONDONTWRITEBYTECODE: '1' }
}

function finished(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode)
    else child.once('exit', (code) => resolve(code))
  })
}

// Whether a process is running: gone, or a zombie nobody has reaped yet (in a container PID 1 may
// never reap), counts as not running.
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && existsSync('/proc/self/stat')) return false
  }
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function stopsWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (!running(pid)) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return !running(pid)
}

describe('the rotation bot (python-gitlab) against patkit serve', () => {
  it('its pytest suite passes: every test of test_bot.py, none skipped', async (ctx) => {
    const interpreter = python(ctx)
    if (interpreter === null) return
    const child = spawn(interpreter, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', SUITE], {
      cwd: root,
      env: pythonEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    // SIGKILL leaves no cleanup to pytest: its server still goes, as its piped stdin closes.
    const timer = setTimeout(() => child.kill('SIGKILL'), PYTEST_TIMEOUT_MS)
    const code = await finished(child)
    clearTimeout(timer)

    // Counted from the file, so a test that stops being collected fails this check.
    const tests = readFileSync(join(SUITE, 'test_bot.py'), 'utf8').match(/^def test_/gm)?.length ?? 0
    expect(tests).toBeGreaterThanOrEqual(9)
    const summary = output.trimEnd().split('\n').at(-1) ?? ''
    expect({ code, summary }, output).toEqual({
      code: 0,
      summary: expect.stringMatching(new RegExp(`^${tests} passed in [\\d.]+s( \\(\\d+:\\d\\d:\\d\\d\\))?$`)),
    })
  }, 150_000)

  it('killing the Python process that started patkit serve stops the server too (its piped stdin closes)', async (ctx) => {
    const interpreter = python(ctx)
    if (interpreter === null) return
    const dir = mkdtempSync(join(tmpdir(), 'patkit-bot-leak-'))
    // Starts the server as the suite's fixture does, prints its pid, and waits to be killed.
    const script = [
      'import json, pathlib, sys',
      `sys.path.insert(0, ${JSON.stringify(SUITE)})`,
      'from patkit_server import start_patkit',
      'seed = pathlib.Path(sys.argv[1]) / "seed.json"',
      'seed.write_text(json.dumps({"users": [{"id": 1, "username": "root", "admin": True}]}))',
      'server = start_patkit(seed, "--frozen", workdir=sys.argv[1])',
      'print(server.pid, flush=True)',
      'sys.stdin.read()',
    ].join('\n')
    const child = spawn(interpreter, ['-c', script, dir], {
      env: pythonEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', resolve)
        child.once('exit', (code) => reject(new Error(`python exited with ${code}: ${stderr}`)))
      })
      const pid = Number(line)
      expect(Number.isInteger(pid) && pid > 0, line).toBe(true)
      expect(running(pid)).toBe(true)

      child.kill('SIGKILL')
      await finished(child)
      expect(await stopsWithin(pid, EXIT_TIMEOUT_MS)).toBe(true)
    } finally {
      child.kill('SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
