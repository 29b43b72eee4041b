import { afterEach, describe, expect, it } from 'vitest'
import { createFakeGitLab, type FakeGitLab } from '../../src/fake/fake-gitlab.js'

// Issue 28, item 3: a fault rule could answer `text/html` with a script, on the dashboard's origin and
// without a CSP: a page that runs there reads the control token the dashboard keeps in sessionStorage.
// Every fault answer now carries a CSP under which nothing runs, and nosniff, whatever the rule says.

const ALICE = 'glpat-fault-csp-alice-00001'
const SELF = '/api/v4/personal_access_tokens/self'
const SCRIPT = '<script>fetch("/steal?" + sessionStorage.getItem("patkit.controlToken"))</script>'

const running: FakeGitLab[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((gitlab) => gitlab.close()))
})

async function start(): Promise<FakeGitLab> {
  const gitlab = await createFakeGitLab({
    tokens: [{ user_id: 2, name: 'ci', scopes: ['api'], token: ALICE }],
  })
  running.push(gitlab)
  return gitlab
}

const guard = (response: Response) => [
  response.headers.get('content-security-policy'),
  response.headers.get('x-content-type-options'),
]

describe('a fault answer runs nothing in a browser', () => {
  it('a text/html body with a script comes with sandbox, default-src none and nosniff', async () => {
    const gitlab = await start()
    gitlab.faults
      .add({ path: SELF, status: 200, headers: { 'Content-Type': 'text/html' }, body: SCRIPT })
      ._unsafeUnwrap()
    const response = await fetch(`${gitlab.url}${SELF}`)
    expect(response.headers.get('content-type')).toBe('text/html')
    expect(guard(response)).toEqual(["sandbox; default-src 'none'", 'nosniff'])
    expect(await response.text()).toBe(JSON.stringify(SCRIPT))
  })

  it('a rule’s own Content-Security-Policy or X-Content-Type-Options does not replace them', async () => {
    const gitlab = await start()
    gitlab.faults
      .add({
        path: SELF,
        status: 200,
        headers: {
          'Content-Type': 'text/html',
          'content-security-policy': "script-src 'unsafe-inline'",
          'X-Content-Type-Options': 'none',
        },
        body: SCRIPT,
      })
      ._unsafeUnwrap()
    expect(guard(await fetch(`${gitlab.url}${SELF}`))).toEqual(["sandbox; default-src 'none'", 'nosniff'])
  })

  it('the default JSON answer and a lost answer carry them too', async () => {
    const gitlab = await start()
    gitlab.faults.add({ path: SELF, times: 1, status: 503 })._unsafeUnwrap()
    const plain = await fetch(`${gitlab.url}${SELF}`, { headers: { 'PRIVATE-TOKEN': ALICE } })
    expect([plain.status, ...guard(plain)]).toEqual([503, "sandbox; default-src 'none'", 'nosniff'])
    gitlab.faults.add({ path: SELF, times: 1, lostAnswer: true, status: 504 })._unsafeUnwrap()
    const lost = await fetch(`${gitlab.url}${SELF}`, { headers: { 'PRIVATE-TOKEN': ALICE } })
    expect([lost.status, ...guard(lost)]).toEqual([504, "sandbox; default-src 'none'", 'nosniff'])
  })
})
