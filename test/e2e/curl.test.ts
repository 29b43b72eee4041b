import { execFile, spawnSync } from 'node:child_process'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { README_COMMANDS, README_ORIGIN, README_SEED } from './readme-commands.js'
import { type Served, serve, stopAll } from './support/serve.js'

// The README's curl session, run verbatim (with the served port) against `patkit serve`, in order.

const run = promisify(execFile)
const curl = spawnSync('curl', ['--version'], { encoding: 'utf8', timeout: 10_000 })
const missing =
  curl.status === 0 ? undefined : `curl is not installed (${curl.error?.message ?? curl.stderr})`
const required = process.env['PATKIT_REQUIRE_E2E'] === '1'
const README_HOST_PORT = new URL(README_ORIGIN).host

/** Replaces every varying value with a placeholder, and curl -i's CRLF with LF. */
function normalize(text: string, varying: readonly RegExp[]): string {
  return varying.reduce((out, pattern) => out.replace(pattern, '<varies>'), text.replace(/\r\n/g, '\n'))
}

afterAll(stopAll)

describe('README curl commands against patkit serve', () => {
  let server: Served | undefined
  beforeAll(async () => {
    if (missing === undefined) server = await serve(README_SEED)
  })
  afterAll(() => server?.close())

  // it.for, not it.each: it hands over the test context, for a skip with its reason.
  it.for(README_COMMANDS.map((entry) => [entry.title, entry] as const))('%s', async ([, entry], ctx) => {
    if (missing !== undefined) {
      if (required) throw new Error(`PATKIT_REQUIRE_E2E=1 but ${missing}`)
      console.warn(`skipped: ${missing}`)
      ctx.skip(missing)
      return
    }
    if (server === undefined) throw new Error('the server did not start')
    const hostPort = server.hostPort
    const command = entry.command.replaceAll(README_HOST_PORT, hostPort)
    expect(command, 'the command names the README origin').not.toBe(entry.command)
    const { stdout } = await run('sh', ['-c', command], { timeout: 15_000, encoding: 'utf8' })
    const varying = entry.varying ?? []
    expect(normalize(stdout, varying)).toBe(
      normalize(entry.output.replaceAll(README_HOST_PORT, hostPort), varying),
    )
  })
})
