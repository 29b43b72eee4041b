import { afterEach } from 'vitest'
import { createFakeGitLab, type FakeGitLab, type FakeGitLabOptions } from '../../../src/fake/index.js'

/** Secrets of the world's users, by name. */
export const SECRETS = {
  root: 'glpat-hooks-root-000000',
  owner: 'glpat-hooks-owner-00000',
  maintainer: 'glpat-hooks-maint-00000',
  developer: 'glpat-hooks-devel-00000',
  guest: 'glpat-hooks-guest-00000',
  stranger: 'glpat-hooks-stran-00000',
  readOnly: 'glpat-hooks-readonly-00',
} as const

/** Group acme (1) owned by owner (2), with maintainer (3); project acme/api (7) with developer (4) and guest (5). */
export const WORLD: FakeGitLabOptions = {
  users: [
    { id: 1, username: 'root', admin: true },
    { id: 2, username: 'owner' },
    { id: 3, username: 'maintainer' },
    { id: 4, username: 'developer' },
    { id: 5, username: 'guest' },
    { id: 6, username: 'stranger' },
  ],
  groups: [
    {
      id: 1,
      path: 'acme',
      name: 'Acme',
      members: [
        { user_id: 2, access_level: 50 },
        { user_id: 3, access_level: 40 },
      ],
    },
  ],
  projects: [
    {
      id: 7,
      path: 'api',
      name: 'API',
      group_id: 1,
      members: [
        { user_id: 4, access_level: 30 },
        { user_id: 5, access_level: 10 },
      ],
    },
  ],
  tokens: [
    { user_id: 1, name: 'root', scopes: ['api'], token: SECRETS.root },
    { user_id: 2, name: 'owner', scopes: ['api'], token: SECRETS.owner },
    { user_id: 3, name: 'maintainer', scopes: ['api'], token: SECRETS.maintainer },
    { user_id: 4, name: 'developer', scopes: ['api'], token: SECRETS.developer },
    { user_id: 5, name: 'guest', scopes: ['api'], token: SECRETS.guest },
    { user_id: 6, name: 'stranger', scopes: ['api'], token: SECRETS.stranger },
    { user_id: 3, name: 'read', scopes: ['read_api'], token: SECRETS.readOnly },
  ],
}

const open: FakeGitLab[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((gitlab) => gitlab.close()))
})

/** A fake GitLab over the world, closed after the test. */
export async function startWorld(options: FakeGitLabOptions = {}): Promise<FakeGitLab> {
  const gitlab = await createFakeGitLab({ ...WORLD, ...options })
  open.push(gitlab)
  return gitlab
}

/** A request to the fake's API as one of the world's users; a body is sent as JSON. */
export function call(
  gitlab: FakeGitLab,
  who: keyof typeof SECRETS,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  return fetch(`${gitlab.apiUrl}${path}`, {
    method,
    headers: {
      'PRIVATE-TOKEN': SECRETS[who],
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
}
