import { afterEach, describe, expect, it } from 'vitest'
import { killAll, SERVE_TIMEOUT, startServe } from '../cli/support/cli-process.js'

// Issue 20, item 1, as the issue met it: `patkit serve --clock ... --frozen` with the demo data (tokens
// without created_at or expires_at), the clock advanced 400 days, then a reset.

afterEach(killAll)

describe('patkit serve: a reset is the start data and the start clock again', {
  timeout: SERVE_TIMEOUT,
}, () => {
  it('400 days on, POST /__patkit/reset gives back the demo tokens as they started, and the clock', async () => {
    const server = await startServe(['--clock', '2026-01-01T00:00:00Z', '--frozen'], { extraLines: 6 })
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${server.url}/__patkit${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      return (await response.json()) as unknown
    }
    const before = (await call('GET', '/state')) as { tokens: { created_at: string; expires_at: string }[] }
    expect(before.tokens.map((t) => [t.created_at, t.expires_at])).toEqual([
      ['2026-01-01T00:00:00.000Z', '2027-01-01'],
      ['2026-01-01T00:00:00.000Z', '2027-01-01'],
      ['2026-01-01T00:00:00.000Z', '2027-01-01'], // the demo bot's
    ])
    await call('POST', '/clock/advance', { days: 400 })
    await call('POST', '/reset')
    expect(await call('GET', '/state')).toEqual(before)
    expect(await call('GET', '/clock')).toEqual({ now: '2026-01-01T00:00:00.000Z', frozen: true })
  })
})
