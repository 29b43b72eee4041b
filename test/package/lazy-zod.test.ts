import { execFileSync, spawn } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

// Runs against dist/, which `npm test` builds first. The list query parser's zod schema is most of a
// server's start-up (docs/benchmarks.md, target 9b), so patkit/http loads it on the first request that
// lists (src/http/list-params.ts): importing an entry must not load zod. A child Node process imports
// the entry with a module hook that refuses to resolve `zod`, so a static import of it anywhere in the
// entry's graph fails the import.

const dist = join(import.meta.dirname, '..', '..', 'dist')

const REFUSE_ZOD = `export async function resolve(specifier, context, next) {
  if (specifier === 'zod' || specifier.startsWith('zod/')) throw new Error('zod was loaded')
  return next(specifier, context)
}`

/** What the child saw: whether importing each file worked (true) or the error's message. */
function importWithoutZod(script: string): Record<string, unknown> {
  const program = `import { register } from 'node:module'
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(REFUSE_ZOD)}))
const dist = ${JSON.stringify(pathToFileURL(dist).href)} + '/'
const attempt = (promise) => promise.then(() => true, (e) => String(e?.message ?? e))
${script}`
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', program], { encoding: 'utf8' })
  return JSON.parse(out) as Record<string, unknown>
}

// Each test starts a Node process that imports the built package: seconds on a busy machine.
describe('importing an entry does not load zod', { timeout: 30_000 }, () => {
  it.each(['index.js', 'memory.js', 'store.js', 'http.js', 'node.js'])('dist/%s', (entry) => {
    const out = importWithoutZod(
      `console.log(JSON.stringify({ entry: await attempt(import(dist + ${JSON.stringify(entry)})) }))`,
    )
    expect(out['entry']).toBe(true)
  })

  it('the hook does refuse zod: a list request through patkit/http, which loads the parser, fails', () => {
    const out = importWithoutZod(`
const { createAuthority } = await import(dist + 'index.js')
const { memoryStore } = await import(dist + 'memory.js')
const { createHandler } = await import(dist + 'http.js')
const authority = createAuthority({ store: memoryStore({ users: [{ id: 1, username: 'root', admin: true, blocked: false }] }), pepper: 'p' })
const issued = (await authority.issueToken({ userId: 1, name: 'n', scopes: ['api'], expiresAt: '2099-01-01' }))._unsafeUnwrap()
const handler = createHandler(authority)
const request = (path) => handler(new Request('http://x/api/v4/personal_access_tokens' + path, { headers: { 'PRIVATE-TOKEN': issued.secret } }))
const self = await request('/self')
const list = await attempt(request('').then((r) => { if (r.status !== 200) throw new Error('status ' + r.status) }))
console.log(JSON.stringify({ self: self.status, list }))`)
    // A request that does not list never needs the parser; the first that lists loads it, and zod.
    expect(out['self']).toBe(200)
    expect(out['list']).not.toBe(true)
  })
})

// `patkit serve`'s own start (target 9b): the demo seed is written without its schema, which loads on
// the first restore or add; a start that loads zod fails under the hook.
describe('patkit serve starts without zod', { timeout: 30_000 }, () => {
  it('answers GET /self with the demo token while zod cannot load', async () => {
    const hook = `import { register } from 'node:module'
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(REFUSE_ZOD)}))`
    const child = spawn(
      process.execPath,
      [
        '--import',
        `data:text/javascript,${encodeURIComponent(hook)}`,
        join(dist, 'cli.js'),
        'serve',
        '--port',
        '0',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    try {
      const lines: string[] = []
      const reader = createInterface({ input: child.stdout })
      const started = new Promise<void>((resolve, reject) => {
        reader.on('line', (line) => {
          lines.push(line)
          if (lines.length === 2) resolve()
        })
        child.once('exit', (code) => reject(new Error(`patkit serve exited with ${code}`)))
      })
      await started
      const url = /listening on (\S+)/.exec(lines[0] ?? '')?.[1]
      const secret = /(glpat-\S+)/.exec(lines[1] ?? '')?.[1]
      expect(url).toBeDefined()
      expect(secret).toBeDefined()
      const self = await fetch(`${url}/api/v4/personal_access_tokens/self`, {
        headers: { 'PRIVATE-TOKEN': secret ?? '' },
      })
      expect(self.status).toBe(200)
    } finally {
      child.kill()
    }
  })
})
