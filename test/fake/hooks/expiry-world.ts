import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { CalendarDate } from '../../../src/domain/calendar.js'
import { seededRandom } from '../../../src/domain/random.js'
import { createFakeGitLab, type FakeGitLab, type FakeWebhookOptions } from '../../../src/fake/index.js'
import type { HookDraft } from '../../../src/store/hook-store.js'
import type { TokenStore } from '../../../src/store/token-store.js'

/** One request a receiver got. */
export interface Received {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: Record<string, unknown>
}

export type Answer = 'ok' | 500 | 'hang'

/** A webhook receiver on 127.0.0.1: records what it gets and answers as told. */
export interface Receiver {
  readonly url: string
  readonly received: Received[]
  answer: Answer
  close(): Promise<void>
}

export async function receiver(): Promise<Receiver> {
  const received: Received[] = []
  const hanging = new Set<import('node:http').ServerResponse>()
  const state = { answer: 'ok' as Answer }
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
      })
      if (state.answer === 'hang') {
        hanging.add(res)
        return
      }
      res.statusCode = state.answer === 'ok' ? 200 : state.answer
      res.end(state.answer === 'ok' ? 'thanks' : 'boom')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    get answer() {
      return state.answer
    },
    set answer(value: Answer) {
      state.answer = value
    },
    close: async () => {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** The fake's data: group 1 `acme` above group 2 `acme/platform` above project 7 `acme/platform/api`. */
export interface WorldOptions {
  readonly extended?: { readonly project?: boolean; readonly group1?: boolean; readonly group2?: boolean }
  readonly webhooks?: FakeWebhookOptions
  /** Extra tokens in the seed format. */
  readonly tokens?: readonly Record<string, unknown>[]
  /** A store of the test's (a SQL one); default memory. */
  readonly store?: TokenStore
}

// 2026-01-01 + 63 days: the token has 63 days left at the start.
export const EXPIRES: CalendarDate = '2026-03-05'

export const IDS = {
  projectBot: 10,
  groupBot: 11,
  human: 2,
  projectToken: 100,
  groupToken: 101,
  humanToken: 102,
  revokedToken: 103,
  neverToken: 104,
} as const

export async function world(options: WorldOptions = {}): Promise<FakeGitLab> {
  const gitlab = await createFakeGitLab({
    random: () => seededRandom(5),
    ...(options.store === undefined ? {} : { store: options.store }),
    users: [
      { id: 1, username: 'root', admin: true },
      { id: 2, username: 'alice' },
      { id: 10, username: 'project_7_bot', bot: true, bot_namespace: { type: 'project', id: 7 } },
      { id: 11, username: 'group_2_bot', bot: true, bot_namespace: { type: 'group', id: 2 } },
    ],
    groups: [
      { id: 1, path: 'acme', name: 'Acme', members: [{ user_id: 1, access_level: 50 }] },
      {
        id: 2,
        path: 'platform',
        name: 'Platform',
        parent_id: 1,
        members: [{ user_id: 11, access_level: 40 }],
      },
    ],
    projects: [
      { id: 7, path: 'api', name: 'API', group_id: 2, members: [{ user_id: 10, access_level: 40 }] },
    ],
    tokens: [
      {
        id: 100,
        user_id: 10,
        name: 'deploy',
        scopes: ['api'],
        token: 'glpat-project-bot-1',
        expires_at: EXPIRES,
      },
      {
        id: 101,
        user_id: 11,
        name: 'sync',
        scopes: ['api'],
        token: 'glpat-group-bot-1',
        expires_at: EXPIRES,
      },
      { id: 102, user_id: 2, name: 'mine', scopes: ['api'], token: 'glpat-human-0001', expires_at: EXPIRES },
      {
        id: 103,
        user_id: 10,
        name: 'old',
        scopes: ['api'],
        token: 'glpat-revoked-01',
        expires_at: EXPIRES,
        revoked: true,
      },
      { id: 104, user_id: 10, name: 'never', scopes: ['api'], token: 'glpat-never-0001', expires_at: null },
      ...((options.tokens ?? []) as never[]),
    ],
    ...(options.webhooks === undefined ? {} : { webhooks: options.webhooks }),
  })
  await extend(gitlab, options.extended ?? {})
  return gitlab
}

/** Sets the extended expiry webhook settings (GitLab's, no REST attribute: straight in the store). */
export async function extend(gitlab: FakeGitLab, ext: NonNullable<WorldOptions['extended']>): Promise<void> {
  const resources = gitlab.store.resources
  if (resources === undefined) throw new Error('the memory store has resources')
  for (const [id, flag] of [
    [1, ext.group1],
    [2, ext.group2],
  ] as const) {
    const group = (await resources.findGroup(id))._unsafeUnwrap()
    if (group === null) throw new Error(`group ${id}`)
    await resources.putGroup({ ...group, extendedExpiryWebhooks: flag === true })
  }
  const project = (await resources.findProject(7))._unsafeUnwrap()
  if (project === null) throw new Error('project 7')
  await resources.putProject({ ...project, extendedExpiryWebhooks: ext.project === true })
}

/** Adds a hook; `name` ends its URL path so a receiver tells the hooks apart. */
export async function addHook(
  gitlab: FakeGitLab,
  base: string,
  resource: HookDraft['resource'],
  name: string,
  subscribed = true,
  sealedToken: string | null = null,
): Promise<number> {
  const hooks = gitlab.store.resources?.hooks
  if (hooks === undefined) throw new Error('no hook store')
  const hook = await hooks.insertHook({
    resource,
    url: `${base}/${name}`,
    name,
    description: null,
    sealedToken,
    events: { resource_access_token_events: subscribed, push_events: true },
    enableSslVerification: true,
    createdAt: new Date('2026-01-01T00:00:00Z'),
  })
  return hook._unsafeUnwrap().id
}

/** Calls the control API. */
export async function control(
  gitlab: FakeGitLab,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  return fetch(`${gitlab.url}/__patkit${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  })
}

/** Moves the fake clock by days over the control API, then waits for the deliveries. */
export async function advanceDays(gitlab: FakeGitLab, days: number): Promise<void> {
  const moved = await control(gitlab, 'POST', '/clock/advance', { days })
  if (moved.status !== 200) throw new Error(`advance: ${moved.status} ${await moved.text()}`)
  const waited = await control(gitlab, 'POST', '/deliveries/wait')
  if (waited.status !== 200) throw new Error(`wait: ${waited.status} ${await waited.text()}`)
}

/** What a receiver got, as `hook:token:interval` lines, sorted. */
export function summary(received: readonly Received[]): string[] {
  return received
    .map((r) => {
      const attrs = r.body['object_attributes'] as { id: number }
      return `${r.path.slice(1)}:${attrs.id}:${String(r.body['interval'])}`
    })
    .sort()
}
