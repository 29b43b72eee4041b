import { describe, expect, it } from 'vitest'
import { parseServeArgs } from '../../src/cli/serve-options.js'

// The flags of `patkit serve` that shape the control API: --clock reads instants as the seed and
// POST /__patkit/clock/set do; --control-body-limit sizes the bulk routes' bodies.

describe('--clock', () => {
  it.each([
    '2026-02-30T00:00:00Z',
    '2026-02-29T00:00:00Z',
    '2026-06-31T00:00:00+02:00',
    '2026-01-01T24:00:00Z',
  ])('refuses %s, which names no instant, instead of rolling it over', (value) => {
    expect(parseServeArgs(['--clock', value], {})._unsafeUnwrapErr()).toBe(
      `--clock must be an ISO 8601 instant with Z or an offset, on a real calendar day, e.g. 2026-01-01T00:00:00Z, got ${JSON.stringify(value)}`,
    )
  })

  it('takes a leap day', () => {
    expect(parseServeArgs(['--clock', '2028-02-29T12:00:00Z'], {})._unsafeUnwrap().clock?.toISOString()).toBe(
      '2028-02-29T12:00:00.000Z',
    )
  })
})

describe('--control-body-limit', () => {
  it.each([
    ['65536', 65_536],
    ['64KiB', 65_536],
    ['64MiB', 67_108_864],
    ['1024MiB', 1_073_741_824],
  ])('%s is %i bytes', (value, bytes) => {
    expect(parseServeArgs(['--control-body-limit', value], {})._unsafeUnwrap().controlBodyLimit).toBe(bytes)
  })

  it('is absent by default (16 MiB)', () => {
    expect(parseServeArgs([], {})._unsafeUnwrap().controlBodyLimit).toBeUndefined()
  })

  it.each(['65535', '63KiB', '1025MiB', '16M', '16 MiB', '0', 'lots', ''])('refuses %j', (value) => {
    expect(parseServeArgs(['--control-body-limit', value], {})._unsafeUnwrapErr()).toBe(
      `--control-body-limit must be a size from 64KiB to 1024MiB, in bytes or with KiB or MiB (e.g. 67108864 or 64MiB), got ${JSON.stringify(value)}`,
    )
  })

  it('excludes --no-control', () => {
    expect(parseServeArgs(['--no-control', '--control-body-limit', '64MiB'], {})._unsafeUnwrapErr()).toBe(
      '--no-control and --control-body-limit exclude each other',
    )
  })
})

// Issue 28, item 4: a one-character control token, or PATKIT_CONTROL_TOKEN=" ", was accepted, even
// with --host 0.0.0.0. A control token is at least 16 characters and not only whitespace, from any
// source; the message names where it came from and the fix.
describe('the control token', () => {
  const LONG_ENOUGH = '0123456789abcdef'
  const files = (content: string) => () => content

  it.each([
    [['--host', '0.0.0.0', '--control-token', 'a'], {}, '--control-token is 1 character long'],
    [['--control-token', 'fifteen-chars!!'], {}, '--control-token is 15 characters long'],
    [['--host', '0.0.0.0'], { PATKIT_CONTROL_TOKEN: 'short' }, 'PATKIT_CONTROL_TOKEN is 5 characters long'],
    [['--control-token-file', 'token.txt'], {}, '--control-token-file "token.txt" is 3 characters long'],
  ])('refuses %j %j: %s', (args, env, start) => {
    const message = parseServeArgs(args, env, files('abc\n'))._unsafeUnwrapErr()
    expect(message.startsWith(start)).toBe(true)
    expect(message).toContain(
      'a control token must be at least 16 characters: make one with `openssl rand -hex 16`',
    )
  })

  it.each([' ', '   ', '\t', ' '.repeat(20)])('refuses PATKIT_CONTROL_TOKEN=%j, only whitespace', (value) => {
    expect(parseServeArgs(['--host', '0.0.0.0'], { PATKIT_CONTROL_TOKEN: value })._unsafeUnwrapErr()).toBe(
      'PATKIT_CONTROL_TOKEN is only whitespace: set it to a control token of at least 16 characters (`openssl rand -hex 16`), or unset it',
    )
  })

  it('refuses a --control-token-file of whitespace, as an empty one', () => {
    expect(parseServeArgs(['--control-token-file', 't'], {}, files('   \n'))._unsafeUnwrapErr()).toBe(
      '--control-token-file "t" is empty',
    )
  })

  it.each([
    [['--host', '0.0.0.0', '--control-token', LONG_ENOUGH], {}],
    [['--host', '0.0.0.0'], { PATKIT_CONTROL_TOKEN: LONG_ENOUGH }],
    [['--host', '0.0.0.0', '--control-token-file', 'token.txt'], {}],
  ])('takes 16 characters: %j %j', (args, env) => {
    expect(parseServeArgs(args, env, files(`${LONG_ENOUGH}\n`))._unsafeUnwrap().controlToken).toBe(
      LONG_ENOUGH,
    )
  })

  it('ignores a short PATKIT_CONTROL_TOKEN with --no-control, as it ignores any', () => {
    expect(parseServeArgs(['--no-control'], { PATKIT_CONTROL_TOKEN: 'x' })._unsafeUnwrap().controlToken).toBe(
      undefined,
    )
  })
})
