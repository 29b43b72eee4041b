#!/usr/bin/env node
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'

const USAGE = `Usage: patkit <command> [options]

Commands:
  help       Show this help
  version    Print the patkit version

Options:
  -h, --help     Show this help
  -v, --version  Print the patkit version
`

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

/** Runs the CLI with `argv` (without node and script); returns the exit code. */
export function main(argv: readonly string[]): number {
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(argv)
  } catch (error) {
    process.stderr.write(`patkit: ${(error as Error).message}\n\n${USAGE}`)
    return 2
  }
  const [command] = parsed.positionals
  if (parsed.values.version === true || command === 'version') {
    process.stdout.write(`${version()}\n`)
    return 0
  }
  if (parsed.values.help === true || command === 'help' || command === undefined) {
    process.stdout.write(USAGE)
    return 0
  }
  process.stderr.write(`patkit: unknown command "${command}"\n\n${USAGE}`)
  return 2
}

process.exitCode = main(process.argv.slice(2))
