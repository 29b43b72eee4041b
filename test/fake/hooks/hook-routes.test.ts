import { describe, expect, it } from 'vitest'
import { openHookSecret } from '../../../src/fake/index.js'
import { call, startWorld } from './world.js'

// GitLab's hooks API (lib/api/project_hooks.rb @ 0a3208dc, EE ee/lib/api/group_hooks.rb index id
// 22739888256, WebHooks::CreateService @ 1b584443, web_hooks_helpers.rb @ 1b9e60e8; facts in
// /work/shared/reference/gitlab-19-surface.md §4 and docs/reference/expiry-webhooks-audit.md).

const URL_OK = 'http://127.0.0.1:9/hook'
const KEY = new Uint8Array(32).fill(3)

// lib/api/entities/hook.rb @ 0286e4c6 then project_hook.rb @ 37f2b9ce, in order.
const PROJECT_HOOK_KEYS = [
  'id',
  'url',
  'name',
  'description',
  'created_at',
  'push_events',
  'tag_push_events',
  'merge_requests_events',
  'repository_update_events',
  'enable_ssl_verification',
  'alert_status',
  'disabled_until',
  'url_variables',
  'push_events_branch_filter',
  'branch_filter_strategy',
  'custom_webhook_template',
  'custom_headers',
  'project_id',
  'issues_events',
  'confidential_issues_events',
  'note_events',
  'confidential_note_events',
  'pipeline_events',
  'wiki_page_events',
  'deployment_events',
  'feature_flag_events',
  'job_events',
  'releases_events',
  'milestone_events',
  'emoji_events',
  'resource_access_token_events',
  'resource_deploy_token_events',
  'vulnerability_events',
]

describe('project hooks', () => {
  it('creates a hook (201) with GitLab entity fields, never the token, and stores the token sealed', async () => {
    const gitlab = await startWorld({ hookSecretKey: KEY })
    const created = await call(gitlab, 'maintainer', 'POST', '/projects/7/hooks', {
      url: URL_OK,
      token: 'hook-secret-token',
      name: 'expiry',
      description: 'token expiry notices',
      resource_access_token_events: true,
      enable_ssl_verification: 'false',
      push_events: false,
    })
    expect(created.status).toBe(201)
    const text = await created.text()
    expect(text).not.toContain('hook-secret-token')
    const body = JSON.parse(text)
    expect(Object.keys(body)).toEqual(PROJECT_HOOK_KEYS)
    expect(body).toMatchObject({
      id: 1,
      url: URL_OK,
      name: 'expiry',
      description: 'token expiry notices',
      created_at: '2026-01-01T00:00:00.000Z',
      project_id: 7,
      push_events: false,
      resource_access_token_events: true,
      issues_events: false,
      enable_ssl_verification: false,
      alert_status: 'executable',
      url_variables: [],
      custom_headers: [],
      branch_filter_strategy: 'wildcard',
    })
    expect(body).not.toHaveProperty('token')
    const stored = (await gitlab.store.resources?.hooks.findHook(1))?._unsafeUnwrap()
    expect(stored?.sealedToken).not.toContain('hook-secret-token')
    expect(openHookSecret(KEY, stored?.sealedToken ?? '')._unsafeUnwrap()).toBe('hook-secret-token')
    expect(stored?.events).toEqual({ push_events: false, resource_access_token_events: true })
  })

  it('defaults push_events and enable_ssl_verification to true (GitLab column defaults), token none', async () => {
    const gitlab = await startWorld()
    const body = await (
      await call(gitlab, 'root', 'POST', '/projects/acme%2Fapi/hooks', { url: URL_OK })
    ).json()
    expect(body).toMatchObject({
      push_events: true,
      enable_ssl_verification: true,
      name: null,
      project_id: 7,
    })
    expect((await gitlab.store.resources?.hooks.findHook(body.id))?._unsafeUnwrap()?.sealedToken).toBeNull()
  })

  it('lists (without url_variables and custom_headers), gets, updates and deletes', async () => {
    const gitlab = await startWorld()
    await call(gitlab, 'maintainer', 'POST', '/projects/7/hooks', { url: URL_OK })
    await call(gitlab, 'maintainer', 'POST', '/projects/7/hooks', { url: 'https://example.com/h' })
    const list = await call(gitlab, 'maintainer', 'GET', '/projects/7/hooks')
    expect(list.status).toBe(200)
    const hooks = await list.json()
    expect(hooks.map((h: { id: number }) => h.id)).toEqual([1, 2])
    expect(hooks[0]).not.toHaveProperty('url_variables')
    expect(hooks[0]).not.toHaveProperty('custom_headers')
    const one = await call(gitlab, 'maintainer', 'GET', '/projects/7/hooks/2')
    expect(one.status).toBe(200)
    expect((await one.json()).url).toBe('https://example.com/h')

    const updated = await call(gitlab, 'maintainer', 'PUT', '/projects/7/hooks/2', {
      resource_access_token_events: true,
      name: 'renamed',
    })
    expect(updated.status).toBe(200)
    expect(await updated.json()).toMatchObject({
      id: 2,
      url: 'https://example.com/h',
      name: 'renamed',
      push_events: true,
      resource_access_token_events: true,
    })
    const deleted = await call(gitlab, 'maintainer', 'DELETE', '/projects/7/hooks/2')
    expect(deleted.status).toBe(204)
    expect(await deleted.text()).toBe('')
    expect((await call(gitlab, 'maintainer', 'GET', '/projects/7/hooks/2')).status).toBe(404)
  })

  it('PUT without parameters is 400 No parameters provided; a changed token is sealed again', async () => {
    const gitlab = await startWorld({ hookSecretKey: KEY })
    await call(gitlab, 'maintainer', 'POST', '/projects/7/hooks', { url: URL_OK, token: 'one' })
    const empty = await call(gitlab, 'maintainer', 'PUT', '/projects/7/hooks/1', {})
    expect(empty.status).toBe(400)
    expect(await empty.json()).toEqual({ message: 'No parameters provided' })
    // A missing hook is found missing before the parameters are looked at.
    expect((await call(gitlab, 'maintainer', 'PUT', '/projects/7/hooks/9', {})).status).toBe(404)
    expect((await call(gitlab, 'maintainer', 'PUT', '/projects/7/hooks/1', { token: 'two' })).status).toBe(
      200,
    )
    const sealed = (await gitlab.store.resources?.hooks.findHook(1))?._unsafeUnwrap()?.sealedToken ?? ''
    expect(openHookSecret(KEY, sealed)._unsafeUnwrap()).toBe('two')
  })

  it("journals a hook's answer with its event flags shown and its secret absent", async () => {
    // The journal filters names ending in token (GitLab's /token$/), so `resource_access_token_events`
    // is shown as sent and answered; the hook's secret is never in the answer at all.
    const gitlab = await startWorld({ hookSecretKey: KEY })
    await call(gitlab, 'maintainer', 'POST', '/projects/7/hooks?resource_access_token_events=true', {
      url: URL_OK,
      token: 'journal-hook-secret',
    })
    const [entry] = gitlab.journal.query({ kind: 'request' }).entries.slice(-1)
    const detail = entry?.kind === 'request' ? entry.detail : null
    expect(detail?.params).toEqual({ resource_access_token_events: 'true' })
    expect(JSON.parse(detail?.answer.body ?? 'null')).toMatchObject({ resource_access_token_events: true })
    expect(JSON.stringify(gitlab.journal.query().entries)).not.toContain('journal-hook-secret')
  })

  it('refuses a secret token with a line break with 422, in the shape of each route (WebHooks::Hook)', async () => {
    // `validates :token, format: { without: /\n/ }` (app/models/concerns/web_hooks/hook.rb). Create
    // answers WebHooks::CreateService's `error(full_messages.to_sentence, 422)`; update answers
    // save_hook's `render_validation_error!(hook, 422)`; an invalid URL is named first on both.
    const gitlab = await startWorld({ hookSecretKey: KEY })
    const created = await call(gitlab, 'maintainer', 'POST', '/projects/7/hooks', {
      url: URL_OK,
      token: 'one\ntwo',
    })
    expect(created.status).toBe(422)
    expect(await created.json()).toEqual({ message: 'Token is invalid' })
    const both = await call(gitlab, 'maintainer', 'POST', '/projects/7/hooks', {
      url: 'ftp://x',
      token: 'a\n',
    })
    expect(await both.json()).toEqual({ message: 'Invalid url given' })
    expect(
      (await gitlab.store.resources?.hooks.listHooks({ type: 'project', id: 7 }))?._unsafeUnwrap(),
    ).toEqual([])
    await call(gitlab, 'maintainer', 'POST', '/projects/7/hooks', { url: URL_OK, token: 'kept' })
    const put = await call(gitlab, 'maintainer', 'PUT', '/projects/7/hooks/1', { token: '\n' })
    expect(put.status).toBe(422)
    expect(await put.json()).toEqual({ message: { token: ['is invalid'] } })
    const sealed = (await gitlab.store.resources?.hooks.findHook(1))?._unsafeUnwrap()?.sealedToken ?? ''
    expect(openHookSecret(KEY, sealed)._unsafeUnwrap()).toBe('kept')
    // A carriage return alone is no line break to GitLab's /\n/.
    expect((await call(gitlab, 'maintainer', 'PUT', '/projects/7/hooks/1', { token: 'a\rb' })).status).toBe(
      200,
    )
  })

  it('refuses a URL that is not http(s) with 422 Invalid url given; url is required on create', async () => {
    const gitlab = await startWorld()
    for (const url of ['ftp://example.com/x', 'not a url', 'javascript:alert(1)']) {
      const created = await call(gitlab, 'maintainer', 'POST', '/projects/7/hooks', { url })
      expect(created.status).toBe(422)
      expect(await created.json()).toEqual({ message: 'Invalid url given' })
    }
    const missing = await call(gitlab, 'maintainer', 'POST', '/projects/7/hooks', { push_events: true })
    expect(missing.status).toBe(400)
    expect(await missing.json()).toEqual({ error: 'url is missing' })
    const badFlag = await call(gitlab, 'maintainer', 'POST', '/projects/7/hooks', {
      url: URL_OK,
      issues_events: 'maybe',
    })
    expect(badFlag.status).toBe(400)
    expect(await badFlag.json()).toEqual({ error: 'issues_events is invalid' })
    await call(gitlab, 'maintainer', 'POST', '/projects/7/hooks', { url: URL_OK })
    const put = await call(gitlab, 'maintainer', 'PUT', '/projects/7/hooks/1', { url: 'gopher://x' })
    expect(put.status).toBe(422)
    expect(await put.json()).toEqual({ message: 'Invalid url given' })
    // Hosts other than loopback are accepted here: the delivery engine decides where it may send.
    expect(
      (await call(gitlab, 'maintainer', 'PUT', '/projects/7/hooks/1', { url: 'https://10.0.0.1/' })).status,
    ).toBe(200)
  })

  it('needs a Maintainer (admins always): 403 below, 404 Project Not Found for one the caller cannot see', async () => {
    const gitlab = await startWorld()
    await call(gitlab, 'maintainer', 'POST', '/projects/7/hooks', { url: URL_OK })
    for (const who of ['developer', 'guest'] as const) {
      for (const [method, path, body] of [
        ['GET', '/projects/7/hooks', undefined],
        ['GET', '/projects/7/hooks/1', undefined],
        ['POST', '/projects/7/hooks', { url: URL_OK }],
        ['PUT', '/projects/7/hooks/1', { name: 'x' }],
        ['DELETE', '/projects/7/hooks/1', undefined],
        ['GET', '/projects/7/hooks/1/events', undefined],
      ] as const) {
        const answer = await call(gitlab, who, method, path, body)
        expect(answer.status, `${who} ${method} ${path}`).toBe(403)
        expect(await answer.json()).toEqual({ message: '403 Forbidden' })
      }
    }
    const hidden = await call(gitlab, 'stranger', 'GET', '/projects/7/hooks')
    expect(hidden.status).toBe(404)
    expect(await hidden.json()).toEqual({ message: '404 Project Not Found' })
    expect((await call(gitlab, 'root', 'GET', '/projects/7/hooks')).status).toBe(200)
    expect((await call(gitlab, 'owner', 'GET', '/projects/7/hooks')).status).toBe(200)
    const none = await call(gitlab, 'root', 'GET', '/projects/99/hooks')
    expect(none.status).toBe(404)
    expect(await none.json()).toEqual({ message: '404 Project Not Found' })
  })

  it('answers a missing hook, or another project’s, with 404 Not found', async () => {
    const gitlab = await startWorld({
      projects: [
        { id: 7, path: 'api', name: 'API', group_id: 1 },
        { id: 8, path: 'web', name: 'Web', group_id: 1 },
      ],
    })
    await call(gitlab, 'owner', 'POST', '/projects/8/hooks', { url: URL_OK })
    for (const method of ['GET', 'DELETE'] as const) {
      const answer = await call(gitlab, 'owner', method, '/projects/7/hooks/1')
      expect(answer.status).toBe(404)
      expect(await answer.json()).toEqual({ message: '404 Not found' })
    }
    expect((await call(gitlab, 'owner', 'GET', '/projects/7/hooks/abc')).status).toBe(404)
  })

  it('needs the api scope to write; read_api reads', async () => {
    const gitlab = await startWorld()
    const write = await call(gitlab, 'readOnly', 'POST', '/projects/7/hooks', { url: URL_OK })
    expect(write.status).toBe(403)
    expect((await write.json()).error).toBe('insufficient_scope')
    expect((await call(gitlab, 'readOnly', 'GET', '/projects/7/hooks')).status).toBe(200)
    // The token's scopes come before Grape's parameter checks (`authenticate!` in a `before` block).
    for (const [method, path] of [
      ['POST', '/projects/7/hooks'],
      ['PUT', '/projects/7/hooks/1'],
    ] as const) {
      const early = await call(gitlab, 'readOnly', method, path, {})
      expect(early.status, method).toBe(403)
      expect((await early.json()).error).toBe('insufficient_scope')
    }
  })

  it('401 without a token', async () => {
    const gitlab = await startWorld()
    const answer = await fetch(`${gitlab.apiUrl}/projects/7/hooks`)
    expect(answer.status).toBe(401)
  })
})

describe('resource_access_token_events and the emulated release', () => {
  it('is neither kept nor shown before 16.10 (Grape ignores an undeclared parameter)', async () => {
    const gitlab = await startWorld({ release: '16.9' })
    const created = await call(gitlab, 'maintainer', 'POST', '/projects/7/hooks', {
      url: URL_OK,
      resource_access_token_events: true,
    })
    expect(created.status).toBe(201)
    expect(await created.json()).not.toHaveProperty('resource_access_token_events')
    expect((await gitlab.store.resources?.hooks.findHook(1))?._unsafeUnwrap()?.events).toEqual({
      push_events: true,
    })
  })

  it('is kept and shown from 16.10', async () => {
    const gitlab = await startWorld({ release: '16.10' })
    const created = await call(gitlab, 'maintainer', 'POST', '/projects/7/hooks', {
      url: URL_OK,
      resource_access_token_events: 'true',
    })
    expect((await created.json()).resource_access_token_events).toBe(true)
  })
})

describe('group hooks (a Premium feature in GitLab)', () => {
  it('needs an Owner (admins always); the entity has group_id and the group flags', async () => {
    const gitlab = await startWorld()
    const refused = await call(gitlab, 'maintainer', 'POST', '/groups/1/hooks', { url: URL_OK })
    expect(refused.status).toBe(403)
    const created = await call(gitlab, 'owner', 'POST', '/groups/acme/hooks', {
      url: URL_OK,
      resource_access_token_events: true,
      member_events: true,
      token: 'group-secret',
    })
    expect(created.status).toBe(201)
    const text = await created.text()
    expect(text).not.toContain('group-secret')
    const body = JSON.parse(text)
    expect(body).toMatchObject({ group_id: 1, resource_access_token_events: true, member_events: true })
    expect(body).not.toHaveProperty('project_id')
    expect(body).not.toHaveProperty('milestone_events')
    expect((await call(gitlab, 'root', 'GET', '/groups/1/hooks/1')).status).toBe(200)
    expect((await call(gitlab, 'maintainer', 'GET', '/groups/1/hooks')).status).toBe(403)
    const hidden = await call(gitlab, 'stranger', 'GET', '/groups/1/hooks')
    expect(hidden.status).toBe(404)
    expect(await hidden.json()).toEqual({ message: '404 Group Not Found' })
    // A project hook id is no group hook.
    await call(gitlab, 'maintainer', 'POST', '/projects/7/hooks', { url: URL_OK })
    expect((await call(gitlab, 'owner', 'GET', '/groups/1/hooks/2')).status).toBe(404)
    const updated = await call(gitlab, 'owner', 'PUT', '/groups/1/hooks/1', { subgroup_events: true })
    expect((await updated.json()).subgroup_events).toBe(true)
    expect((await call(gitlab, 'owner', 'DELETE', '/groups/1/hooks/1')).status).toBe(204)
  })
})
