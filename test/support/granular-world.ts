import type { Release } from '../../src/authority/core/release.js'
import { manualClock } from '../../src/domain/clock.js'
import type { PatkitError } from '../../src/domain/errors.js'
import type { GranularScope } from '../../src/domain/granular-scope.js'
import { seededRandom } from '../../src/domain/random.js'
import type { Member, Visibility } from '../../src/domain/resource.js'
import { createDigester } from '../../src/domain/secret.js'
import { createHandler } from '../../src/http/index.js'
import { createAuthority } from '../../src/index.js'
import { memoryStore } from '../../src/memory/index.js'
import { ADMIN, ALICE, BOB, T0 } from './authority-fixtures.js'

const PEPPER = 'granular-pepper'

/**
 * A fake GitLab with groups acme (3, private) > platform (4, private) > api (7, private project),
 * public group oss (5) with public project lib (8), bob's private group secret (6) with project vault
 * (9), and alice's personal project alice/notes (10). Fine-grained tokens are put in the store
 * directly (not created over HTTP), with legacy scopes `api` so the route's scope rule never decides.
 */
export async function granularWorld(
  options: {
    readonly release?: Release
    readonly granularEnforcement?: { readonly enforcedFrom: (topLevelGroupId: number) => string | null }
  } = {},
) {
  const store = memoryStore({ users: [ADMIN, ALICE, BOB] })
  const resources = store.resources
  if (resources === undefined) throw new Error('the memory store holds resources')
  const authority = createAuthority({
    store,
    pepper: PEPPER,
    clock: manualClock(T0),
    random: seededRandom(5),
    ...(options.release === undefined ? {} : { release: options.release }),
    ...(options.granularEnforcement === undefined
      ? {}
      : { granularEnforcement: options.granularEnforcement }),
  })
  const member: readonly Member[] = [{ userId: ALICE.id, accessLevel: 50 }]
  const group = (
    id: number,
    fullPath: string,
    parentId: number | null,
    visibility: Visibility,
    members = member,
  ) =>
    resources.putGroup({
      id,
      path: fullPath.split('/').pop() ?? fullPath,
      fullPath,
      name: fullPath,
      parentId,
      visibility,
      members,
    })
  const project = (
    id: number,
    fullPath: string,
    groupId: number | null,
    visibility: Visibility,
    members = member,
  ) =>
    resources.putProject({
      id,
      path: fullPath.split('/').pop() ?? fullPath,
      fullPath,
      name: fullPath,
      groupId,
      visibility,
      members,
    })
  const bobOnly: readonly Member[] = [{ userId: BOB.id, accessLevel: 50 }]
  for (const put of [
    group(3, 'acme', null, 'private'),
    group(4, 'acme/platform', 3, 'private'),
    group(5, 'oss', null, 'public', bobOnly),
    group(6, 'secret', null, 'private', bobOnly),
    project(7, 'acme/platform/api', 4, 'private'),
    project(8, 'oss/lib', 5, 'public', bobOnly),
    project(9, 'secret/vault', 6, 'private', bobOnly),
    project(10, 'alice/notes', null, 'private'),
  ]) {
    ;(await put)._unsafeUnwrap()
  }
  const digest = createDigester(PEPPER)
  let serial = 0
  /** A token of `userId` put in the store; fine-grained when `granularScopes` is given. */
  async function token(
    userId: number,
    granularScopes?: readonly GranularScope[],
    scopes: readonly string[] = ['api'],
  ): Promise<{ id: number; secret: string }> {
    serial += 1
    const secret = `glpat-granular-test-secret-${serial}`
    const stored = await store.insert({
      userId,
      name: `t${serial}`,
      description: null,
      scopes,
      createdAt: T0,
      lastUsedAt: null,
      expiresAt: null,
      revoked: false,
      impersonation: false,
      previousId: null,
      familyId: null,
      digest: digest(secret),
      ...(granularScopes === undefined ? {} : { granularScopes }),
    })
    return { id: stored._unsafeUnwrap().id, secret }
  }
  const refusals: PatkitError[] = []
  const handler = createHandler(authority, { onRefusal: (e) => refusals.push(e) })
  async function call(method: string, path: string, secret?: string, body?: Record<string, unknown>) {
    const headers: Record<string, string> = {}
    if (secret !== undefined) headers['private-token'] = secret
    if (body !== undefined) headers['content-type'] = 'application/json'
    const response = await handler(
      new Request(`http://gitlab.test/api/v4${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    )
    const text = await response.text()
    let json: unknown = null
    try {
      json = JSON.parse(text)
    } catch {
      json = null
    }
    return { status: response.status, json, text }
  }
  return { authority, store, token, call, refusals }
}

/** One scope, GitLab's shape. */
export function scope(
  access: GranularScope['access'],
  permissions: readonly string[],
  ids: { projectId?: number; groupId?: number } = {},
): GranularScope {
  return { access, permissions, projectId: ids.projectId ?? null, groupId: ids.groupId ?? null }
}
