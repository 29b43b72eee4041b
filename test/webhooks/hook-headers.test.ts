import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../src/domain/random.js'
import { hookHeaders, redactHookHeaders, uuidFrom } from '../../src/webhooks/hook-headers.js'

// app/services/web_hook_service.rb#build_headers; the names from lib/gitlab/web_hooks.rb
// (X-Gitlab-Webhook-UUID, X-Gitlab-Event, X-Gitlab-Instance) and
// lib/gitlab/web_hooks/recursion_detection/uuid.rb (X-Gitlab-Event-UUID).

function counter(): () => string {
  let n = 0
  return () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`
}

describe('hookHeaders', () => {
  it('GitLab headers, fresh UUIDs from the injected source, no token header without a token', () => {
    const headers = hookHeaders({
      gitlabVersion: '18.11.0',
      instanceUrl: 'http://127.0.0.1:8080',
      uuid: counter(),
    })
    expect(headers).toEqual({
      'Content-Type': 'application/json',
      'User-Agent': 'GitLab/18.11.0',
      'Idempotency-Key': '00000000-0000-4000-8000-000000000001',
      'X-Gitlab-Event': 'Resource Access Token Hook',
      'X-Gitlab-Webhook-UUID': '00000000-0000-4000-8000-000000000002',
      'X-Gitlab-Instance': 'http://127.0.0.1:8080',
      'X-Gitlab-Event-UUID': '00000000-0000-4000-8000-000000000003',
    })
  })

  it('the token without line breaks, a given idempotency key and event UUID', () => {
    const headers = hookHeaders({
      gitlabVersion: '18.11.0',
      instanceUrl: 'http://127.0.0.1:8080',
      uuid: counter(),
      token: 'sec\r\nret',
      idempotencyKey: 'key-1',
      eventUuid: 'event-1',
    })
    expect(headers['X-Gitlab-Token']).toBe('secret')
    expect(headers['Idempotency-Key']).toBe('key-1')
    expect(headers['X-Gitlab-Event-UUID']).toBe('event-1')
    expect(headers['X-Gitlab-Webhook-UUID']).toBe('00000000-0000-4000-8000-000000000001')
  })

  it('redaction replaces X-Gitlab-Token in any case and keeps the rest', () => {
    expect(
      redactHookHeaders({ 'x-gitlab-token': 'a', 'X-Gitlab-Token': 'b', 'X-Gitlab-Event': 'e' }),
    ).toEqual({
      'x-gitlab-token': '[REDACTED]',
      'X-Gitlab-Token': '[REDACTED]',
      'X-Gitlab-Event': 'e',
    })
  })

  it('uuidFrom makes version-4 UUIDs from the injected random source, reproducibly', () => {
    const a = uuidFrom(seededRandom(7))
    const b = uuidFrom(seededRandom(7))
    const first = a()
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(b()).toBe(first)
    expect(a()).not.toBe(first)
  })
})
