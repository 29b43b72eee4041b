import { afterEach, describe, expect, it } from 'vitest'
import type { FakeGitLab } from '../../../src/fake/index.js'
import { addHook, type Receiver, receiver, world } from './expiry-world.js'

const open: { gitlab: FakeGitLab; r: Receiver }[] = []
afterEach(async () => {
  for (const { gitlab, r } of open.splice(0)) {
    await gitlab.close()
    await r.close()
  }
})

async function setUp() {
  const r = await receiver()
  const gitlab = await world()
  open.push({ gitlab, r })
  const project = await addHook(gitlab, r.url, { type: 'project', id: 7 }, 'P')
  const group = await addHook(gitlab, r.url, { type: 'group', id: 2 }, 'G2')
  const root = await gitlab.issueToken({ userId: 1, name: 'admin', scopes: ['api'] })
  const alice = await gitlab.issueToken({ userId: 2, name: 'alice', scopes: ['api'] })
  const post = (secret: string, path: string) =>
    fetch(`${gitlab.apiUrl}${path}`, { method: 'POST', headers: { 'PRIVATE-TOKEN': secret } })
  return { gitlab, r, project, group, root: root.secret, alice: alice.secret, post }
}

describe('POST /{projects,groups}/:id/hooks/:hook_id/test/resource_access_token_events', () => {
  it('sends a sample expiring-token payload and answers 201 on a 2xx', async () => {
    const { r, project, group, root, post } = await setUp()
    const answer = await post(root, `/projects/7/hooks/${project}/test/resource_access_token_events`)
    expect(answer.status).toBe(201)
    expect(await answer.json()).toEqual({ message: '201 Created' })
    expect(r.received[0]?.body).toMatchObject({
      object_kind: 'access_token',
      event_name: 'expiring_access_token',
      project: { id: 7 },
    })
    const viaGroup = await post(root, `/groups/2/hooks/${group}/test/resource_access_token_events`)
    expect(viaGroup.status).toBe(201)
    expect(r.received[1]?.body['group']).toMatchObject({ group_id: 2 })
    expect(r.received[1]?.headers['x-gitlab-event']).toBe('Resource Access Token Hook')
  })

  it("answers 422 with the receiver's answer otherwise", async () => {
    const { r, project, root, post } = await setUp()
    r.answer = 500
    const answer = await post(root, `/projects/7/hooks/${project}/test/resource_access_token_events`)
    expect(answer.status).toBe(422)
    expect(await answer.json()).toEqual({ message: 'boom' })
  })

  it('refuses a caller without Maintainer (project) or Owner (group) access, an unknown hook and trigger', async () => {
    const { gitlab, project, group, root, alice, post } = await setUp()
    expect((await post(alice, `/groups/2/hooks/${group}/test/resource_access_token_events`)).status).toBe(404)
    expect((await post(root, `/projects/7/hooks/${group}/test/resource_access_token_events`)).status).toBe(
      404,
    )
    expect((await post(root, `/projects/7/hooks/999/test/resource_access_token_events`)).status).toBe(404)
    const resources = gitlab.store.resources
    await resources?.setMember({ type: 'project', id: 7 }, { userId: 2, accessLevel: 30 })
    expect((await post(alice, `/projects/7/hooks/${project}/test/resource_access_token_events`)).status).toBe(
      403,
    )
    await resources?.setMember({ type: 'project', id: 7 }, { userId: 2, accessLevel: 40 })
    expect((await post(alice, `/projects/7/hooks/${project}/test/resource_access_token_events`)).status).toBe(
      201,
    )
    await resources?.setMember({ type: 'group', id: 2 }, { userId: 2, accessLevel: 40 })
    expect((await post(alice, `/groups/2/hooks/${group}/test/resource_access_token_events`)).status).toBe(403)
    const bad = await post(root, `/projects/7/hooks/${project}/test/nonsense_events`)
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({ error: 'trigger does not have a valid value' })
  })
})
