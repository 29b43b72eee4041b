import { describe, expect, it } from 'vitest'
import { foldCase, matchesSearch, parseSearch } from '../../src/query/search.js'

const matches = (name: string, query: string) => matchesSearch(name, parseSearch(query))

describe('parseSearch', () => {
  it('an empty or blank query is no filter', () => {
    expect(parseSearch('')).toEqual({ kind: 'none' })
    expect(parseSearch(' \t\n ')).toEqual({ kind: 'none' })
  })

  it('splits on whitespace and keeps terms of at least 3 characters', () => {
    expect(parseSearch('deploy ci prod')).toEqual({ kind: 'terms', terms: ['deploy', 'prod'] })
  })

  it('squishes runs of any white space, Unicode spaces included', () => {
    expect(parseSearch('  deploy\t\n prod\u00a0\u2003east ')).toEqual({
      kind: 'terms',
      terms: ['deploy', 'prod', 'east'],
    })
  })

  it('no term of 3 characters: an exact match on the whole squished query', () => {
    expect(parseSearch('  ci   cd ')).toEqual({ kind: 'exact', value: 'ci cd' })
    expect(parseSearch('ab')).toEqual({ kind: 'exact', value: 'ab' })
  })

  it('a double-quoted phrase between spaces is one term, without its quotes, after the plain words', () => {
    expect(parseSearch('"prod east" deploy')).toEqual({ kind: 'terms', terms: ['deploy', 'prod east'] })
    expect(parseSearch('"a b" "c d"')).toEqual({ kind: 'terms', terms: ['a b', 'c d'] })
  })

  it('a quote not standing between spaces is an ordinary character', () => {
    expect(parseSearch('x"prod east"')).toEqual({ kind: 'terms', terms: ['x"prod', 'east"'] })
    expect(parseSearch('"prod east"x')).toEqual({ kind: 'terms', terms: ['"prod', 'east"x'] })
  })

  it('a short quoted phrase does not count; with nothing else left, the exact query (quotes included) is used', () => {
    expect(parseSearch('"ab"')).toEqual({ kind: 'exact', value: '"ab"' })
  })

  it('term length counts characters, not UTF-16 units', () => {
    expect(parseSearch('😀a')).toEqual({ kind: 'exact', value: '😀a' })
    expect(parseSearch('😀ab')).toEqual({ kind: 'terms', terms: ['😀ab'] })
  })
})

describe('matchesSearch', () => {
  it('every term must occur in the name (AND), anywhere and in any order', () => {
    expect(matches('deploy to prod', 'prod deploy')).toBe(true)
    expect(matches('deploy to staging', 'prod deploy')).toBe(false)
  })

  it('short terms are ignored when a long one exists', () => {
    expect(matches('deploy', 'deploy ci')).toBe(true)
  })

  it('is case-insensitive for terms and for the exact fallback', () => {
    expect(matches('Deploy-Token', 'deploy-TOKEN')).toBe(true)
    expect(matches('CI', 'ci')).toBe(true)
  })

  it('the exact fallback matches the whole name only', () => {
    expect(matches('ci', 'ci')).toBe(true)
    expect(matches('ci-token', 'ci')).toBe(false)
    expect(matches('a ci', 'ci')).toBe(false)
  })

  it('a quoted phrase must occur as a whole', () => {
    expect(matches('prod east deploy', '"prod east"')).toBe(true)
    expect(matches('east prod deploy', '"prod east"')).toBe(false)
    expect(matches('east prod deploy', 'prod east')).toBe(true)
  })

  it('% and _ are literal characters, not wildcards', () => {
    expect(matches('test_2', 'test_1')).toBe(false)
    expect(matches('test_1', 'test_1')).toBe(true)
    expect(matches('testX1', 'test_1')).toBe(false)
    expect(matches('anything', '%%%')).toBe(false)
    expect(matches('100%', '%')).toBe(false)
    expect(matches('100% done', '00%')).toBe(true)
    expect(matches('ab', '_b')).toBe(false)
  })

  it('a plan of kind none matches every name, even the empty one', () => {
    expect(matchesSearch('', { kind: 'none' })).toBe(true)
    expect(matches('whatever', '   ')).toBe(true)
  })

  it('the case fold is toLowerCase', () => {
    expect(foldCase('ÄBC-Token')).toBe('äbc-token')
    expect(matches('ÉTÉ deploy', 'été')).toBe(true)
  })
})
