import { describe, expect, it } from 'vitest'
import { tokensToRevokeOnReuse } from '../../src/domain/reuse-detection.js'
import { token } from '../support/domain-fixtures.js'

const now = new Date('2026-06-01T00:00:00.000Z')

describe('reuse detection', () => {
  it('presenting a revoked token revokes exactly the active tokens of later generations', () => {
    const t1 = token({ id: 1, familyId: 1, revoked: true })
    const t2 = token({ id: 2, familyId: 1, previousId: 1, revoked: true })
    const t3 = token({ id: 3, familyId: 1, previousId: 2, revoked: false })
    expect(tokensToRevokeOnReuse(t2, [t1, t2, t3], now)._unsafeUnwrap()).toEqual([t3])
    expect(tokensToRevokeOnReuse(t1, [t1, t2, t3], now)._unsafeUnwrap()).toEqual([t3])
  })

  it('earlier generations are never touched', () => {
    const t1 = token({ id: 1, familyId: 1, revoked: false, expiresAt: null })
    const t2 = token({ id: 2, familyId: 1, previousId: 1, revoked: true })
    expect(tokensToRevokeOnReuse(t2, [t1, t2], now)._unsafeUnwrap()).toEqual([])
  })

  it('expired descendants stay as they are', () => {
    const t1 = token({ id: 1, revoked: true })
    const t2 = token({ id: 2, previousId: 1, expiresAt: '2026-06-01' })
    expect(tokensToRevokeOnReuse(t1, [t1, t2], now)._unsafeUnwrap()).toEqual([])
  })

  it('a presented token that is not revoked triggers nothing', () => {
    const t1 = token({ id: 1, revoked: false })
    const t2 = token({ id: 2, previousId: 1 })
    expect(tokensToRevokeOnReuse(t1, [t1, t2], now)._unsafeUnwrap()).toEqual([])
  })

  it('tokens of other families are ignored even when given', () => {
    const t1 = token({ id: 1, revoked: true })
    const other = token({ id: 7, familyId: 7 })
    expect(tokensToRevokeOnReuse(t1, [t1, other], now)._unsafeUnwrap()).toEqual([])
  })
})
