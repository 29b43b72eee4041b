import { describe, expect, it } from 'vitest'
import { LIST_PARAMETERS, parseListParams } from '../../src/query/params.js'

function parse(query: string) {
  return parseListParams(new URLSearchParams(query))
}

function filterOf(query: string) {
  return parse(query)._unsafeUnwrap().filter
}

function errorOf(query: string) {
  return parse(query)._unsafeUnwrapErr()
}

describe('parseListParams: defaults and keys', () => {
  it('no parameters: no filter, id_asc, page 1 of 20, no user reference', () => {
    const params = parse('')._unsafeUnwrap()
    expect(params).toEqual({ filter: {}, sort: 'id_asc', page: { page: 1, perPage: 20 } })
    expect('userRef' in params).toBe(false)
  })

  it('absent filters leave no property behind, not even an undefined one', () => {
    expect(Object.keys(filterOf('state=active'))).toEqual(['state'])
  })

  it('a repeated key: the last value wins', () => {
    expect(filterOf('state=bogus&state=inactive')).toEqual({ state: 'inactive' })
    expect(parse('per_page=0&per_page=5')._unsafeUnwrap().page.perPage).toBe(5)
  })

  it('unknown keys are ignored, private_token included', () => {
    expect(parse('private_token=glpat-x&foo=bar&order_by=name')._unsafeUnwrap()).toEqual({
      filter: {},
      sort: 'id_asc',
      page: { page: 1, perPage: 20 },
    })
  })

  it('lists the thirteen parameters in declaration order', () => {
    expect(LIST_PARAMETERS).toEqual([
      'created_after',
      'created_before',
      'last_used_after',
      'last_used_before',
      'expires_after',
      'expires_before',
      'revoked',
      'state',
      'search',
      'user_id',
      'sort',
      'page',
      'per_page',
    ])
  })

  it('several bad parameters: the first in LIST_PARAMETERS order is reported, whatever the URL order', () => {
    expect(errorOf('per_page=0&state=x&revoked=maybe')).toEqual({
      type: 'invalid_parameter',
      parameter: 'revoked',
      reason: 'invalid',
    })
    expect(errorOf('page=x&per_page=0')).toMatchObject({ parameter: 'page', reason: 'invalid' })
    expect(errorOf('expires_before=x&created_before=x')).toMatchObject({ parameter: 'created_before' })
  })
})

describe('parseListParams: created_* and last_used_* (datetimes)', () => {
  const cases: [string, string][] = [
    ['2022-01-01', '2022-01-01T00:00:00.000Z'],
    ['2022-01-01T10:00:00Z', '2022-01-01T10:00:00.000Z'],
    ['2022-01-01T10:00:00.123+02:00', '2022-01-01T08:00:00.123Z'],
    ['2022-01-01T10:00:00-0530', '2022-01-01T15:30:00.000Z'],
    ['2022-01-01T10:00:00+01', '2022-01-01T09:00:00.000Z'],
    ['2022-01-01T10:00:00', '2022-01-01T10:00:00.000Z'],
    ['2022-01-01 10:00:00', '2022-01-01T10:00:00.000Z'],
    ['2022-01-01T10:00', '2022-01-01T10:00:00.000Z'],
    ['2022-01-01T00:30:00+01:00', '2021-12-31T23:30:00.000Z'],
    ['2024-02-29T23:59:59.999Z', '2024-02-29T23:59:59.999Z'],
  ]

  for (const name of ['created_after', 'created_before', 'last_used_after', 'last_used_before']) {
    const key = name.replace(/_(\w)/g, (_, c: string) => c.toUpperCase())
    for (const [text, iso] of cases) {
      it(`${name}=${text} is the instant ${iso} (no zone means UTC, a date means midnight UTC)`, () => {
        expect(filterOf(`${name}=${encodeURIComponent(text)}`)).toEqual({ [key]: new Date(iso) })
      })
    }
  }

  const garbage = [
    'yesterday',
    '2022-13-01',
    '2022-02-30',
    '2022-1-1',
    '22-01-01',
    '2022-01-01T24:00:00Z',
    '2022-01-01T10:60:00Z',
    '2022-01-01T10:00:60Z',
    '2022-01-01T10:00:00+25:00',
    '2022-01-01T10',
    '2022-01-01Z',
    '2022-01-01T10:00:00 02:00',
    '1641031200',
  ]
  for (const text of garbage) {
    it(`created_after=${JSON.stringify(text)} is invalid`, () => {
      expect(errorOf(`created_after=${encodeURIComponent(text)}`)).toEqual({
        type: 'invalid_parameter',
        parameter: 'created_after',
        reason: 'invalid',
      })
    })
  }

  it('each datetime parameter reports its own name', () => {
    for (const name of ['created_before', 'last_used_after', 'last_used_before']) {
      expect(errorOf(`${name}=soon`)).toEqual({
        type: 'invalid_parameter',
        parameter: name,
        reason: 'invalid',
      })
    }
  })

  it('sub-millisecond digits round a lower bound up and an upper bound down, keeping >= and <= exact', () => {
    expect(filterOf('created_after=2022-01-01T10:00:00.1234Z')).toEqual({
      createdAfter: new Date('2022-01-01T10:00:00.124Z'),
    })
    expect(filterOf('last_used_after=2022-01-01T10:00:00.1230000Z')).toEqual({
      lastUsedAfter: new Date('2022-01-01T10:00:00.123Z'),
    })
    expect(filterOf('created_before=2022-01-01T10:00:00.1239Z')).toEqual({
      createdBefore: new Date('2022-01-01T10:00:00.123Z'),
    })
  })
})

describe('parseListParams: expires_* (dates)', () => {
  it('a YYYY-MM-DD value is that calendar day', () => {
    expect(filterOf('expires_after=2030-01-01&expires_before=2030-02-01')).toEqual({
      expiresAfter: '2030-01-01',
      expiresBefore: '2030-02-01',
    })
  })

  it('a datetime keeps its date as written; the time and zone are dropped', () => {
    expect(filterOf(`expires_before=${encodeURIComponent('2030-01-01T23:30:00-05:00')}`)).toEqual({
      expiresBefore: '2030-01-01',
    })
    expect(filterOf('expires_after=2030-01-01T00:00:00Z')).toEqual({ expiresAfter: '2030-01-01' })
  })

  it('a day that does not exist, or garbage, is invalid', () => {
    for (const text of ['2027-02-29', '2030-00-10', 'tomorrow', '2030/01/01']) {
      expect(errorOf(`expires_before=${text}`)).toEqual({
        type: 'invalid_parameter',
        parameter: 'expires_before',
        reason: 'invalid',
      })
      expect(errorOf(`expires_after=${text}`)).toMatchObject({
        parameter: 'expires_after',
        reason: 'invalid',
      })
    }
  })

  it('a leap day is a real day', () => {
    expect(filterOf('expires_after=2028-02-29')).toEqual({ expiresAfter: '2028-02-29' })
  })
})

describe('parseListParams: revoked (Grape Boolean)', () => {
  for (const text of ['1', 't', 'true', 'y', 'yes', 'on', 'TRUE', 'True', 'YES', 'On', 'T', 'Y']) {
    it(`revoked=${text} is true`, () => {
      expect(filterOf(`revoked=${text}`)).toEqual({ revoked: true })
    })
  }
  for (const text of ['0', 'f', 'false', 'n', 'no', 'off', 'FALSE', 'False', 'NO', 'Off', 'F', 'N']) {
    it(`revoked=${text} is false`, () => {
      expect(filterOf(`revoked=${text}`)).toEqual({ revoked: false })
    })
  }
  for (const text of ['maybe', '2', 'yess', ' true', 'enabled', 'disabled']) {
    it(`revoked=${JSON.stringify(text)} is invalid`, () => {
      expect(errorOf(`revoked=${encodeURIComponent(text)}`)).toEqual({
        type: 'invalid_parameter',
        parameter: 'revoked',
        reason: 'invalid',
      })
    })
  }
})

describe('parseListParams: state', () => {
  it('active and inactive are the allowed values', () => {
    expect(filterOf('state=active')).toEqual({ state: 'active' })
    expect(filterOf('state=inactive')).toEqual({ state: 'inactive' })
  })

  it('any other value, differently cased or blank, is not an allowed value', () => {
    for (const text of ['Active', 'revoked', 'expired', '', ' active']) {
      expect(errorOf(`state=${encodeURIComponent(text)}`)).toEqual({
        type: 'invalid_parameter',
        parameter: 'state',
        reason: 'not_allowed_value',
      })
    }
  })
})

describe('parseListParams: search', () => {
  it('a search string is kept as given', () => {
    expect(filterOf('search=deploy%20key')).toEqual({ search: 'deploy key' })
  })

  it('an empty or blank search is no filter at all', () => {
    expect(filterOf('search=')).toEqual({})
    expect(filterOf('search=%20%20%09')).toEqual({})
  })
})

describe('parseListParams: user_id', () => {
  it('is kept raw and trimmed as userRef: an id or a username, resolved by the authority', () => {
    expect(parse('user_id=%2042%20')._unsafeUnwrap().userRef).toBe('42')
    expect(parse('user_id=alice')._unsafeUnwrap().userRef).toBe('alice')
  })

  it('a present but blank user_id is the empty string, distinct from an absent one', () => {
    expect(parse('user_id=')._unsafeUnwrap().userRef).toBe('')
    expect(parse('user_id=%20')._unsafeUnwrap().userRef).toBe('')
    expect('userRef' in parse('')._unsafeUnwrap()).toBe(false)
  })

  it('user_id never lands in the filter', () => {
    expect(filterOf('user_id=2')).toEqual({})
  })
})

describe('parseListParams: sort', () => {
  it('a known key is used', () => {
    expect(parse('sort=created_date')._unsafeUnwrap().sort).toBe('created_date')
    expect(parse('sort=last_used_desc')._unsafeUnwrap().sort).toBe('last_used_desc')
  })

  it('an unknown, differently cased or empty key silently falls back to id_asc', () => {
    for (const text of ['updated_asc', 'NAME_ASC', 'name', '']) {
      expect(parse(`sort=${text}`)._unsafeUnwrap().sort).toBe('id_asc')
    }
  })
})

describe('parseListParams: page', () => {
  const pageOf = (query: string) => parse(query)._unsafeUnwrap().page.page

  it('an integer is the page; Ruby integer syntax allows a sign, zeros and blanks around', () => {
    expect(pageOf('page=3')).toBe(3)
    expect(pageOf('page=%2B3')).toBe(3)
    expect(pageOf('page=007')).toBe(7)
    expect(pageOf('page=%203%20')).toBe(3)
  })

  it('page <= 0 acts as page 1', () => {
    expect(pageOf('page=0')).toBe(1)
    expect(pageOf('page=-5')).toBe(1)
  })

  it('an empty page is the default page 1', () => {
    expect(pageOf('page=')).toBe(1)
  })

  it('non-integer text is invalid', () => {
    for (const text of ['abc', '1.5', '1e3', '0x10', '1_000']) {
      expect(errorOf(`page=${text}`)).toEqual({
        type: 'invalid_parameter',
        parameter: 'page',
        reason: 'invalid',
      })
    }
  })

  it('a page too large for an exact offset is invalid', () => {
    expect(pageOf('page=90071992547409')).toBe(90071992547409)
    expect(errorOf('page=90071992547410')).toMatchObject({ parameter: 'page', reason: 'invalid' })
  })
})

describe('parseListParams: per_page', () => {
  const perPageOf = (query: string) => parse(query)._unsafeUnwrap().page.perPage

  it('an integer from 1 to 100 is used as given', () => {
    expect(perPageOf('per_page=1')).toBe(1)
    expect(perPageOf('per_page=50')).toBe(50)
    expect(perPageOf('per_page=100')).toBe(100)
  })

  it('above 100 is capped at 100', () => {
    expect(perPageOf('per_page=101')).toBe(100)
    expect(perPageOf('per_page=99999999999999999999999')).toBe(100)
  })

  it('a negative value falls back to the default 20', () => {
    expect(perPageOf('per_page=-1')).toBe(20)
  })

  it('an empty value is the default 20', () => {
    expect(perPageOf('per_page=')).toBe(20)
  })

  it('exactly 0 is an excluded value', () => {
    for (const text of ['0', '00', '-0', '+0']) {
      expect(errorOf(`per_page=${encodeURIComponent(text)}`)).toEqual({
        type: 'invalid_parameter',
        parameter: 'per_page',
        reason: 'excluded_value',
      })
    }
  })

  it('non-integer text is invalid', () => {
    for (const text of ['abc', '2.5', 'ten']) {
      expect(errorOf(`per_page=${text}`)).toEqual({
        type: 'invalid_parameter',
        parameter: 'per_page',
        reason: 'invalid',
      })
    }
  })
})

describe('parseListParams: everything together', () => {
  it('parses a full query into the typed filter, user reference, order and page', () => {
    const query = [
      'created_after=2022-01-01',
      'created_before=2022-12-31T23:59:59Z',
      'last_used_after=2023-01-01T00:00:00Z',
      'last_used_before=2023-06-01',
      'expires_after=2024-01-01',
      'expires_before=2025-01-01',
      'revoked=false',
      'state=active',
      'search=deploy',
      'user_id=alice',
      'sort=name_desc',
      'page=2',
      'per_page=50',
    ].join('&')
    expect(parse(query)._unsafeUnwrap()).toEqual({
      filter: {
        createdAfter: new Date('2022-01-01T00:00:00.000Z'),
        createdBefore: new Date('2022-12-31T23:59:59.000Z'),
        lastUsedAfter: new Date('2023-01-01T00:00:00.000Z'),
        lastUsedBefore: new Date('2023-06-01T00:00:00.000Z'),
        expiresAfter: '2024-01-01',
        expiresBefore: '2025-01-01',
        revoked: false,
        state: 'active',
        search: 'deploy',
      },
      userRef: 'alice',
      sort: 'name_desc',
      page: { page: 2, perPage: 50 },
    })
  })
})

describe('Grape semantics of typed parameters', () => {
  it('an empty value of a typed parameter (`?created_after`, `created_after=`) is ignored, as Grape reads it as nil', () => {
    for (const name of [
      'created_after',
      'created_before',
      'last_used_after',
      'last_used_before',
      'expires_after',
      'expires_before',
      'revoked',
    ]) {
      for (const query of [name, `${name}=`]) {
        const parsed = parseListParams(new URLSearchParams(query))
        expect(parsed._unsafeUnwrap().filter, query).toEqual({})
      }
    }
  })

  it("Ruby's DateTime forms GitLab accepts: a colon after T, a zone after a space", () => {
    expect(filterOf('created_before=2022-01-01T:12:30:26')).toEqual({
      createdBefore: new Date('2022-01-01T12:30:26.000Z'),
    })
    expect(filterOf('created_before=2026-12-22%2023:20:00%20UTC')).toEqual({
      createdBefore: new Date('2026-12-22T23:20:00.000Z'),
    })
    expect(filterOf('created_before=2026-12-22%2023:20:00%20%2B0100')).toEqual({
      createdBefore: new Date('2026-12-22T22:20:00.000Z'),
    })
  })

  it('a Date parameter given a date-time takes its date as written', () => {
    expect(filterOf('expires_before=2026-12-22%2023:20:00%20UTC')).toEqual({ expiresBefore: '2026-12-22' })
    expect(filterOf('expires_after=2022-01-01T12:30:26-05:00')).toEqual({ expiresAfter: '2022-01-01' })
  })
})
