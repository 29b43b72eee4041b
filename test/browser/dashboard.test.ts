import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createFakeGitLab } from '../../src/fake/fake-gitlab.js'

// The dashboard in Debian's chromium (playwright-core): it loads without a console error (a CSP
// violation is one), shows a rotation made over the API in its chain, drives the clock and the
// faults, and axe-core finds no serious or critical violation on any view. PATKIT_SCREENSHOTS=1 saves
// a screenshot of each view to docs/dashboard/ (CI leaves the tree clean).

const root = join(import.meta.dirname, '..', '..')
const CHROMIUM = '/usr/bin/chromium'
const missing = existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is not installed (apt-get install chromium)`
const required = process.env['PATKIT_REQUIRE_E2E'] === '1'
const screenshots = process.env['PATKIT_SCREENSHOTS'] === '1'
const CONTROL_TOKEN = 'dashboard-test-control-token'
const ALICE = 'glpat-dashboard-browser-alice1'
const BOB = 'glpat-dashboard-browser-bob001'
const WAIT = { timeout: 1000 }

const SEED = {
  users: [
    { id: 1, username: 'root', name: 'Administrator', admin: true },
    { id: 2, username: 'alice', name: 'Alice' },
    { id: 3, username: 'bob', name: 'Bob' },
    { id: 4, username: 'project_1_bot', bot: true, bot_namespace: { type: 'project' as const, id: 1 } },
  ],
  groups: [{ id: 1, path: 'acme', name: 'Acme', members: [{ user_id: 2, access_level: 50 }] }],
  projects: [{ id: 1, path: 'api', name: 'API', group_id: 1, members: [{ user_id: 4, access_level: 40 }] }],
  tokens: [
    { id: 1, user_id: 2, name: 'ci', scopes: ['api' as const], token: ALICE, expires_at: '2026-06-01' },
    {
      id: 2,
      user_id: 3,
      name: 'deploy',
      scopes: ['read_api' as const],
      token: BOB,
      expires_at: '2026-09-01',
    },
  ],
}

// Fake time frozen at a known instant: the pages and screenshots show the same dates on every run.
const start = () =>
  createFakeGitLab({ ...SEED, clock: new Date('2026-01-10T09:00:00Z'), controlToken: CONTROL_TOKEN })
type FakeGitLab = Awaited<ReturnType<typeof start>>

const VIEWS = [
  'tokens',
  'users',
  'groups',
  'projects',
  'journal',
  'deliveries',
  'clock',
  'faults',
  'data',
] as const

let gitlab: FakeGitLab | undefined
let browser: Browser | undefined
let context: BrowserContext | undefined
let page: Page | undefined
const consoleErrors: string[] = []

function skipped(ctx: { skip: (note?: string) => void }): boolean {
  if (missing === undefined) return false
  if (required) throw new Error(`PATKIT_REQUIRE_E2E=1 but ${missing}`)
  console.warn(`skipped: ${missing}`)
  ctx.skip(missing)
  return true
}

function opened(): { gitlab: FakeGitLab; page: Page } {
  if (gitlab === undefined || page === undefined) throw new Error('the fake or the browser did not start')
  return { gitlab, page }
}

async function api(path: string, secret: string, method = 'GET') {
  const response = await fetch(`${opened().gitlab.url}/api/v4${path}`, {
    method,
    headers: { 'private-token': secret },
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

async function view(name: (typeof VIEWS)[number]) {
  const { page } = opened()
  await page.click(`nav a[href="#${name}"]`)
  await page.waitForSelector(`h2#${name}-heading`)
}

// Evaluated over the DevTools protocol, which the page's CSP does not govern.
async function loadAxe(page: Page) {
  await page.evaluate(readFileSync(join(root, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8'))
}

// axe-core's serious and critical violations on the page as it is (loadAxe first).
function seriousViolations(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run: () => Promise<{
            violations: { id: string; impact: string | null; nodes: { target: unknown }[] }[]
          }>
        }
      }
    ).axe
    const result = await axe.run()
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${JSON.stringify(v.nodes.map((n) => n.target))}`)
  })
}

beforeAll(async () => {
  if (missing !== undefined) return
  // The assets as `npm run build` makes them (dist/dashboard), fresh from src.
  execFileSync(process.execPath, [join(root, 'scripts', 'build-dashboard.mjs')], { stdio: 'inherit' })
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await gitlab?.close()
})

beforeEach(async () => {
  if (browser === undefined) return
  await context?.close()
  await gitlab?.close()
  const fake = await start()
  gitlab = fake
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  // As if the user had typed the control token once: the page keeps it in sessionStorage.
  await context.addInitScript(
    `sessionStorage.setItem('patkit.controlToken', ${JSON.stringify(CONTROL_TOKEN)})`,
  )
  page = await context.newPage()
  consoleErrors.length = 0
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text())
  })
  page.on('pageerror', (error) => consoleErrors.push(String(error)))
  // Chromium's console names no URL for a failed load: this does.
  page.on('response', (response) => {
    if (response.status() >= 400) consoleErrors.push(`${response.status()} ${response.url()}`)
  })
  await page.goto(`${fake.url}/__patkit/`)
  await page.waitForSelector('table.tokens tbody tr[data-token-id="1"]')
})

// Seconds of chromium each; a busy machine (2 cores, several vitest workers) takes several times longer.
describe('the dashboard in chromium', { timeout: 30_000 }, () => {
  it('loads with its CSP and no console error', async (ctx) => {
    if (skipped(ctx)) return
    const { gitlab, page } = opened()
    const response = await fetch(`${gitlab.url}/__patkit/`)
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    for (const name of VIEWS) await view(name)
    await view('tokens')
    expect(await page.textContent('header')).toContain('2026-01-10 09:00:00 UTC')
    expect(consoleErrors).toEqual([])
  })

  it('shows a rotation made over the API in its chain, and a reuse at the presented token', async (ctx) => {
    if (skipped(ctx)) return
    const { page } = opened()
    await page.click('tr[data-token-id="1"] button')
    await page.waitForSelector('.chain li[data-token-id="1"]')
    const rotated = await api('/personal_access_tokens/self/rotate', ALICE, 'POST')
    expect(rotated.status).toBe(200)
    const successor = rotated.body['id'] as number
    // Within a second, through the journal stream; no other timing is asserted.
    await page.waitForSelector(`.chain li[data-token-id="${successor}"]`, WAIT)
    // The old secret again: reuse detected, the family revoked.
    expect((await api('/personal_access_tokens/self/rotate', ALICE, 'POST')).status).toBe(401)
    await page.waitForSelector(`.chain li[data-token-id="${successor}"].link-reuse_revoked`, WAIT)
    expect(await page.textContent('.chain li[data-token-id="1"] .reuse')).toContain('Reuse detected')
    expect(await page.textContent(`.chain li[data-token-id="${successor}"] .state`)).toContain(
      'revoked on reuse',
    )
    expect(await page.textContent('.curl')).toContain('PRIVATE-TOKEN: <your-token>')
    expect(await page.textContent('body')).not.toContain(ALICE)
    expect(consoleErrors).toEqual([])
  })

  it('advances the clock from the page: the token shows expired and the API answers 401', async (ctx) => {
    if (skipped(ctx)) return
    const { page } = opened()
    expect((await api('/personal_access_tokens/self', ALICE)).status).toBe(200)
    await view('clock')
    await page.fill('input[name="amount"]', '200')
    await page.selectOption('select[name="unit"]', 'days')
    await page.click('button:has-text("Advance the clock")')
    await page.waitForSelector('[data-testid="clock-now"]:has-text("2026-07-29")', WAIT)
    await view('tokens')
    await page.waitForSelector('tr[data-token-id="1"] .state-expired', WAIT)
    expect((await api('/personal_access_tokens/self', ALICE)).status).toBe(401)
    expect(consoleErrors).toEqual([])
  })

  it('adds a fault from the page that changes the API answer, and removes it', async (ctx) => {
    if (skipped(ctx)) return
    const { page } = opened()
    await view('faults')
    await page.fill('input[name="path"]', '/api/v4/personal_access_tokens/self')
    await page.fill('input[name="status"]', '503')
    await page.click('button:has-text("Add fault rule")')
    await page.waitForSelector('.rules li', WAIT)
    expect((await api('/personal_access_tokens/self', BOB)).status).toBe(503)
    await page.click('.rules li button')
    await page.waitForSelector('text=No fault rule', WAIT)
    expect((await api('/personal_access_tokens/self', BOB)).status).toBe(200)
    expect(consoleErrors).toEqual([])
  })

  // Issue 28, item 2: one click on "Reset" emptied or replaced the data with no question asked.
  it('asks before a reset: cancel changes nothing, confirm resets', async (ctx) => {
    if (skipped(ctx)) return
    const { page } = opened()
    // A change to undo: alice's token rotated, its secret no longer works.
    expect((await api('/personal_access_tokens/self/rotate', ALICE, 'POST')).status).toBe(200)
    await view('data')
    await page.click('button:has-text("Reset to the start")')
    const dialog = page.getByRole('dialog', { name: 'Reset the data?' })
    await dialog.waitFor(WAIT)
    // Focus is in the dialog, on the safe choice.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ ...WAIT, state: 'hidden' })
    await page.waitForSelector('[role="status"]:has-text("Nothing changed")', WAIT)
    expect((await api('/personal_access_tokens/self', ALICE)).status).toBe(401)
    // Escape is a cancel too.
    await page.click('button:has-text("Reset to the start")')
    await dialog.waitFor(WAIT)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ ...WAIT, state: 'hidden' })
    expect((await api('/personal_access_tokens/self', ALICE)).status).toBe(401)
    await page.click('button:has-text("Reset to the start")')
    await dialog.getByRole('button', { name: 'Reset', exact: true }).click()
    await page.waitForSelector('[role="status"]:has-text("Reset to the start: 4 users, 2 tokens")', WAIT)
    expect((await api('/personal_access_tokens/self', ALICE)).status).toBe(200)
    expect(consoleErrors).toEqual([])
  })

  it('asks before a restore: cancel keeps the data, confirm restores the file', async (ctx) => {
    if (skipped(ctx)) return
    const { page } = opened()
    await view('data')
    const file = {
      name: 'other.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ users: [{ id: 9, username: 'zed' }] })),
    }
    const dialog = page.getByRole('dialog', { name: 'Restore other.json?' })
    await page.setInputFiles('input[type="file"]', file)
    await dialog.waitFor(WAIT)
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ ...WAIT, state: 'hidden' })
    expect((await api('/personal_access_tokens/self', ALICE)).status).toBe(200)
    await page.setInputFiles('input[type="file"]', file)
    await dialog.getByRole('button', { name: 'Restore', exact: true }).click()
    await page.waitForSelector('[role="status"]:has-text("Restored other.json: 1 users, 0 tokens")', WAIT)
    expect((await api('/personal_access_tokens/self', ALICE)).status).toBe(401)
    expect(consoleErrors).toEqual([])
  })

  it('has no serious or critical axe-core violation on any view', async (ctx) => {
    if (skipped(ctx)) return
    const { page } = opened()
    // A family with a rotation and a reuse, for the tokens view; some journal entries.
    const rotated = await api('/personal_access_tokens/self/rotate', ALICE, 'POST')
    await api('/personal_access_tokens/self/rotate', ALICE, 'POST')
    await api('/personal_access_tokens/self', BOB)
    // A fault rule to list, for the faults view.
    await fetch(`${opened().gitlab.url}/__patkit/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-patkit-control-token': CONTROL_TOKEN },
      body: JSON.stringify({
        method: 'POST',
        path: '/api/v4/personal_access_tokens/*',
        times: 2,
        status: 503,
      }),
    })
    await page.click('tr[data-token-id="1"] button')
    await page.waitForSelector(`.chain li[data-token-id="${rotated.body['id'] as number}"]`)
    await loadAxe(page)
    if (screenshots) mkdirSync(join(root, 'docs', 'dashboard'), { recursive: true })
    const serious = () => seriousViolations(page)
    const found: string[] = []
    for (const name of VIEWS) {
      if (name !== 'tokens') await view(name)
      else await page.waitForSelector('.chain .reuse')
      if (name === 'journal') await page.waitForSelector('table.journal tbody tr')
      if (name === 'users') await page.waitForSelector('h2#users-heading ~ .table-scroll table tbody tr')
      const violations = await serious()
      found.push(...violations.map((v) => `${name}: ${v}`))
      if (screenshots)
        await page.screenshot({ path: join(root, 'docs', 'dashboard', `${name}.png`), fullPage: true })
    }
    // The confirmation dialog, open over the data view (the last one).
    await page.click('button:has-text("Reset to the start")')
    await page.getByRole('dialog', { name: 'Reset the data?' }).waitFor(WAIT)
    found.push(...(await serious()).map((v) => `data, reset dialog: ${v}`))
    expect(found).toEqual([])
    expect(consoleErrors).toEqual([])
  })
})

async function control(path: string, method = 'GET', body?: unknown) {
  const response = await fetch(`${opened().gitlab.url}/__patkit${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-patkit-control-token': CONTROL_TOKEN },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return response.status
}

// Issue 32: what a tester sees keeps up with the fake, and reads as the API does.
describe('the dashboard keeps up', { timeout: 30_000 }, () => {
  const SOON = { timeout: 2000 }

  it('shows a fault rule added over the API within 2 s, and its hits', async (ctx) => {
    if (skipped(ctx)) return
    const { page } = opened()
    await view('faults')
    await page.waitForSelector('text=No fault rule')
    expect(
      await control('/faults', 'POST', { path: '/api/v4/personal_access_tokens/self', status: 503 }),
    ).toBe(201)
    await page.waitForSelector('.rules li:has-text("0 hits")', SOON)
    expect((await api('/personal_access_tokens/self', BOB)).status).toBe(503)
    expect((await api('/personal_access_tokens/self', BOB)).status).toBe(503)
    await page.waitForSelector('.rules li:has-text("2 hits")', SOON)
    expect(await control('/faults', 'DELETE')).toBe(204)
    await page.waitForSelector('text=No fault rule', SOON)
    expect(consoleErrors).toEqual([])
  })

  it('has no sideways scroll at 390 px on any view; the filters are folded; a family scrolls into view', async (ctx) => {
    if (skipped(ctx)) return
    const { page } = opened()
    await page.setViewportSize({ width: 390, height: 844 })
    await api('/personal_access_tokens/self', 'glpat-not-a-known-token-000')
    const wide: string[] = []
    for (const name of VIEWS) {
      await view(name)
      if (name === 'journal') await page.waitForSelector('table.journal tbody tr')
      const width = await page.evaluate(() => document.documentElement.scrollWidth)
      if (width > 390) wide.push(`${name}: ${width} px`)
    }
    expect(wide).toEqual([])
    await view('tokens')
    // The filters come folded: the first token is the first thing under the heading.
    expect(await page.getAttribute('details.filter-fold', 'open')).toBeNull()
    await page.click('tr[data-token-id="2"] button')
    await page.waitForSelector('.chain li[data-token-id="2"]')
    await page.waitForFunction(
      () => {
        const top = document.querySelector('#family-heading')?.getBoundingClientRect().top
        return top !== undefined && top >= 0 && top < innerHeight
      },
      undefined,
      SOON,
    )
    expect(consoleErrors).toEqual([])
  })

  it('names users, says "revoked on reuse" in the table too, takes ISO dates and shows times relative to the fake clock', async (ctx) => {
    if (skipped(ctx)) return
    const { page } = opened()
    expect(await page.textContent('tr[data-token-id="1"] td:nth-child(3)')).toContain('alice')
    // 2026-06-01 is 142 days after the fake's 2026-01-10 09:00.
    expect(await page.textContent('tr[data-token-id="1"] td:nth-child(7)')).toContain('in 142 days')
    expect(await page.getAttribute('input[name="created_after"]', 'type')).toBe('text')
    expect(await page.getAttribute('input[name="created_after"]', 'placeholder')).toMatch(
      /^\d{4}-\d{2}-\d{2}$/,
    )
    const rotated = await api('/personal_access_tokens/self/rotate', ALICE, 'POST')
    const successor = rotated.body['id'] as number
    expect((await api('/personal_access_tokens/self/rotate', ALICE, 'POST')).status).toBe(401)
    await page.waitForSelector(`tr[data-token-id="${successor}"] .state-reuse_revoked`, SOON)
    expect(await page.textContent(`tr[data-token-id="${successor}"] .state`)).toContain('revoked on reuse')
    await view('groups')
    await page.waitForSelector('h2#groups-heading ~ .table-scroll tbody tr')
    expect(await page.textContent('h2#groups-heading ~ .table-scroll tbody tr')).toContain('alice')
    await view('projects')
    await page.waitForSelector('h2#projects-heading ~ .table-scroll tbody tr')
    expect(await page.textContent('h2#projects-heading ~ .table-scroll tbody tr')).toContain('project_1_bot')
    expect(await page.textContent('body')).not.toMatch(/\buser [0-9]/)
    expect(consoleErrors).toEqual([])
  })

  it('says so when there is no group or project', async (ctx) => {
    if (skipped(ctx)) return
    const { page } = opened()
    expect(await control('/state', 'PUT', { users: SEED.users.slice(0, 3) })).toBe(200)
    await view('groups')
    await page.waitForSelector('p.empty:has-text("No group yet")', SOON)
    await view('projects')
    await page.waitForSelector('p.empty:has-text("No project yet")', SOON)
    expect(consoleErrors).toEqual([])
  })

  it("shows a refusal's reason in the journal, and its detail with credentials filtered", async (ctx) => {
    if (skipped(ctx)) return
    const { page } = opened()
    expect((await api('/personal_access_tokens/self', 'glpat-dashboard-browser-alice9')).status).toBe(401)
    await view('journal')
    const row = 'table.journal tbody tr.entry-request'
    await page.waitForSelector(`${row} .reason-code:has-text("unknown_token")`, SOON)
    expect(await page.textContent(`${row} .reason`)).toContain('closest known token is 1')
    await page.click(`${row} details summary`)
    const detail = await page.textContent(`${row} details`)
    expect(detail).toContain('private-token')
    expect(detail).toContain('[FILTERED]')
    expect(detail).toContain('401 Unauthorized')
    expect(await page.textContent('body')).not.toContain('browser-alice9')
    expect(consoleErrors).toEqual([])
  })

  it('says where a snapshot holds plaintext secrets', async (ctx) => {
    if (skipped(ctx)) return
    const { page } = opened()
    await view('data')
    expect(await page.textContent('section[aria-labelledby="data-heading"]')).toContain('plaintext')
    const download = page.waitForEvent('download')
    await page.click('button:has-text("Download a snapshot")')
    await download
    await page.waitForSelector('[role="status"]:has-text("2 plaintext secrets")', SOON)
    expect(consoleErrors).toEqual([])
  })

  it('with a control token to type: no failed load before it, a wrong one said so, a stopped fake said so', async (ctx) => {
    if (skipped(ctx) || browser === undefined) return
    const fake = opened().gitlab
    const fresh = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await fresh.newPage()
    const failed: string[] = []
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`)
    })
    await page.goto(`${fake.url}/__patkit/`)
    await page.waitForSelector('h2#token-heading')
    // One probe found the token is needed; no view loaded without it.
    expect(failed.length).toBeLessThanOrEqual(1)
    expect(await page.textContent('header')).not.toContain('unknown')
    expect(await page.textContent('header')).toContain('needs the control token')
    await page.fill('.token-prompt input', 'not-the-control-token')
    await page.click('.token-prompt button')
    await page.waitForSelector('.token-prompt [role="alert"]:has-text("refused")', SOON)
    await page.fill('.token-prompt input', CONTROL_TOKEN)
    await page.click('.token-prompt button')
    await page.waitForSelector('table.tokens tbody tr[data-token-id="1"]', SOON)
    await page.waitForSelector('header:has-text("(frozen)")', SOON)
    // The fake stops: the header says so (and the next test starts a fake of its own).
    gitlab = undefined
    await fake.close()
    await page.waitForSelector('header:has-text("does not answer")', { timeout: 3000 })
    expect(await page.textContent('header')).not.toContain('(frozen)')
    await fresh.close()
  })
})

// Issues 33 and 31: the webhook deliveries as they are made, and a fine-grained token's scopes.
describe('the dashboard shows deliveries and fine-grained scopes', { timeout: 30_000 }, () => {
  const SOON = { timeout: 2000 }
  const HOOK_SECRET = 'browser-hook-secret-0001'

  it("shows an expiry webhook delivery as it is made, with its payload, the hook's secret never shown", async (ctx) => {
    if (skipped(ctx)) return
    const { gitlab, page } = opened()
    const receiver = createServer((request, response) => {
      request.resume()
      request.on('end', () => response.end('thanks'))
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = receiver.address() as AddressInfo
      await view('deliveries')
      await page.waitForSelector('text=No webhook delivery yet')
      // Alice owns group 1, so she maintains its project 1, whose bot (user 4) gets a token with 5 days left.
      const hook = await fetch(`${gitlab.apiUrl}/projects/1/hooks`, {
        method: 'POST',
        headers: { 'private-token': ALICE, 'content-type': 'application/json' },
        body: JSON.stringify({
          url: `http://127.0.0.1:${port}/hook`,
          token: HOOK_SECRET,
          resource_access_token_events: true,
        }),
      })
      expect(hook.status).toBe(201)
      expect(
        await control('/tokens', 'POST', {
          user_id: 4,
          name: 'deploy',
          scopes: ['api'],
          expires_at: '2026-01-15',
        }),
      ).toBe(201)
      expect(await control('/clock/advance', 'POST', { days: 1 })).toBe(200)
      // No reload: the delivery's journal event makes the view read again.
      const row = page.locator('table.deliveries tbody tr').first()
      await row.waitFor(SOON)
      expect(await row.textContent()).toContain('expiry notice, 7 days')
      expect(await row.locator('td').nth(4).textContent()).toBe('200')
      await row.locator('summary').click()
      const detail = (await row.locator('details').textContent()) ?? ''
      expect(detail).toContain('"event_name": "expiring_access_token"')
      expect(detail).toContain('X-Gitlab-Event')
      expect(await page.content()).not.toContain(HOOK_SECRET)
      // The journal shows the delivery as one line, like a request's, with the token it is about.
      await view('journal')
      const line = page.locator('table.journal tr:has(td:has-text("event: webhook_delivery"))').first()
      await line.waitFor(SOON)
      expect(await line.locator('td code').textContent()).toMatch(
        new RegExp(
          `^webhook_delivery POST http://127\\.0\\.0\\.1:${port}/hook → 200 \\(\\d+ ms\\), expiry notice, 7 days, hook #\\d+$`,
        ),
      )
      expect(await line.locator('td').nth(3).textContent()).not.toBe('')
      // At a phone's width the journal scrolls in its box, and no cell of a row breaks inside a word:
      // each word's characters stay on one line (a word broken across lines has two client rectangles).
      await page.setViewportSize({ width: 390, height: 844 })
      const broken = await page.evaluate(() => {
        const found: string[] = []
        for (const cell of document.querySelectorAll('table.journal td, table.journal th')) {
          const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT)
          for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
            // A detail opened on demand (headers, a JSON body in a pre) wraps as its own box does.
            if (node.parentElement?.closest('details') !== null) continue
            const text = node.textContent ?? ''
            for (const match of text.matchAll(/\S+/g)) {
              const range = document.createRange()
              range.setStart(node, match.index)
              range.setEnd(node, match.index + match[0].length)
              const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)))
              if (lines.size > 1) found.push(match[0])
            }
          }
        }
        return found
      })
      await page.setViewportSize({ width: 1280, height: 900 })
      expect(broken).toEqual([])
      expect(consoleErrors).toEqual([])
    } finally {
      receiver.closeAllConnections()
      await new Promise<void>((resolve) => receiver.close(() => resolve()))
    }
  })

  it("marks a fine-grained token and lists its scopes; a legacy token's scopes stay a list", async (ctx) => {
    if (skipped(ctx)) return
    const { gitlab, page } = opened()
    const created = await fetch(`${gitlab.apiUrl}/user/personal_access_tokens`, {
      method: 'POST',
      headers: { 'private-token': ALICE, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'fine',
        granular_scopes: [{ access: 'user', permissions: ['read_user', 'read_personal_access_token'] }],
      }),
    })
    expect(created.status).toBe(201)
    const id = ((await created.json()) as { id: number }).id
    const row = page.locator(`table.tokens tr[data-token-id="${id}"]`)
    await row.waitFor(SOON)
    const scopes = row.locator('td').nth(4)
    expect(await scopes.locator('.fine-grained').textContent()).toBe('fine-grained')
    expect(await scopes.locator('.granular-scopes li').allTextContents()).toEqual([
      'user: read_user, read_personal_access_token',
    ])
    expect(await page.locator('table.tokens tr[data-token-id="1"] td').nth(4).textContent()).toBe('api')
    expect(consoleErrors).toEqual([])
  })

  it("names each delivery's project or group, and shows a refused delivery as it is made", async (ctx) => {
    if (skipped(ctx)) return
    const { gitlab, page } = opened()
    const receiver = createServer((request, response) => {
      request.resume()
      request.on('end', () => response.end('thanks'))
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    // A port nothing listens on any more: the project hook's delivery is refused.
    const gone = createServer()
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve))
    const closedPort = (gone.address() as AddressInfo).port
    await new Promise<void>((resolve) => gone.close(() => resolve()))
    try {
      const { port } = receiver.address() as AddressInfo
      await view('deliveries')
      await page.waitForSelector('text=No webhook delivery yet')
      const addHook = async (path: string, url: string, token?: string) => {
        const made = await fetch(`${gitlab.apiUrl}${path}/hooks`, {
          method: 'POST',
          headers: { 'private-token': ALICE, 'content-type': 'application/json' },
          body: JSON.stringify({
            url,
            resource_access_token_events: true,
            ...(token === undefined ? {} : { token }),
          }),
        })
        expect(made.status).toBe(201)
        return ((await made.json()) as { id: number }).id
      }
      const projectHook = await addHook('/projects/1', `http://127.0.0.1:${closedPort}/hook`)
      const groupHook = await addHook('/groups/1', `http://127.0.0.1:${port}/hook`, HOOK_SECRET)
      expect(
        await control('/tokens', 'POST', {
          user_id: 4,
          name: 'deploy',
          scopes: ['api'],
          expires_at: '2026-01-15',
        }),
      ).toBe(201)
      expect(await control('/clock/advance', 'POST', { days: 1 })).toBe(200)
      // No reload: both rows come with the deliveries' journal events.
      const rows = page.locator('table.deliveries tbody tr')
      await rows.nth(1).waitFor(SOON)
      const byHook = async (text: string) => {
        const row = rows.filter({ hasText: text })
        await row.waitFor(SOON)
        return row
      }
      const refused = await byHook(`project 1, hook #${projectHook}`)
      expect(await refused.locator('td').nth(4).textContent()).toContain('connection refused')
      expect(await refused.locator('td').nth(4).locator('.delivery-failed').textContent()).toBe(
        'connection refused',
      )
      await refused.locator('summary').click()
      expect(await refused.locator('details').textContent()).toContain('Answer (none)')
      const answered = await byHook(`group 1, hook #${groupHook}`)
      expect(await answered.locator('td').nth(4).textContent()).toBe('200')
      // Rows, a failure and an open detail: still no serious or critical axe-core violation.
      await loadAxe(page)
      expect(await seriousViolations(page)).toEqual([])
      // The page lists what the control API does, newest first.
      const listed = (await (
        await fetch(`${gitlab.url}/__patkit/deliveries`, {
          headers: { 'x-patkit-control-token': CONTROL_TOKEN },
        })
      ).json()) as { deliveries: { id: number }[] }
      expect(
        await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-delivery-id')))),
      ).toEqual(listed.deliveries.map((d) => d.id))
      // Neither view holds the group hook's secret, the deliveries' nor the journal's (its entries too).
      expect(await page.content()).not.toContain(HOOK_SECRET)
      await view('journal')
      await page.waitForSelector('table.journal td:has-text("event: webhook_delivery")', SOON)
      expect(await page.content()).not.toContain(HOOK_SECRET)
      // The failed delivery is an error in the page's data, never in its console.
      expect(consoleErrors).toEqual([])
    } finally {
      receiver.closeAllConnections()
      await new Promise<void>((resolve) => receiver.close(() => resolve()))
    }
  })

  it("keeps a hook's secret out of every view, each detail open; a notice's token opens its family; PATKIT_SCREENSHOTS=1 saves the Deliveries view", async (ctx) => {
    if (skipped(ctx)) return
    const { gitlab, page } = opened()
    const receiver = createServer((request, response) => {
      request.resume()
      request.on('end', () => response.end('thanks'))
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    const QUERY_SECRET = 'browser-hook-query-secret-0002'
    try {
      const { port } = receiver.address() as AddressInfo
      await view('deliveries')
      await page.waitForSelector('text=No webhook delivery yet')
      // The project hook's secret in a JSON body; the group hook's in the query string, which the
      // journal records (a credential's value filtered).
      const project = await fetch(`${gitlab.apiUrl}/projects/1/hooks`, {
        method: 'POST',
        headers: { 'private-token': ALICE, 'content-type': 'application/json' },
        body: JSON.stringify({
          url: `http://127.0.0.1:${port}/project`,
          token: HOOK_SECRET,
          resource_access_token_events: true,
        }),
      })
      expect(project.status).toBe(201)
      const projectHook = ((await project.json()) as { id: number }).id
      const query = new URLSearchParams({
        url: `http://127.0.0.1:${port}/group`,
        token: QUERY_SECRET,
        resource_access_token_events: 'true',
      })
      const group = await fetch(`${gitlab.apiUrl}/groups/1/hooks?${query}`, {
        method: 'POST',
        headers: { 'private-token': ALICE },
      })
      expect(group.status).toBe(201)
      expect(
        await control('/tokens', 'POST', {
          user_id: 4,
          name: 'deploy',
          scopes: ['api'],
          expires_at: '2026-01-15',
        }),
      ).toBe(201)
      expect(await control('/clock/advance', 'POST', { days: 1 })).toBe(200)
      const tested = await fetch(
        `${gitlab.apiUrl}/projects/1/hooks/${projectHook}/test/resource_access_token_events`,
        { method: 'POST', headers: { 'private-token': ALICE } },
      )
      expect(tested.status).toBe(201)
      // Three rows, live: the test trigger's comes first (newest).
      const rows = page.locator('table.deliveries tbody tr')
      await rows.nth(2).waitFor(SOON)
      expect(await rows.first().locator('td').nth(2).textContent()).toContain('test trigger')
      await rows.first().locator('summary').click()
      const headers = rows.first().locator('details dl.pairs')
      expect(await headers.textContent()).toContain('[REDACTED]')
      if (screenshots)
        await page.screenshot({ path: join(root, 'docs', 'dashboard', 'deliveries.png'), fullPage: true })
      const leaks: string[] = []
      for (const name of VIEWS) {
        await view(name)
        if (name === 'journal')
          await page.waitForSelector('table.journal td:has-text("event: webhook_delivery")', SOON)
        if (name === 'deliveries') await rows.nth(2).waitFor(SOON)
        // Every fold open (a request's detail, a delivery's payload and headers, the token filters).
        await page.evaluate(() => {
          for (const fold of document.querySelectorAll('details')) fold.open = true
        })
        const content = await page.content()
        for (const secret of [HOOK_SECRET, QUERY_SECRET])
          if (content.includes(secret)) leaks.push(`${name}: ${secret}`)
      }
      expect(leaks).toEqual([])
      // At a phone's width, every delivery open, the table scrolls in its box, never the page.
      await view('deliveries')
      await rows.nth(2).waitFor(SOON)
      await page.setViewportSize({ width: 390, height: 844 })
      await page.evaluate(() => {
        for (const fold of document.querySelectorAll('details')) fold.open = true
      })
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
      await page.setViewportSize({ width: 1280, height: 900 })
      // A notice's token opens its family among its owner's tokens; a test trigger's is GitLab's sample.
      expect(await rows.first().locator('td').nth(3).textContent()).toBe('sample')
      const listed = (await (
        await fetch(`${gitlab.url}/__patkit/deliveries`, {
          headers: { 'x-patkit-control-token': CONTROL_TOKEN },
        })
      ).json()) as { deliveries: { cause: string; token_id: number | null }[] }
      const noticed = listed.deliveries.find((d) => d.cause === 'expiry')?.token_id
      expect(noticed).toEqual(expect.any(Number))
      await rows
        .nth(1)
        .getByRole('button', { name: `Family of token ${noticed}` })
        .click()
      await page.waitForSelector(`h2#family-heading:has-text("Family of token ${noticed}")`, SOON)
      expect(await page.inputValue('form.filters input[name="user_id"]')).toBe('4')
      await page.waitForSelector(`table.tokens tr.selected[data-token-id="${noticed}"]`, SOON)
      expect(consoleErrors).toEqual([])
    } finally {
      receiver.closeAllConnections()
      await new Promise<void>((resolve) => receiver.close(() => resolve()))
    }
  })

  it("shows a fine-grained token's scopes in its family, and a legacy token's list there", async (ctx) => {
    if (skipped(ctx)) return
    const { gitlab, page } = opened()
    const created = await fetch(`${gitlab.apiUrl}/user/personal_access_tokens`, {
      method: 'POST',
      headers: { 'private-token': ALICE, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'fine',
        granular_scopes: [{ access: 'personal_projects', permissions: ['read_project'] }],
      }),
    })
    expect(created.status).toBe(201)
    const id = ((await created.json()) as { id: number }).id
    const row = page.locator(`table.tokens tr[data-token-id="${id}"]`)
    await row.waitFor(SOON)
    await row.locator('button', { hasText: `Family of #${id}` }).click()
    const scopes = page.locator('section.family .family-scopes')
    await scopes.waitFor(SOON)
    expect(await scopes.locator('h3').textContent()).toBe(`Scopes of token ${id}`)
    expect(await scopes.locator('.fine-grained').textContent()).toBe('fine-grained')
    expect(await scopes.locator('.granular-scopes li').allTextContents()).toEqual([
      'personal_projects: read_project',
    ])
    await loadAxe(page)
    expect(await seriousViolations(page)).toEqual([])
    await page.locator('table.tokens tr[data-token-id="1"] button', { hasText: 'Family of #1' }).click()
    await page.waitForSelector('h2#family-heading:has-text("Family of token 1")', SOON)
    expect(await scopes.locator('.fine-grained').count()).toBe(0)
    expect((await scopes.textContent())?.replace(`Scopes of token 1`, '').trim()).toBe('api')
    expect(consoleErrors).toEqual([])
  })
})
