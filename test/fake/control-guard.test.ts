import { describe, expect, it } from 'vitest'
import { hostNameOf, isLoopbackHost, isWildcardHost } from '../../src/fake/control/control-guard.js'

// The host names the control API's guard and `patkit serve`'s start-up check compare.

describe('host names', () => {
  it.each([
    ['localhost:3000', 'localhost'],
    ['LocalHost.', 'localhost'],
    ['127.1', '127.0.0.1'],
    ['[::1]:8080', '[::1]'],
    ['::1', '[::1]'],
    ['0.0.0.0', '0.0.0.0'],
    ['::', '[::]'],
    ['Example.COM:443', 'example.com'],
  ])('%s is %s', (value, name) => {
    expect(hostNameOf(value)).toBe(name)
  })

  it.each(['', 'a b', 'user@host', 'host/path', 'host?q', '[::1'])('%j is no host', (value) => {
    expect(hostNameOf(value)).toBeNull()
  })

  it('loopback listen addresses: 127.0.0.0/8, ::1, localhost, IPv4-mapped 127.x; nothing else', () => {
    for (const host of ['127.0.0.1', '127.255.0.9', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1'])
      expect(isLoopbackHost(host), host).toBe(true)
    for (const host of [
      '0.0.0.0',
      '::',
      '192.0.2.1',
      '127.0.0.1.example',
      'localhost.example',
      '::ffff:10.0.0.1',
    ])
      expect(isLoopbackHost(host), host).toBe(false)
  })

  it('wildcard listen addresses are 0.0.0.0 and ::', () => {
    expect(['0.0.0.0', '::', '[::]', '127.0.0.1', 'localhost'].map(isWildcardHost)).toEqual([
      true,
      true,
      true,
      false,
      false,
    ])
  })
})
