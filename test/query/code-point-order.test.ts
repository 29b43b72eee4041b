import { describe, expect, it } from 'vitest'
import { compareCodePoints } from '../../src/query/code-point-order.js'

const sign = (n: number) => Math.sign(n)
const utf8Order = (a: string, b: string) => sign(Buffer.compare(Buffer.from(a), Buffer.from(b)))

describe('compareCodePoints', () => {
  it('equal strings compare equal', () => {
    expect(compareCodePoints('ci', 'ci')).toBe(0)
    expect(compareCodePoints('', '')).toBe(0)
  })

  it('a prefix comes first', () => {
    expect(sign(compareCodePoints('ci', 'ci-2'))).toBe(-1)
    expect(sign(compareCodePoints('ci-2', 'ci'))).toBe(1)
  })

  it('upper case comes before lower case, as in byte order (no locale rules)', () => {
    expect(sign(compareCodePoints('Zed', 'alpha'))).toBe(-1)
    expect(sign(compareCodePoints('é', 'z'))).toBe(1)
  })

  it('an astral character sorts after U+E000..U+FFFF, unlike UTF-16 comparison', () => {
    expect('😀' < '\uFFFD').toBe(true)
    expect(sign(compareCodePoints('😀', '\uFFFD'))).toBe(1)
    expect(sign(compareCodePoints('\uE000', '𐀀'))).toBe(-1)
  })

  it('two astral characters compare by code point', () => {
    expect(sign(compareCodePoints('😀', '😁'))).toBe(-1)
    expect(sign(compareCodePoints('𝔸', '😀'))).toBe(-1)
  })

  it('agrees with UTF-8 byte order on a mixed set of names', () => {
    const names = [
      '',
      'a',
      'A',
      'ab',
      'é',
      '\uD7FF',
      '\uE000',
      '\uFFFD',
      '\uFFFF',
      '😀',
      '𐀀',
      'a😀',
      'a\uFFFD',
      '_',
      '%',
    ]
    for (const a of names) {
      for (const b of names) {
        expect(sign(compareCodePoints(a, b)), `${a} vs ${b}`).toBe(utf8Order(a, b))
      }
    }
  })
})
