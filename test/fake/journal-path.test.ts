import { connect } from 'node:net'
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { createFakeGitLab, type FakeGitLab } from '../../src/fake/fake-gitlab.js'
import { isSecretParameter, journalPath } from '../../src/fake/journal-path.js'

// The journal never holds a credential: every credential-bearing query parameter (any case) is
// filtered, shown as a literal [FILTERED], and a target that does not parse is never recorded raw.

const SECRET = 'glpat-journal-filter-secret-1'

const running: FakeGitLab[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((gitlab) => gitlab.close()))
})

const parsed = (target: string) => new URL(target, 'http://patkit.invalid')

describe('journalPath', () => {
  it.each([
    ['/a?private_token=s&per_page=1', '/a?private_token=[FILTERED]&per_page=1'],
    ['/a?PRIVATE_TOKEN=s', '/a?PRIVATE_TOKEN=[FILTERED]'],
    ['/a?access_token=s&job_token=t', '/a?access_token=[FILTERED]&job_token=[FILTERED]'],
    ['/a?Private-Token=s', '/a?Private-Token=[FILTERED]'],
    ['/a?private%5Ftoken=s', '/a?private%5Ftoken=[FILTERED]'],
    [
      '/a?password=s&client_secret=t&api_key=u',
      '/a?password=[FILTERED]&client_secret=[FILTERED]&api_key=[FILTERED]',
    ],
    ['/a?private_token=s&private_token=t', '/a?private_token=[FILTERED]&private_token=[FILTERED]'],
    ['/a?search=token+rotation&state=active', '/a?search=token+rotation&state=active'],
    ['/a?page=2&sort=created_desc', '/a?page=2&sort=created_desc'],
    ['/a', '/a'],
  ])('%s is journaled as %s', (target, expected) => {
    expect(journalPath(parsed(target), target)).toBe(expected)
  })

  it.each([
    [
      'http://[bad/api/v4/personal_access_tokens?private_token=s',
      'http://[bad/api/v4/personal_access_tokens?[FILTERED]',
    ],
    ['http://user:pass@[bad/x', 'http://[FILTERED]@[bad/x'],
    ['http://[bad/x#private_token=s', 'http://[bad/x?[FILTERED]'],
    ['http://[bad/x', 'http://[bad/x'],
  ])('an unparseable target %s is journaled as %s', (raw, expected) => {
    expect(journalPath(null, raw)).toBe(expected)
  })

  it('no value of a credential-named parameter survives, whatever its name case or value', () => {
    const name = fc.constantFrom(
      'private_token',
      'access_token',
      'job_token',
      'password',
      'secret',
      'deploy_key',
      'private_token[]',
      'key[]',
      'a[access_token]',
    )
    const caseOf = (text: string, upper: readonly boolean[]) =>
      [...text].map((c, i) => (upper[i % upper.length] === true ? c.toUpperCase() : c)).join('')
    fc.assert(
      fc.property(
        name,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
        fc.stringMatching(/^[A-Za-z0-9_-]{12,40}$/),
        (base, upper, value) => {
          const target = `/api/v4/x?a=1&${caseOf(base, upper)}=${value}&b=2`
          const path = journalPath(parsed(target), target)
          expect(path).not.toContain(value)
          expect(path).toContain('=[FILTERED]')
        },
      ),
      { numRuns: 200 },
    )
  })

  it('names what GitLab filters, and not ordinary filters', () => {
    for (const name of [
      'private_token',
      'ACCESS_TOKEN',
      'job_token',
      'otp_attempt',
      'sharedSecret',
      'passwd',
    ])
      expect(isSecretParameter(name), name).toBe(true)
    for (const name of ['search', 'state', 'user_id', 'per_page', 'sort', 'last_used_after'])
      expect(isSecretParameter(name), name).toBe(false)
  })

  it("filters a name ending in token, as GitLab's /token$/, not one that merely contains it", () => {
    // GitLab's filter_parameters (config/application.rb) has /token$/: `resource_access_token_events`
    // (a hook's flag), `token_id` or `tokens_count` are logged as sent.
    for (const name of ['resource_access_token_events', 'token_id', 'tokens_count', 'tokenizer'])
      expect(isSecretParameter(name), name).toBe(false)
    for (const name of ['token', 'TOKEN', 'feed_token', 'X-Gitlab-Token', 'runner_token'])
      expect(isSecretParameter(name), name).toBe(true)
    // A bracketed name is judged by each of its keys, as Rails filters nested parameters.
    for (const name of ['private_token[]', 'key[]', 'refkey[]', 'a[private_token]', 'x[api_key][0]'])
      expect(isSecretParameter(name), name).toBe(true)
    for (const name of ['scopes[]', 'token_ids[]', 'a[token_id]'])
      expect(isSecretParameter(name), name).toBe(false)
    const target = '/api/v4/projects/7/hooks?resource_access_token_events=true&token_id=3&private_token=s'
    expect(journalPath(parsed(target), target)).toBe(
      '/api/v4/projects/7/hooks?resource_access_token_events=true&token_id=3&private_token=[FILTERED]',
    )
  })
})

/** Sends one raw request line (any target) and resolves when the server closed the connection. */
function rawRequest(port: number, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.end(`${line}\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`),
    )
    socket.on('data', () => {})
    socket.on('error', reject)
    socket.on('close', () => resolve())
  })
}

describe('the journal of a running fake', () => {
  it('filters access_token, PRIVATE_TOKEN and job_token, and shows [FILTERED] as such', async () => {
    const gitlab = await createFakeGitLab({
      tokens: [{ id: 5, user_id: 2, name: 'ci', scopes: ['api'], token: SECRET }],
    })
    running.push(gitlab)
    for (const query of [
      `private_token=${SECRET}`,
      `access_token=${SECRET}`,
      `PRIVATE_TOKEN=${SECRET}`,
      `job_token=${SECRET}&per_page=1`,
    ]) {
      await fetch(`${gitlab.apiUrl}/personal_access_tokens?${query}`)
    }
    const answer = await fetch(`${gitlab.url}/__patkit/journal?kind=request`)
    const text = await answer.text()
    expect(text).not.toContain(SECRET)
    const paths = (JSON.parse(text) as { entries: { path: string }[] }).entries.map((e) => e.path)
    expect(paths).toEqual([
      '/api/v4/personal_access_tokens?private_token=[FILTERED]',
      '/api/v4/personal_access_tokens?access_token=[FILTERED]',
      '/api/v4/personal_access_tokens?PRIVATE_TOKEN=[FILTERED]',
      '/api/v4/personal_access_tokens?job_token=[FILTERED]&per_page=1',
    ])
    expect(gitlab.journal.query({ pathContains: 'private_token=[FILTERED]' }).count).toBe(1)
  })

  it('journals a malformed target without its query', async () => {
    const gitlab = await createFakeGitLab({
      tokens: [{ id: 5, user_id: 2, name: 'ci', scopes: ['api'], token: SECRET }],
    })
    running.push(gitlab)
    await rawRequest(
      Number(new URL(gitlab.url).port),
      `GET http://[bad/api/v4/personal_access_tokens?private_token=${SECRET} HTTP/1.1`,
    )
    const { entries } = gitlab.journal.query({ kind: 'request' })
    expect(JSON.stringify(entries)).not.toContain(SECRET)
    expect(entries.map((e) => (e.kind === 'request' ? [e.path, e.status] : null))).toEqual([
      ['http://[bad/api/v4/personal_access_tokens?[FILTERED]', 400],
    ])
  })
})
