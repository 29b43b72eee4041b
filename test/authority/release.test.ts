import { describe, expect, it } from 'vitest'
import { DEPRECATIONS, isRemoved, removedBy } from '../../src/authority/core/deprecations.js'
import {
  compareReleases,
  FEATURES,
  hasFeature,
  LATEST_RELEASE,
  parseRelease,
} from '../../src/authority/core/release.js'

describe('release emulation', () => {
  it('releases order numerically, so 16.9 comes before 16.10', () => {
    expect(compareReleases('16.9', '16.10')).toBeLessThan(0)
    expect(compareReleases('17.0', '16.11')).toBeGreaterThan(0)
    expect(compareReleases('15.5', '15.5')).toBe(0)
  })

  it('release strings are validated', () => {
    expect(parseRelease('16.10')._unsafeUnwrap()).toBe('16.10')
    expect(parseRelease('16').isErr()).toBe(true)
    expect(parseRelease('v16.1').isErr()).toBe(true)
  })

  it('the feature table holds every release the spec dates', () => {
    expect(Object.fromEntries(Object.entries(FEATURES).map(([k, v]) => [k, v.since]))).toEqual({
      delete_self: '15.0',
      delete_self_any_scope: '15.4',
      granular_enforcement: '18.10',
      granular_tokens: '19.2',
      granular_tokens_admin_create: '19.6',
      granular_scopes_json: '19.6',
      list_filters: '15.5',
      rotate_by_id: '16.0',
      reuse_detection: '16.3',
      rotate_expires_at: '16.6',
      routable_tokens: '18.3',
      token_expired_granular: '18.10',
      self_rotate: '16.10',
      metadata: '15.2',
      version_mirrors_metadata: '15.5',
      metadata_enterprise: '15.6',
      metadata_kas_k8s_proxy_url: '17.6',
      token_associations: '17.4',
      planner_role: '17.7',
      admin_token_info: '17.5',
      admin_token_revoke: '17.7',
      last_used_ips: '17.8',
      last_used_ips_self: '18.0',
      last_used_ips_list: '18.2',
      project_access_tokens: '13.9',
      group_access_tokens: '14.7',
      resource_token_get: '14.10',
      resource_token_rotate: '16.0',
      resource_token_self_rotate: '17.9',
      resource_token_retained: '17.9',
      service_accounts: '16.1',
      service_accounts_list: '17.1',
      group_service_accounts: '16.1',
      group_service_accounts_list: '17.1',
      group_service_account_tokens_list: '17.11',
      resource_access_token_events: '16.10',
    })
  })

  it('a feature is present from its release on, absent before', () => {
    for (const [feature, { since }] of Object.entries(FEATURES) as [
      keyof typeof FEATURES,
      { since: `${number}.${number}` },
    ][]) {
      const [major, minor] = since.split('.').map(Number) as [number, number]
      const before = minor === 0 ? (`${major - 1}.11` as const) : (`${major}.${minor - 1}` as const)
      expect(hasFeature(feature, since), feature).toBe(true)
      expect(hasFeature(feature, before), feature).toBe(false)
      expect(hasFeature(feature, LATEST_RELEASE), feature).toBe(true)
    }
  })
})

describe('deprecation schedule (spec 9)', () => {
  it('holds every row of the schedule with its removal release', () => {
    expect(DEPRECATIONS).toHaveLength(22)
    expect(new Set(DEPRECATIONS.map((d) => d.id)).size).toBe(DEPRECATIONS.length)
    const count = (release: string) => DEPRECATIONS.filter((d) => d.removedIn === release).length
    expect(count('16.0')).toBe(3)
    expect(count('16.7')).toBe(1)
    expect(count('17.0')).toBe(9)
    expect(count('18.0')).toBe(9)
  })

  it('an item is removed in its removal release and later, not before', () => {
    expect(isRemoved('user_email_lookup_limit', '16.6')).toBe(false)
    expect(isRemoved('user_email_lookup_limit', '16.7')).toBe(true)
    expect(isRemoved('runner_registration_tokens', '17.0')).toBe(false)
    expect(isRemoved('runner_registration_tokens', '18.0')).toBe(true)
    expect(isRemoved('jwks_alias', '18.6')).toBe(true)
  })

  it('removedBy lists what a release no longer has', () => {
    expect(removedBy('15.11')).toEqual([])
    expect(removedBy('16.0').map((d) => d.id)).toEqual([
      'deployments_updated_at_filter',
      'merge_request_approvals',
      'conan_project_search',
    ])
    expect(removedBy('18.0')).toHaveLength(DEPRECATIONS.length)
  })
})
