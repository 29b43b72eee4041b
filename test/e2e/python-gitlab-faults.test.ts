import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createFakeGitLab, type FakeGitLab } from '../../src/fake/fake-gitlab.js'
import type { FaultAction } from '../../src/fake/faults.js'
import { findPython } from './support/python.js'

// python-gitlab (Debian's python3-gitlab) through outages the fault rules imitate, against
// createFakeGitLab on a real socket: test/e2e/python_gitlab_faults_check.py drives the client and prints
// what it saw; this test sets the rules and asserts the output and the journal. Without python3 or the
// gitlab module the tests are skipped with the reason, unless PATKIT_REQUIRE_E2E=1 (CI) makes that a
// failure.

const SCRIPT = join(import.meta.dirname, 'python_gitlab_faults_check.py')
const run = promisify(execFile)
const found = findPython(['gitlab'], 'python3-gitlab')
const required = process.env['PATKIT_REQUIRE_E2E'] === '1'

const OLD = 'glpat-python-faults-0001'
const SELF = '/api/v4/personal_access_tokens/self'
const ROTATE = `${SELF}/rotate`

let gitlab: FakeGitLab
beforeAll(async () => {
  gitlab = await createFakeGitLab({
    tokens: [{ id: 2, user_id: 2, name: 'ci', scopes: ['api'], token: OLD, expires_at: '2026-06-01' }],
  })
})
afterAll(() => gitlab.close())
beforeEach(() => gitlab.reset())

interface Seen {
  readonly id?: number
  readonly self_id?: number
  readonly error?: string
  readonly code?: number
  readonly sleeps: readonly number[]
}

async function python(ctx: { skip: (note?: string) => void }, ...args: string[]): Promise<Seen | null> {
  if ('reason' in found) {
    if (required) throw new Error(`PATKIT_REQUIRE_E2E=1 but ${found.reason}`)
    console.warn(`skipped: ${found.reason}`)
    ctx.skip(found.reason)
    return null
  }
  const { stdout } = await run(found.python, [SCRIPT, gitlab.url, OLD, ...args], {
    timeout: 60_000,
    encoding: 'utf8',
  })
  return JSON.parse(stdout) as Seen
}

const statuses = (path: string) =>
  gitlab.journal
    .query({ kind: 'request', pathContains: path })
    .entries.map((entry) => (entry.kind === 'request' ? entry.status : null))

// How the answer is lost, and the status the journal records for it (0: no answer).
const LOST: [string, FaultAction, number][] = [
  ['a 502', { status: 502 }, 502],
  ['a dropped connection', { drop: true }, 0],
]

const events = (type: string) => gitlab.journal.query({ kind: 'event', type }).count

describe('python-gitlab retries what the fault rules imitate', () => {
  it('a 429 with Retry-After: 1, then normal answers: it waits about a second, retries, and succeeds', async (ctx) => {
    gitlab.faults
      .add({ path: SELF, times: 1, status: 429, headers: { 'Retry-After': '1', 'RateLimit-Remaining': '0' } })
      ._unsafeUnwrap()
    const seen = await python(ctx, 'self')
    if (seen === null) return
    expect(seen).toMatchObject({ id: 2 })
    // It waited the Retry-After second before its one retry (the wait it asked time.sleep for).
    expect(seen.sleeps).toEqual([1])
    expect(statuses(SELF)).toEqual([429, 200])
  }, 90_000)

  it('503, 503, then the normal answer (one sequence rule): with retry_transient_errors, one rotation', async (ctx) => {
    gitlab.faults
      .add({ method: 'POST', path: ROTATE, sequence: [{ status: 503 }, { status: 503 }, null] })
      ._unsafeUnwrap()
    const seen = await python(ctx, 'rotate')
    if (seen === null) return
    expect(seen).toMatchObject({ id: 3, self_id: 3 })
    expect(statuses(ROTATE)).toEqual([503, 503, 200])
    expect(events('rotated')).toBe(1)
  }, 90_000)

  it.for(LOST)(
    'a rotation answer lost to %s, retried with its Idempotency-Key: the same successor, and it works',
    { timeout: 90_000 },
    async ([_, lost, first], ctx) => {
      gitlab.faults.add({ method: 'POST', path: ROTATE, times: 1, lostAnswer: true, ...lost })._unsafeUnwrap()
      const seen = await python(ctx, 'rotate', 'python-retry-5b1d')
      if (seen === null) return
      expect(seen).toMatchObject({ id: 3, self_id: 3 })
      expect(statuses(ROTATE)).toEqual([first, 200])
      expect({
        rotated: events('rotated'),
        replayed: events('rotation_replayed'),
        reuse: events('reuse_detected'),
      }).toEqual({ rotated: 1, replayed: 1, reuse: 0 })
    },
  )

  it('a rotation answer lost to a 502, retried without a key: reuse, the family is revoked', async (ctx) => {
    gitlab.faults
      .add({ method: 'POST', path: ROTATE, times: 1, lostAnswer: true, status: 502 })
      ._unsafeUnwrap()
    const seen = await python(ctx, 'rotate')
    if (seen === null) return
    expect(seen).toMatchObject({ error: 'GitlabAuthenticationError', code: 401 })
    expect(statuses(ROTATE)).toEqual([502, 401])
    expect({ rotated: events('rotated'), reuse: events('reuse_detected') }).toEqual({ rotated: 1, reuse: 1 })
  }, 90_000)
})
