import { describe, expect, it } from 'vitest'
import { parseServeArgs } from '../../src/cli/serve-options.js'

describe('webhook destinations', () => {
  it('allows loopback only by default', () => {
    const options = parseServeArgs([], {})._unsafeUnwrap()
    expect(options.webhookNetwork).toBe(false)
    expect(options.webhookHosts).toEqual([])
  })

  it('takes --allow-webhook-network and repeated --allow-webhook-host', () => {
    const options = parseServeArgs(
      [
        '--allow-webhook-network',
        '--allow-webhook-host',
        'hooks.internal',
        '--allow-webhook-host',
        '[fd00::1]',
      ],
      {},
    )._unsafeUnwrap()
    expect(options.webhookNetwork).toBe(true)
    expect(options.webhookHosts).toEqual(['hooks.internal', 'fd00::1'])
  })

  it('refuses a host with a port or a path', () => {
    expect(parseServeArgs(['--allow-webhook-host', 'hooks.internal/x'], {})._unsafeUnwrapErr()).toBe(
      '--allow-webhook-host must be a host name or IP address without a port, got "hooks.internal/x"',
    )
  })
})
