import { describe, expect, it } from 'vitest'
import { parsePathParams } from '../../src/http/path-params.js'
import { serviceAccountWorld } from '../e2e/gitlab-specs/group-service-account-world.js'

// A row's declared path parameters: parsed once by the pipeline, an invalid one answered after the
// route's own checks (the group's, for the service account routes), as GitLab's Grape does.

describe('parsePathParams', () => {
  it('parses in declaration order; the first invalid id is the error, named as declared', () => {
    const declared = { id: 'string', user_id: 'id', token: { id: 'token_id' } } as const
    expect(parsePathParams(declared, { id: 'a/b', user_id: '7', token: '9' })._unsafeUnwrap()).toEqual({
      id: 'a/b',
      user_id: 7,
      token: 9,
    })
    expect(parsePathParams(declared, { id: 'g', user_id: 'x', token: 'y' })._unsafeUnwrapErr()).toMatchObject(
      {
        type: 'invalid_parameter',
        parameter: 'user_id',
      },
    )
    expect(parsePathParams(declared, { id: 'g', user_id: '1', token: '0' })._unsafeUnwrapErr()).toMatchObject(
      {
        parameter: 'token_id',
      },
    )
  })
})

describe('an invalid path id on a group service account route', () => {
  async function setup() {
    const w = await serviceAccountWorld()
    const owner = await w.user()
    const stranger = await w.user()
    const group = await w.group()
    await w.addOwner(group.id, owner)
    return { w, owner, stranger, group }
  }
  const tokens = (groupId: number | string, userId: string) =>
    `/groups/${groupId}/service_accounts/${userId}/personal_access_tokens`

  it('is 400 naming the parameter for the group owner', async () => {
    const { w, owner, group } = await setup()
    const listed = await w.api('GET', tokens(group.id, 'abc'), { user: owner })
    expect(listed).toMatchObject({ status: 400, json: { error: 'user_id is invalid' } })
    const revoked = await w.api('DELETE', `${tokens(group.id, '5')}/0`, { user: owner })
    expect(revoked).toMatchObject({ status: 400, json: { error: 'token_id is invalid' } })
  })

  it('comes after the group checks: 403 for a non-owner, 404 for no such group', async () => {
    const { w, stranger, group } = await setup()
    expect(
      (await w.api('POST', `${tokens(group.id, 'abc')}`, { user: stranger }, { name: 'n' })).status,
    ).toBe(403)
    const missing = await w.api('GET', tokens(999_999, 'abc'), { user: stranger })
    expect(missing).toMatchObject({ status: 404, json: { message: '404 Group Not Found' } })
  })
})
