import { describe, expect, expectTypeOf, it } from 'vitest'
import { cachedStore } from '../../src/cache/index.js'
import { swappableStore } from '../../src/fake/swappable-store.js'
import { memoryStore } from '../../src/memory/index.js'
import type { TokenStore } from '../../src/store/index.js'
import {
  CAPABILITY_METHODS,
  hasCapability,
  type OptionalCapability,
} from '../../src/testing/conformance/context.js'

/** The optional methods of the store port, read off the interface itself. */
type OptionalMethod = {
  [K in keyof TokenStore]-?: object extends Pick<TokenStore, K> ? K : never
}[keyof TokenStore]
type ListedMethod = (typeof CAPABILITY_METHODS)[OptionalCapability][number]

const CAPABILITIES = Object.keys(CAPABILITY_METHODS) as OptionalCapability[]

// A wrapper that forwards the port by hand (the fake's swappable store, the cache) silently loses an
// optional method it was not taught: the authority then takes its slower path, or refuses a feature.
// The conformance suite lists every optional method by capability, checked here against the port, and
// every wrapper must offer each capability of the memory store it wraps.
describe('optional store methods', () => {
  it('every optional method of TokenStore belongs to a conformance capability', () => {
    expectTypeOf<Exclude<OptionalMethod, ListedMethod>>().toEqualTypeOf<never>()
    expectTypeOf<Exclude<ListedMethod, OptionalMethod>>().toEqualTypeOf<never>()
  })

  it('the memory store implements every capability', () => {
    const store = memoryStore()
    expect(CAPABILITIES.filter((capability) => !hasCapability(store, capability))).toEqual([])
  })

  it.each([
    ['cachedStore', () => cachedStore(memoryStore())],
    ['swappableStore', () => swappableStore(memoryStore())],
  ])('%s over the memory store offers every capability', (_, wrap) => {
    const store = wrap()
    expect(CAPABILITIES.filter((capability) => !hasCapability(store, capability))).toEqual([])
  })

  it.each([
    ['cachedStore', (inner: TokenStore) => cachedStore(inner)],
    ['swappableStore', (inner: TokenStore) => swappableStore(inner)],
  ])('%s forwards resources.hooks and resources.audit to the store it wraps', async (_, wrap) => {
    const inner = memoryStore()
    const outer = wrap(inner)
    const hook = await outer.resources?.hooks.insertHook({
      resource: { type: 'project', id: 7 },
      url: 'http://127.0.0.1:9000/hook',
      name: null,
      description: null,
      sealedToken: null,
      events: { resource_access_token_events: true },
      enableSslVerification: true,
      createdAt: new Date('2026-01-01T00:00:00.000Z'),
    })
    const id = hook?._unsafeUnwrap().id ?? -1
    expect((await inner.resources?.hooks.findHook(id))?._unsafeUnwrap()?.url).toBe(
      'http://127.0.0.1:9000/hook',
    )
    const event = await outer.resources?.audit.appendAuditEvent({
      authorId: 1,
      entityType: 'User',
      entityId: 1,
      eventName: 'personal_access_token_revoked',
      details: {},
      createdAt: new Date('2026-01-01T00:00:00.000Z'),
    })
    const eventId = event?._unsafeUnwrap().id ?? -1
    expect((await inner.resources?.audit.findAuditEvent(eventId))?._unsafeUnwrap()?.eventName).toBe(
      'personal_access_token_revoked',
    )
  })
})
