import { describe, expect, it } from 'vitest'
import { requestUrl } from '../../src/http/request-target.js'

// requestUrl remembers the URLs of frequent targets: a remembered URL must be the one its host and
// target give, whatever was asked before, and the memory bounded whatever the variety.

const href = (method: string, target: string, host: string | undefined) =>
  requestUrl(method, target, host).map((url) => url.href)

describe('requestUrl: remembered URLs', () => {
  it('the same target under another host is that host’s URL', () => {
    const target = '/api/v4/personal_access_tokens/self?x=1'
    for (let i = 0; i < 3; i++) {
      expect(href('GET', target, 'a.test')._unsafeUnwrap()).toBe(`http://a.test${target}`)
      expect(href('GET', target, 'b.test:8080')._unsafeUnwrap()).toBe(`http://b.test:8080${target}`)
      expect(href('GET', target, undefined)._unsafeUnwrap()).toBe(`http://localhost${target}`)
    }
  })

  it('a refused host or method is refused even for a target remembered before', () => {
    const target = '/api/v4/version'
    expect(href('GET', target, 'a.test').isOk()).toBe(true)
    expect(href('GET', target, 'a b').isErr()).toBe(true)
    expect(href('TRACE', target, 'a.test').isErr()).toBe(true)
  })

  it('many targets and hosts: each still parsed as given', () => {
    for (let i = 0; i < 3000; i++) {
      const target = `/api/v4/users/${i}`
      expect(href('GET', target, `h${i % 7}.test`)._unsafeUnwrap()).toBe(`http://h${i % 7}.test${target}`)
    }
  })
})
