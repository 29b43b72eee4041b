import { join } from 'node:path'
import { describe, expect, expectTypeOf, it } from 'vitest'
import type { AsUserError } from '../../src/authority/core/as-user.js'
import type { CreateError } from '../../src/authority/core/create.js'
import type { ListError } from '../../src/authority/core/list-tokens.js'
import type { RotateError } from '../../src/authority/core/rotate.js'
import type { ImpersonationError } from '../../src/authority/impersonation/impersonation-tokens.js'
import type { ErrorOf, StoreFailure } from '../../src/domain/errors.js'
import type { AuthorityError, PatkitError } from '../../src/index.js'
import * as root from '../../src/index.js'
import { exportedNames } from './entry-exports.js'

// The root entry `patkit` stays small (issue 21: at most 30 names; lucia's has about 22, hono's 21):
// what an embedder needs to create an authority, call it and read its answers. The rest has a
// subpath (README.md, "What each entry point exports"). `npx tsc --noEmit` checks the type lines.

describe('the root entry patkit', () => {
  it('exports at most 30 names (types included), its values these seven', () => {
    const values = Object.keys(root).sort()
    expect(values).toEqual([
      'AuthorityConfigError',
      'ErrorType',
      'SCOPES',
      'VerifyCode',
      'createAuthority',
      'isActive',
      'isExpired',
    ])
    const all = exportedNames(join(import.meta.dirname, '..', '..', 'src', 'index.ts'))
    for (const value of values) expect(all.has(value), value).toBe(true)
    expect(all.size).toBeLessThanOrEqual(30)
  })

  it("AuthorityError<'method'> is the error union of that method, each one a PatkitError", () => {
    expectTypeOf<AuthorityError<'rotate'>>().toEqualTypeOf<RotateError>()
    expectTypeOf<AuthorityError<'list'>>().toEqualTypeOf<ListError>()
    expectTypeOf<AuthorityError<'create'>>().toEqualTypeOf<CreateError>()
    expectTypeOf<AuthorityError<'createOwn'>>().toEqualTypeOf<CreateError>()
    expectTypeOf<AuthorityError<'asUser'>>().toEqualTypeOf<AsUserError>()
    expectTypeOf<AuthorityError<'verify'>>().toEqualTypeOf<StoreFailure>()
    expectTypeOf<AuthorityError<'impersonation.revoke'>>().toEqualTypeOf<
      ImpersonationError | ErrorOf<'token_revoked'>
    >()
    expectTypeOf<AuthorityError>().toExtend<PatkitError>()
    expectTypeOf<AuthorityError<'rotate'>>().toExtend<AuthorityError>()
    // @ts-expect-error `now` answers a Date, not a result: it has no errors to name
    expectTypeOf<AuthorityError<'now'>>().toBeNever()
  })
})
