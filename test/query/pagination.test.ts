import { describe, expect, it } from 'vitest'
import { pageOffset, paginate } from '../../src/query/pagination.js'

describe('paginate', () => {
  it('an empty list still has one page, with neither next nor previous', () => {
    expect(paginate(0, { page: 1, perPage: 20 })).toEqual({
      total: 0,
      totalPages: 1,
      page: 1,
      perPage: 20,
      offset: 0,
      nextPage: null,
      prevPage: null,
    })
  })

  it('a middle page has both neighbours', () => {
    expect(paginate(45, { page: 2, perPage: 20 })).toEqual({
      total: 45,
      totalPages: 3,
      page: 2,
      perPage: 20,
      offset: 20,
      nextPage: 3,
      prevPage: 1,
    })
  })

  it('the first page has no previous page', () => {
    expect(paginate(45, { page: 1, perPage: 20 })).toMatchObject({ nextPage: 2, prevPage: null })
  })

  it('the last page has no next page', () => {
    expect(paginate(45, { page: 3, perPage: 20 })).toMatchObject({ offset: 40, nextPage: null, prevPage: 2 })
  })

  it('an exact multiple fills the last page without an extra empty one', () => {
    expect(paginate(40, { page: 2, perPage: 20 })).toMatchObject({
      totalPages: 2,
      nextPage: null,
      prevPage: 1,
    })
    expect(paginate(20, { page: 1, perPage: 20 })).toMatchObject({ totalPages: 1, nextPage: null })
  })

  it('one item more than a multiple opens a new page', () => {
    expect(paginate(41, { page: 1, perPage: 20 }).totalPages).toBe(3)
  })

  it('a page past the last is out of range: neither next nor previous', () => {
    expect(paginate(45, { page: 4, perPage: 20 })).toEqual({
      total: 45,
      totalPages: 3,
      page: 4,
      perPage: 20,
      offset: 60,
      nextPage: null,
      prevPage: null,
    })
    expect(paginate(0, { page: 2, perPage: 20 })).toMatchObject({
      totalPages: 1,
      nextPage: null,
      prevPage: null,
    })
  })

  it('one item per page: every item is a page', () => {
    expect(paginate(3, { page: 2, perPage: 1 })).toMatchObject({
      totalPages: 3,
      offset: 1,
      nextPage: 3,
      prevPage: 1,
    })
  })
})

describe('pageOffset', () => {
  it('is (page - 1) * perPage', () => {
    expect(pageOffset({ page: 1, perPage: 100 })).toBe(0)
    expect(pageOffset({ page: 3, perPage: 20 })).toBe(40)
  })
})
