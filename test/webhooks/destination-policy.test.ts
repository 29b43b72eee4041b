import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkDestination, type HostResolver } from '../../src/webhooks/destination-policy.js'

const resolver =
  (table: Record<string, string[]>): HostResolver =>
  async (host) =>
    (table[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const)

const names = resolver({
  localhost: ['127.0.0.1', '::1'],
  'intranet.test': ['10.1.2.3'],
  'meta.test': ['169.254.169.254'],
  'mapped.test': ['::ffff:127.0.0.1'],
  'public.test': ['93.184.216.34'],
  'split.test': ['127.0.0.1', '10.0.0.5'],
})

const byte = fc.integer({ min: 0, max: 255 })
const loopbackV4 = fc.tuple(byte, byte, byte).map(([b, c, d]) => `127.${b}.${c}.${d}`)

describe('checkDestination', () => {
  it.each([
    'http://127.0.0.1:9000/hook',
    'http://127.8.9.10/hook',
    'http://[::1]:9000/hook',
    'http://localhost:9000/hook',
    'http://mapped.test/hook',
    'http://[::ffff:127.0.0.1]/hook',
  ])('allows loopback by default: %s', async (url) => {
    const checked = await checkDestination(url, {}, names)
    expect(checked.isOk()).toBe(true)
  })

  it.each([
    ['http://intranet.test/h', '10.1.2.3', 'the local network'],
    ['http://meta.test/h', '169.254.169.254', 'a link-local address'],
    ['http://public.test/h', '93.184.216.34', 'public addresses'],
    ['http://192.168.1.1/h', '192.168.1.1', 'the local network'],
    ['http://[::ffff:10.0.0.1]/h', '10.0.0.1', 'the local network'],
  ])('refuses %s by default, naming the address and the option', async (url, address, what) => {
    const checked = await checkDestination(url, {}, names)
    expect(checked._unsafeUnwrapErr().message).toContain(`Requests to ${what} are not allowed`)
    expect(checked._unsafeUnwrapErr().message).toContain(address)
    expect(checked._unsafeUnwrapErr().message).toContain('allowNetwork')
  })

  it('refuses when ANY resolved address is refused', async () => {
    const checked = await checkDestination('http://split.test/h', {}, names)
    expect(checked._unsafeUnwrapErr().message).toContain('10.0.0.5')
  })

  it('allows a listed host and every host with allowNetwork, connecting to the resolved address', async () => {
    const listed = await checkDestination('http://Intranet.test/h', { allowHosts: ['intranet.test'] }, names)
    expect(listed._unsafeUnwrap().address).toBe('10.1.2.3')
    expect(
      (await checkDestination('http://meta.test/h', { allowHosts: ['intranet.test'] }, names)).isErr(),
    ).toBe(true)
    const open = await checkDestination('http://public.test/h', { allowNetwork: true }, names)
    expect(open._unsafeUnwrap().address).toBe('93.184.216.34')
  })

  it('refuses unresolvable hosts, other schemes and malformed URLs', async () => {
    expect((await checkDestination('http://nowhere.test/h', { allowNetwork: true }, names)).isErr()).toBe(
      true,
    )
    expect((await checkDestination('ftp://127.0.0.1/h', {}, names)).isErr()).toBe(true)
    expect((await checkDestination('not a url', {}, names)).isErr()).toBe(true)
  })

  it('by default an IPv4 literal is allowed exactly when it is in 127.0.0.0/8, plain or IPv4-mapped', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.ipV4(), loopbackV4), fc.boolean(), async (ip, mapped) => {
        const host = mapped ? `[::ffff:${ip}]` : ip
        const checked = await checkDestination(`http://${host}/h`, {}, names)
        expect(checked.isOk()).toBe(ip.startsWith('127.'))
      }),
    )
  })
})
