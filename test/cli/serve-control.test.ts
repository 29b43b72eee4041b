import { afterEach, describe, expect, it } from 'vitest'
import { killAll, runCli, startServe } from './support/cli-process.js'

// The control plane through `patkit serve`, as a harness in any language starts it.

afterEach(killAll)

const secretsOf = (lines: readonly string[]) => lines.slice(1, 3).map((line) => line.replace(/^.*: /, ''))

describe('patkit serve: control flags', () => {
  it('--clock and --frozen start a clock that stands still; --random-seed repeats the demo secrets', async () => {
    const args = ['--clock', '2026-01-01T00:00:00Z', '--frozen', '--random-seed', '7']
    const first = await startServe(args, { extraLines: 3 })
    const clock = await fetch(`${first.url}/__patkit/clock`)
    expect(await clock.json()).toEqual({ now: '2026-01-01T00:00:00.000Z', frozen: true })
    const [rootSecret] = secretsOf(first.lines)
    const self = await fetch(`${first.apiUrl}/personal_access_tokens/self`, {
      headers: { 'PRIVATE-TOKEN': rootSecret ?? '' },
    })
    expect(await self.json()).toMatchObject({
      created_at: '2026-01-01T00:00:00.000Z',
      expires_at: '2027-01-01',
    })
    expect(await first.stop()).toEqual({ code: 0, signal: null })

    const second = await startServe(args, { extraLines: 3 })
    expect(secretsOf(second.lines)).toEqual(secretsOf(first.lines))
    const other = await startServe(['--random-seed', '8'], { extraLines: 3 })
    expect(secretsOf(other.lines)).not.toEqual(secretsOf(first.lines))
  })

  it('a running clock set over the control API goes on from there', async () => {
    const server = await startServe(['--clock', '2030-06-01T00:00:00+02:00'])
    const { now, frozen } = (await (await fetch(`${server.url}/__patkit/clock`)).json()) as {
      now: string
      frozen: boolean
    }
    expect(frozen).toBe(false)
    expect(now >= '2030-05-31T22:00:00.000Z' && now < '2030-05-31T22:10:00.000Z').toBe(true)
  })

  it('--control-token guards the control API only', async () => {
    const server = await startServe(['--control-token', 's3t'], { extraLines: 3 })
    expect((await fetch(`${server.url}/__patkit/clock`)).status).toBe(401)
    expect(
      (await fetch(`${server.url}/__patkit/clock`, { headers: { 'x-patkit-control-token': 's3t' } })).status,
    ).toBe(200)
    const [rootSecret] = secretsOf(server.lines)
    const self = await fetch(`${server.apiUrl}/personal_access_tokens/self`, {
      headers: { 'PRIVATE-TOKEN': rootSecret ?? '' },
    })
    expect(self.status).toBe(200)
  })

  it('with --random-seed, the secret a rotation mints after a reset is the one it minted after the start', async () => {
    const server = await startServe(['--random-seed', '11'], { extraLines: 3 })
    const [rootSecret] = secretsOf(server.lines)
    const rotate = async () => {
      const response = await fetch(`${server.apiUrl}/personal_access_tokens/self/rotate`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': rootSecret ?? '' },
      })
      const { id, token } = (await response.json()) as { id: number; token: string }
      return { id, token }
    }
    const first = await rotate()
    expect((await fetch(`${server.url}/__patkit/reset`, { method: 'POST' })).status).toBe(200)
    expect(await rotate()).toEqual(first)
  })

  it('reset brings the printed demo secrets back', async () => {
    const server = await startServe([], { extraLines: 3 })
    const [rootSecret] = secretsOf(server.lines)
    const rotate = await fetch(`${server.apiUrl}/personal_access_tokens/self/rotate`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': rootSecret ?? '' },
    })
    expect(rotate.status).toBe(200)
    expect((await fetch(`${server.url}/__patkit/reset`, { method: 'POST' })).status).toBe(200)
    const self = await fetch(`${server.apiUrl}/personal_access_tokens/self`, {
      headers: { 'PRIVATE-TOKEN': rootSecret ?? '' },
    })
    expect(await self.json()).toMatchObject({ id: 1, active: true })
  })

  it.each([
    [['--clock', '2026-01-01'], '--clock must be an ISO 8601 instant with Z or an offset'],
    [['--clock', '2026-01-01T00:00:00'], '--clock must be an ISO 8601 instant with Z or an offset'],
    [['--random-seed', 'x'], '--random-seed must be an integer from 0 to 4294967295'],
    [['--control-token', ' '], '--control-token must not be empty'],
  ])('rejects %j with exit code 2', async (args, message) => {
    const run = runCli(['serve', ...args])
    expect((await run.exited()).code).toBe(2)
    expect(run.stderr()).toContain(message)
  })
})
