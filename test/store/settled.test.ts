import { err, ok, okAsync, ResultAsync } from 'neverthrow'
import { describe, expect, it } from 'vitest'
import { createAuthority } from '../../src/authority/create-authority.js'
import { memoryStore } from '../../src/memory/index.js'
import { settledResult, settledResultAsync, type TokenStore } from '../../src/store/index.js'
import { userFixture } from '../../src/testing/index.js'

describe('settledResultAsync', () => {
  it('is awaited as any ResultAsync, and carries its result', async () => {
    const settled = settledResultAsync(ok(7))
    expect(settled).toBeInstanceOf(ResultAsync)
    expect(await settled).toEqual(ok(7))
    expect(settledResult(settled)).toEqual(ok(7))
    const failed = settledResultAsync(err('down'))
    expect(await failed).toEqual(err('down'))
    expect(settledResult(failed)).toEqual(err('down'))
  })

  it('has no settled result once mapped, nor does any other ResultAsync', async () => {
    expect(settledResult(settledResultAsync(ok(7)).map((n) => n + 1))).toBeUndefined()
    expect(settledResult(okAsync(7))).toBeUndefined()
  })
})

describe('authenticate over a settled answer', () => {
  /**
   * An authority whose store gives the memory store's answers to the joined lookup, settled or as an
   * ordinary ResultAsync, counting how often an answer is awaited (its `then` called).
   */
  async function authorityAnswering(settled: boolean) {
    const inner = memoryStore({ users: [userFixture(2)] })
    let thens = 0
    const store: TokenStore = {
      ...inner,
      findByDigestWithUser: (digest) => {
        const found = inner.findByDigestWithUser?.(digest)
        const result = found === undefined ? undefined : settledResult(found)
        if (result === undefined) throw new Error('the memory store answers settled')
        const answer = settled ? settledResultAsync(result) : new ResultAsync(Promise.resolve(result))
        const then = answer.then.bind(answer)
        Object.defineProperty(answer, 'then', {
          value: (...args: Parameters<typeof then>) => {
            thens++
            return then(...args)
          },
        })
        return answer
      },
    }
    const authority = createAuthority({ store, pepper: 'p' })
    const { secret } = (
      await authority.issueToken({ userId: 2, name: 'ci', scopes: ['api'] })
    )._unsafeUnwrap()
    return { authority, secret, thens: () => thens }
  }

  it('decides from a settled answer without awaiting it', async () => {
    const { authority, secret, thens } = await authorityAnswering(true)
    expect((await authority.authenticate(secret))._unsafeUnwrap().user.id).toBe(2)
    expect((await authority.authenticate(`${secret}x`))._unsafeUnwrapErr().type).toBe('unauthenticated')
    expect(thens()).toBe(0)
  })

  it('awaits any other answer, with the same outcome', async () => {
    const { authority, secret, thens } = await authorityAnswering(false)
    expect((await authority.authenticate(secret))._unsafeUnwrap().user.id).toBe(2)
    expect((await authority.authenticate(`${secret}x`))._unsafeUnwrapErr().type).toBe('unauthenticated')
    expect(thens()).toBe(2)
  })
})
