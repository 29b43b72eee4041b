#!/usr/bin/env node
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { maskSecrets } from './mask-secrets.js'
import { type CliOutput, serve } from './serve.js'
import { CONTROL_TOKEN_NEEDED, parseServeArgs } from './serve-options.js'
import { SERVE_USAGE, USAGE } from './usage.js'

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
  return pkg.version
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'v' } },
  })
}

const io: CliOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  // Driver messages and URLs can carry the database password: stderr never shows it.
  err: (line) => process.stderr.write(`${maskSecrets(line)}\n`),
}

/**
 * Runs the CLI with `argv` (without node and script); resolves with the exit code. `patkit serve`
 * resolves only after it has shut down.
 */
export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv
  if (command === 'serve') {
    const options = parseServeArgs(rest, process.env)
    if (options.isErr()) {
      // A missing control token is no mistake in the flags: its reason and fix alone, not the usage.
      const usage = options.error.startsWith(CONTROL_TOKEN_NEEDED) ? '' : `\n${SERVE_USAGE}`
      process.stderr.write(`${maskSecrets(`patkit serve: ${options.error}`)}\n${usage}`)
      return 2
    }
    if (options.value.help) {
      process.stdout.write(SERVE_USAGE)
      return 0
    }
    return serve(options.value, io)
  }
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(argv)
  } catch (error) {
    process.stderr.write(`patkit: ${(error as Error).message}\n\n${USAGE}`)
    return 2
  }
  const [first] = parsed.positionals
  if (parsed.values.version === true || first === 'version') {
    process.stdout.write(`${version()}\n`)
    return 0
  }
  if (parsed.values.help === true || first === 'help' || first === undefined) {
    process.stdout.write(USAGE)
    return 0
  }
  process.stderr.write(`patkit: unknown command "${first}"\n\n${USAGE}`)
  return 2
}

process.exitCode = await main(process.argv.slice(2))
