import { afterEach, describe, expect, it } from 'vitest'
import { killAll, runCli, SERVE_TIMEOUT, startServe } from './support/cli-process.js'

// patkit serve's control API reads bodies up to a limit: 64 KiB, and --control-body-limit (16 MiB by
// default) for PUT /__patkit/state and POST /__patkit/users.

afterEach(killAll)

// A restore of about 100 KiB: more than the 64 KiB of the other routes.
const users = Array.from({ length: 3000 }, (_, i) => ({ id: i + 1, username: `user-${i}` }))
const restore = (url: string) =>
  fetch(`${url}/__patkit/state`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ users }),
  })

describe('patkit serve --control-body-limit', { timeout: SERVE_TIMEOUT }, () => {
  it('by default a restore larger than 64 KiB is taken', async () => {
    expect(JSON.stringify({ users }).length).toBeGreaterThan(64 * 1024)
    const server = await startServe([], { extraLines: 3 })
    const response = await restore(server.url)
    expect([response.status, await response.json()]).toEqual([
      200,
      { users: 3000, tokens: 0, groups: 0, projects: 0 },
    ])
    expect(await server.stop()).toEqual({ code: 0, signal: null })
  })

  it('--control-body-limit 64KiB refuses it with 413 naming the limit and the flag', async () => {
    const server = await startServe(['--control-body-limit', '64KiB'], { extraLines: 3 })
    const response = await restore(server.url)
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual({
      error:
        'the body is larger than 65536 bytes (64 KiB), the limit of PUT /__patkit/state (patkit serve --control-body-limit raises it)',
    })
    const state = (await (await fetch(`${server.url}/__patkit/state`)).json()) as { users: unknown[] }
    expect(state.users).toHaveLength(3) // the demo users and the demo bot, untouched
    expect(await server.stop()).toEqual({ code: 0, signal: null })
  })

  it('a bad value exits 2 naming the flag', async () => {
    const run = runCli(['serve', '--control-body-limit', '16M'])
    expect((await run.exited()).code).toBe(2)
    expect(run.stderr()).toContain('--control-body-limit must be a size from 64KiB to 1024MiB')
  })
})
