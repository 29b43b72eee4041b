import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { killAll, runCli, SERVE_TIMEOUT, startServe } from './support/cli-process.js'

// Issue 32: what a new user reads first. The banner says what to do next (the dashboard, a curl, the
// docs); `serve --help` describes today's fake; a --database without a control token says why and how
// to fix it, not 40 lines of usage.

const dir = mkdtempSync(join(tmpdir(), 'patkit-first-run-'))
afterEach(killAll)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('patkit serve: the first run', { timeout: SERVE_TIMEOUT }, () => {
  it('ends its banner with the dashboard, and the docs', async () => {
    // The demo data's 6 lines, then the dashboard and the docs.
    const server = await startServe([], { extraLines: 8 })
    expect(server.lines[1]).toMatch(/^root \(admin\): glpat-/)
    expect(server.lines.slice(-2)).toEqual([
      `dashboard: ${server.url}/__patkit/`,
      `docs: README.md in the patkit package ("Fake GitLab in your tests"); patkit serve --help for the flags; the control API at ${server.url}/__patkit/openapi.json`,
    ])
    expect((await fetch(`${server.url}/__patkit/`)).status).not.toBe(404)
    await server.stop()
  })

  it('with a seed file, gives a curl to try with a token of the seed', async () => {
    const seed = join(dir, 'seed.json')
    writeFileSync(seed, JSON.stringify({ users: [{ id: 2, username: 'alice' }] }))
    const server = await startServe(['--seed', seed], { extraLines: 3 })
    expect(server.lines[1]).toBe(`seeded 1 user and 0 tokens from ${seed}`)
    expect(server.lines[3]).toBe(
      `try: curl -H "PRIVATE-TOKEN: <a token of your seed>" ${server.url}/api/v4/personal_access_tokens/self`,
    )
    await server.stop()
  })

  it('serve --help describes the token APIs, the control API and the dashboard of today', async () => {
    const run = runCli(['serve', '--help'])
    expect((await run.exited()).code).toBe(0)
    const help = run.lines.join('\n')
    for (const part of ['project and group access', 'service accounts', 'dashboard', 'group demo'])
      expect(help).toContain(part)
    expect(help).not.toContain("Serves GitLab's personal access token API")
  })

  it('--database without a control token: the reason and the fix on one line, no usage', async () => {
    const run = runCli(['serve', '--database', `sqlite:${join(dir, 'no-token.db')}`])
    expect((await run.exited()).code).toBe(2)
    const stderr = run.stderr().trim().split('\n')
    expect(stderr).toHaveLength(1)
    expect(stderr[0]).toContain('needs a control token when a --database holds data of its own')
    expect(stderr[0]).toContain('PATKIT_CONTROL_TOKEN=$(openssl rand -hex 16)')
    expect(run.stderr()).not.toContain('Usage: patkit serve')
  })
})
