import { describe, expect, it } from 'vitest'
import { parseServeArgs } from '../../src/cli/serve-options.js'

// --hook-secret-key (or PATKIT_HOOK_SECRET_KEY): the key webhook tokens are sealed under.

const HEX = '0a'.repeat(32)
const KEY = new Uint8Array(32).fill(10)

describe('patkit serve --hook-secret-key', () => {
  it('takes 64 hex digits or base64 of 32 bytes; the flag wins over the variable', () => {
    expect(parseServeArgs(['--hook-secret-key', HEX], {})._unsafeUnwrap().hookSecretKey).toEqual(KEY)
    const base64 = Buffer.from(KEY).toString('base64')
    expect(parseServeArgs([], { PATKIT_HOOK_SECRET_KEY: base64 })._unsafeUnwrap().hookSecretKey).toEqual(KEY)
    const both = parseServeArgs(['--hook-secret-key', HEX], { PATKIT_HOOK_SECRET_KEY: 'ff'.repeat(32) })
    expect(both._unsafeUnwrap().hookSecretKey).toEqual(KEY)
  })

  it('has none by default (the fake draws one per start) or with an empty variable', () => {
    expect(parseServeArgs([], {})._unsafeUnwrap()).not.toHaveProperty('hookSecretKey')
    expect(parseServeArgs([], { PATKIT_HOOK_SECRET_KEY: '' })._unsafeUnwrap()).not.toHaveProperty(
      'hookSecretKey',
    )
  })

  it('refuses a key of another length, naming where it came from', () => {
    expect(parseServeArgs(['--hook-secret-key', 'abcd'], {})._unsafeUnwrapErr()).toMatch(
      /^--hook-secret-key must be 32 bytes as 64 hex digits or base64/,
    )
    expect(parseServeArgs([], { PATKIT_HOOK_SECRET_KEY: '0a'.repeat(16) })._unsafeUnwrapErr()).toMatch(
      /^PATKIT_HOOK_SECRET_KEY must be 32 bytes/,
    )
  })
})
