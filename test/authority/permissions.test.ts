import { describe, expect, expectTypeOf, it } from 'vitest'
import { authorize } from '../../src/authority/index.js'
import { AuthorityConfigError, createAuthority } from '../../src/index.js'
import { memoryStore } from '../../src/memory/index.js'
import { ALICE, T0 } from '../support/authority-fixtures.js'

// An embedder's permission vocabulary: declared at createAuthority, typed through issueToken,
// refused at issue time for a name outside it, and checked by `authorize` with GitLab's coverage rule.

const VOCABULARY = ['read_invoice', 'write_invoice', 'read_report'] as const

async function billing() {
  const authority = createAuthority({
    store: memoryStore(),
    pepper: 'test-pepper',
    clock: { now: () => T0 },
    permissions: VOCABULARY,
  })
  ;(await authority.users.put(ALICE))._unsafeUnwrap()
  return authority
}

describe('the permission vocabulary at createAuthority', () => {
  it.each([
    [[], /invalid option permissions: at least one permission/],
    [['read_invoice', 'read_invoice'], /invalid option permissions: "read_invoice" is declared twice/],
    [['read_invoice', ''], /invalid option permissions: "" is not a permission/],
    [['read invoice'], /invalid option permissions: "read invoice" is not a permission/],
    [['read"invoice'], /is not a permission: 1 to 100 letters, digits, _, -, \. or :/],
    [['x'.repeat(101)], /is not a permission/],
  ])('refuses %j with a clear AuthorityConfigError', (permissions, message) => {
    const build = () => createAuthority({ store: memoryStore(), pepper: 'p', permissions })
    expect(build).toThrow(AuthorityConfigError)
    expect(build).toThrow(message)
  })

  it('accepts names with letters, digits, _, -, . and :, and exposes them frozen', () => {
    const authority = createAuthority({
      store: memoryStore(),
      pepper: 'p',
      permissions: ['invoice:read', 'invoice.write', 'read-report_2'],
    })
    expect(authority.settings.permissions).toEqual(['invoice:read', 'invoice.write', 'read-report_2'])
    expect(Object.isFrozen(authority.settings.permissions)).toBe(true)
    expectTypeOf(authority.settings.permissions).toEqualTypeOf<
      readonly ('invoice:read' | 'invoice.write' | 'read-report_2')[]
    >()
  })

  it('is empty without the option', () => {
    expect(createAuthority({ store: memoryStore(), pepper: 'p' }).settings.permissions).toEqual([])
  })
})

describe('issueToken with permissions', () => {
  it('maps each boundary onto GitLab granular scopes, kept by the store and shown by authenticate and verify', async () => {
    const authority = await billing()
    const issued = (
      await authority.issueToken({
        userId: ALICE.id,
        name: 'billing',
        permissions: [
          { permissions: ['read_invoice', 'write_invoice'], boundary: { project: 42 } },
          { permissions: ['read_invoice'], boundary: { group: 3 } },
          { permissions: ['read_report'], boundary: 'all' },
          { permissions: ['read_report'], boundary: 'personal' },
          { permissions: ['read_invoice'], boundary: 'user' },
          { permissions: ['read_invoice'], boundary: 'instance' },
        ],
      })
    )._unsafeUnwrap()
    const expected = [
      {
        access: 'selected_memberships',
        permissions: ['read_invoice', 'write_invoice'],
        projectId: 42,
        groupId: null,
      },
      { access: 'selected_memberships', permissions: ['read_invoice'], projectId: null, groupId: 3 },
      { access: 'all_memberships', permissions: ['read_report'], projectId: null, groupId: null },
      { access: 'personal_projects', permissions: ['read_report'], projectId: null, groupId: null },
      { access: 'user', permissions: ['read_invoice'], projectId: null, groupId: null },
      { access: 'instance', permissions: ['read_invoice'], projectId: null, groupId: null },
    ]
    expect(issued.token.granularScopes).toEqual(expected)
    expect(issued.token.scopes).toEqual([])
    const principal = (await authority.authenticate(issued.secret))._unsafeUnwrap()
    expect(principal.token.granularScopes).toEqual(expected)
    const verified = (await authority.verify(issued.secret))._unsafeUnwrap()
    expect(verified.valid && verified.principal.token.granularScopes).toEqual(expected)
  })

  it('a legacy token has no granular scopes', async () => {
    const authority = await billing()
    const issued = (
      await authority.issueToken({ userId: ALICE.id, name: 'ci', scopes: ['api'] })
    )._unsafeUnwrap()
    expect(issued.token.granularScopes).toBeUndefined()
  })

  it('refuses a permission outside the vocabulary as a typed error naming it', async () => {
    const authority = await billing()
    const issued = await authority.issueToken({
      userId: ALICE.id,
      name: 'billing',
      // @ts-expect-error a typo is outside the authority's vocabulary
      permissions: [{ permissions: ['read_invocie'], boundary: { project: 42 } }],
    })
    expect(issued._unsafeUnwrapErr()).toEqual({
      type: 'validation_failed',
      message:
        "Permissions can only contain the authority's permissions: unknown read_invocie; the authority's are read_invoice, write_invoice, read_report",
    })
  })

  it('refuses every permission on an authority that declares none', async () => {
    const authority = createAuthority({ store: memoryStore(), pepper: 'p' })
    ;(await authority.users.put(ALICE))._unsafeUnwrap()
    const issued = await authority.issueToken({
      userId: ALICE.id,
      name: 'x',
      permissions: [{ permissions: ['read_invoice'], boundary: 'user' }],
    })
    expect(issued._unsafeUnwrapErr()).toMatchObject({
      type: 'validation_failed',
      message: expect.stringContaining('the authority declares none (its permissions option)'),
    })
  })

  it('refuses both scopes and permissions, and neither', async () => {
    const authority = await billing()
    const exactlyOne = {
      type: 'validation_failed',
      message:
        'scopes, permissions: exactly one must be given (a token is legacy, with scopes, or fine-grained, with permissions)',
    }
    const both = await authority.issueToken({
      userId: ALICE.id,
      name: 'x',
      scopes: ['api'],
      permissions: [{ permissions: ['read_invoice'], boundary: 'user' }],
    })
    expect(both._unsafeUnwrapErr()).toEqual(exactlyOne)
    expect((await authority.issueToken({ userId: ALICE.id, name: 'x' }))._unsafeUnwrapErr()).toEqual(
      exactlyOne,
    )
  })

  it('refuses an empty grant list, an empty grant and a malformed boundary', async () => {
    const authority = await billing()
    const issue = (permissions: Parameters<typeof authority.issueToken>[0]['permissions']) =>
      authority.issueToken({
        userId: ALICE.id,
        name: 'x',
        ...(permissions === undefined ? {} : { permissions }),
      })
    expect((await issue([]))._unsafeUnwrapErr()).toEqual({
      type: 'validation_failed',
      message: 'At least one granular scope must be provided',
    })
    expect((await issue([{ permissions: [], boundary: 'user' }]))._unsafeUnwrapErr()).toEqual({
      type: 'validation_failed',
      message: "Permissions can't be blank",
    })
    for (const boundary of [{ project: 0 }, { group: 1.5 }, 'everything'] as const) {
      const refused = await issue([{ permissions: ['read_invoice'], boundary: boundary as 'all' }])
      expect(refused._unsafeUnwrapErr()).toMatchObject({
        type: 'validation_failed',
        message: expect.stringMatching(/^Boundary .* is invalid/),
      })
    }
  })
})

describe('authorize', () => {
  async function tokenWith(
    permissions: Parameters<Awaited<ReturnType<typeof billing>>['issueToken']>[0]['permissions'],
  ) {
    const authority = await billing()
    const issued = (
      await authority.issueToken({
        userId: ALICE.id,
        name: 't',
        ...(permissions === undefined ? { scopes: ['api'] } : { permissions }),
      })
    )._unsafeUnwrap()
    return (await authority.authenticate(issued.secret))._unsafeUnwrap()
  }

  it('grants a permission on the project the scope names, and under a granted group', async () => {
    const principal = await tokenWith([
      { permissions: ['read_invoice'], boundary: { project: 42 } },
      { permissions: ['write_invoice'], boundary: { group: 3 } },
    ])
    expect(authorize(principal, 'read_invoice', { project: 42 }).isOk()).toBe(true)
    expect(authorize(principal.token, 'read_invoice', { project: 42 }).isOk()).toBe(true)
    expect(authorize(principal, 'write_invoice', { project: 42, groups: [3] }).isOk()).toBe(true)
    expect(authorize(principal, 'write_invoice', { group: 5, groups: [3, 1] }).isOk()).toBe(true)
    expect(authorize(principal, ['read_invoice', 'write_invoice'], { project: 42, groups: [3] }).isOk()).toBe(
      true,
    )
  })

  it('names the missing permissions outside the boundary, in GitLab words', async () => {
    const principal = await tokenWith([{ permissions: ['read_invoice'], boundary: { project: 42 } }])
    expect(authorize(principal, 'read_invoice', { project: 43 })._unsafeUnwrapErr()).toEqual({
      type: 'insufficient_permission',
      reason: 'missing_permissions',
      missing: ['read_invoice'],
      boundary: 'project',
      message:
        'Access denied: This operation requires a fine-grained personal access token with the following project permissions: [read_invoice].',
    })
    expect(
      authorize(principal, ['read_invoice', 'write_invoice'], { project: 42 })._unsafeUnwrapErr().missing,
    ).toEqual(['write_invoice'])
    expect(authorize(principal, 'read_invoice', 'user')._unsafeUnwrapErr().boundary).toBe('user')
  })

  it('refuses a legacy token as not fine-grained', async () => {
    const principal = await tokenWith(undefined)
    expect(authorize(principal, 'read_invoice', { group: 3 })._unsafeUnwrapErr()).toMatchObject({
      reason: 'not_fine_grained',
      missing: ['read_invoice'],
      boundary: 'group',
    })
  })

  it("'all' reaches every project and group but not the user or instance; 'personal' only personal projects", async () => {
    const principal = await tokenWith([
      { permissions: ['read_report'], boundary: 'all' },
      { permissions: ['read_invoice'], boundary: 'personal' },
    ])
    expect(authorize(principal, 'read_report', { project: 9 }).isOk()).toBe(true)
    expect(authorize(principal, 'read_report', { group: 9 }).isOk()).toBe(true)
    expect(authorize(principal, 'read_report', 'user').isErr()).toBe(true)
    expect(authorize(principal, 'read_report', 'instance').isErr()).toBe(true)
    expect(authorize(principal, 'read_invoice', { project: 9, personal: true }).isOk()).toBe(true)
    expect(authorize(principal, 'read_invoice', { project: 9 }).isErr()).toBe(true)
  })
})
