import { describe, expect, it } from 'vitest'
import {
  keepNewestIps,
  LAST_USED_IP_WINDOW_MS,
  lastUsedCutoff,
  MAX_LAST_USED_IPS,
  nextLastUsed,
  usedToken,
} from '../../src/domain/last-used.js'
import type { Token } from '../../src/domain/token.js'

const AT = new Date('2026-05-01T12:00:00.000Z')
const THROTTLE = 600_000
const plus = (ms: number) => new Date(AT.getTime() + ms)

const TOKEN: Token = {
  id: 1,
  userId: 2,
  name: 'ci',
  description: null,
  scopes: ['api'],
  createdAt: new Date('2026-01-01T00:00:00.000Z'),
  lastUsedAt: null,
  expiresAt: null,
  revoked: false,
  impersonation: false,
  previousId: null,
  familyId: 1,
  digest: 'd',
}

describe("GitLab's LastUsedService, one definition", () => {
  it('the cutoff is the latest stored use a new use still moves; an invalid instant has none', () => {
    expect(lastUsedCutoff(AT, THROTTLE)).toEqual(plus(-THROTTLE))
    expect(lastUsedCutoff(new Date(Number.NaN), THROTTLE)).toBeNull()
    // nextLastUsed's boundary is the cutoff's: a use exactly throttleMs later writes, a millisecond less does not.
    const used = { lastUsedAt: plus(-THROTTLE), lastUsedIps: [] }
    expect(nextLastUsed(used, AT, THROTTLE, null)).toEqual({ lastUsedAt: AT, lastUsedIps: [] })
    expect(nextLastUsed({ ...used, lastUsedAt: plus(-THROTTLE + 1) }, AT, THROTTLE, null)).toBeNull()
  })

  it('keeps the newest five ips, oldest first', () => {
    expect(MAX_LAST_USED_IPS).toBe(5)
    expect(keepNewestIps(['a', 'b', 'c', 'd', 'e', 'f', 'g'])).toEqual(['c', 'd', 'e', 'f', 'g'])
    expect(keepNewestIps(['a'])).toEqual(['a'])
  })

  it('a new ip a minute after the last use is recorded without moving lastUsedAt', () => {
    const used = { lastUsedAt: plus(-LAST_USED_IP_WINDOW_MS), lastUsedIps: ['10.0.0.1'] }
    expect(nextLastUsed(used, AT, THROTTLE, '10.0.0.2')).toEqual({
      lastUsedAt: used.lastUsedAt,
      lastUsedIps: ['10.0.0.1', '10.0.0.2'],
    })
    expect(
      nextLastUsed({ ...used, lastUsedAt: plus(-LAST_USED_IP_WINDOW_MS + 1) }, AT, THROTTLE, '10.0.0.2'),
    ).toBeNull()
  })

  it('usedToken: the token as the store leaves it, lastUsedIps absent (never []) without an address', () => {
    const used = usedToken(TOKEN, AT, THROTTLE, null)
    expect(used).toEqual({ ...TOKEN, lastUsedAt: AT })
    expect(used !== null && 'lastUsedIps' in used).toBe(false)
    expect(usedToken(TOKEN, AT, THROTTLE, '10.0.0.1')).toEqual({
      ...TOKEN,
      lastUsedAt: AT,
      lastUsedIps: ['10.0.0.1'],
    })
    expect(usedToken({ ...TOKEN, lastUsedAt: AT }, plus(1), THROTTLE, null)).toBeNull()
  })
})
