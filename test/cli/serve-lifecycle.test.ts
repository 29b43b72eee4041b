import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { cli, killAll, root, runCli, SERVE_TIMEOUT, startServe, WAIT_MS } from './support/cli-process.js'

// Start-up and shutdown of `patkit serve` as a test harness or an operator meets them: what start-up
// may change in an existing database, the pepper guard, masked passwords, bounded shutdown, and a
// server that never outlives the process that started it.

const dir = mkdtempSync(join(tmpdir(), 'patkit-cli-life-'))
afterEach(killAll)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const PEPPER = 'a-long-enough-pepper-for-these-tests-0123456789'

function file(name: string, content: unknown): string {
  const path = join(dir, name)
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content))
  return path
}

const self = (apiUrl: string, secret: string) =>
  fetch(`${apiUrl}/personal_access_tokens/self`, { headers: { 'PRIVATE-TOKEN': secret } })

/** The users and tokens tables of a SQLite file, read directly (not through patkit). */
function sqliteRows(path: string) {
  const db = new Database(path, { readonly: true })
  try {
    return {
      users: db.prepare('select id, username, admin, blocked from patkit_users order by id').all(),
      tokens: db.prepare('select id, user_id, name, revoked from patkit_tokens order by id').all(),
    }
  } finally {
    db.close()
  }
}

describe('patkit serve: start-up never changes an existing database', { timeout: SERVE_TIMEOUT }, () => {
  it('without --seed on a database that holds data, creates no demo users or tokens and says so', async () => {
    const database = `sqlite:${join(dir, 'existing.db')}`
    const seed = file('existing.json', {
      users: [
        { id: 1, username: 'boss', admin: false },
        { id: 2, username: 'blocked-bob', blocked: true },
      ],
      tokens: [{ id: 5, user_id: 1, name: 'mine', scopes: ['api'], token: 'glpat-existing-secret-0001' }],
    })
    const seeded = await startServe(
      ['--no-control', '--database', database, '--pepper', PEPPER, '--seed', seed],
      {
        extraLines: 1,
      },
    )
    expect(await seeded.stop()).toEqual({ code: 0, signal: null })
    const before = sqliteRows(join(dir, 'existing.db'))

    const plain = await startServe(['--no-control', '--database', database, '--pepper', PEPPER], {
      extraLines: 1,
    })
    expect(plain.lines[1]).toBe(
      'the database already holds users or tokens: no demo users or tokens were created (use --seed FILE for known ones)',
    )
    expect(await plain.stop()).toEqual({ code: 0, signal: null })
    expect(sqliteRows(join(dir, 'existing.db'))).toEqual(before)
    expect(before.users).toEqual([
      { id: 1, username: 'boss', admin: 0, blocked: 0 },
      { id: 2, username: 'blocked-bob', admin: 0, blocked: 1 },
    ])
  })

  it('without --seed on an empty database, creates the demo users, group, project, bot and tokens', async () => {
    const path = join(dir, 'empty.db')
    const server = await startServe(['--no-control', '--database', `sqlite:${path}`, '--pepper', PEPPER], {
      extraLines: 3,
    })
    const rootSecret = /^root \(admin\): (glpat-\S+)$/.exec(server.lines[1] ?? '')?.[1] ?? ''
    expect((await self(server.apiUrl, rootSecret)).status).toBe(200)
    expect(await server.stop()).toEqual({ code: 0, signal: null })
    const rows = sqliteRows(path)
    expect(rows.users).toEqual([
      { id: 1, username: 'root', admin: 1, blocked: 0 },
      { id: 2, username: 'alice', admin: 0, blocked: 0 },
      { id: 3, username: 'project_1_bot_5e1f0c0ffee0d15ea5e0000000000001', admin: 0, blocked: 0 },
    ])
    expect(rows.tokens.map((token) => (token as { user_id: number }).user_id)).toEqual([1, 2, 3])
    const db = new Database(path, { readonly: true })
    try {
      expect(db.prepare('select id, full_path from patkit_projects').all()).toEqual([
        { id: 1, full_path: 'demo/app' },
      ])
      expect(db.prepare('select id, full_path from patkit_groups').all()).toEqual([
        { id: 1, full_path: 'demo' },
      ])
    } finally {
      db.close()
    }
  })
})

describe('patkit serve: the pepper', { timeout: SERVE_TIMEOUT }, () => {
  it('refuses to start on a database written with another pepper, and starts with the right one from a file', async () => {
    const path = join(dir, 'pepper.db')
    const database = `sqlite:${path}`
    const seed = file('pepper.json', {
      users: [{ id: 2, username: 'alice' }],
      tokens: [{ id: 3, user_id: 2, name: 'ci', scopes: ['api'], token: 'glpat-pepper-check-secret' }],
    })
    const first = await startServe(
      ['--no-control', '--database', database, '--pepper', PEPPER, '--seed', seed],
      {
        extraLines: 1,
      },
    )
    expect(await first.stop()).toEqual({ code: 0, signal: null })

    const wrong = runCli([
      'serve',
      '--port',
      '0',
      '--no-control',
      '--database',
      database,
      '--pepper',
      `${PEPPER}-other`,
    ])
    expect((await wrong.exited()).code).toBe(1)
    expect(wrong.lines).toEqual([])
    expect(wrong.stderr()).toContain(
      `patkit serve: sqlite:${path} was written with a different pepper: none of its tokens would authenticate with this one`,
    )
    expect(wrong.stderr()).not.toContain(PEPPER)

    const fromFile = await startServe(
      ['--no-control', '--database', database, '--pepper-file', file('pepper.txt', `${PEPPER}\n`)],
      {
        extraLines: 1,
      },
    )
    expect((await self(fromFile.apiUrl, 'glpat-pepper-check-secret')).status).toBe(200)
    expect(await fromFile.stop()).toEqual({ code: 0, signal: null })
  })

  it.each([
    [
      'a short pepper',
      ['--pepper', 'short'],
      'warning: the pepper is 5 characters long; use at least 32 random characters',
    ],
    [
      'the public development pepper given explicitly',
      ['--pepper', 'patkit-insecure-development-pepper'],
      'warning: the pepper given is the public development pepper',
    ],
  ])('warns about %s', async (_, args, warning) => {
    const server = await startServe(args)
    expect(await server.stop()).toEqual({ code: 0, signal: null })
    expect(server.stderr()).toContain(`patkit serve: ${warning}`)
  })

  it('a long explicit pepper gets no warning', async () => {
    const server = await startServe(['--pepper', PEPPER])
    expect(await server.stop()).toEqual({ code: 0, signal: null })
    expect(server.stderr()).not.toContain('warning')
  })

  it.each([
    [['--pepper', PEPPER, '--pepper-file', 'x'], '--pepper and --pepper-file exclude each other'],
    [['--pepper-file', join(dir, 'missing.txt')], 'cannot be read'],
    [['--pepper-file', 'EMPTY'], 'is empty'],
  ])('rejects %j with exit code 2', async (args, message) => {
    const resolved = args.map((arg) => (arg === 'EMPTY' ? file('empty-pepper.txt', '\n') : arg))
    const run = runCli(['serve', ...resolved])
    expect((await run.exited()).code).toBe(2)
    expect(run.stderr()).toContain(message)
  })
})

describe('patkit serve: database passwords never reach the output', { timeout: SERVE_TIMEOUT }, () => {
  it.each([
    ['postgres://patkit:s3cr3t-one@127.0.0.1:1/none'],
    ['postgres://patkit@127.0.0.1:1/none?password=s3cr3t-one&sslpassword=s3cr3t-two'],
    ['mysql://root:s3cr3t-one@127.0.0.1:1/none'],
    ['postgres://patkit:s3cr3t-one@/no-host'],
    ['postgres ://patkit:s3cr3t-one@127.0.0.1/x password=s3cr3t-two'],
  ])('%s', async (url) => {
    const run = runCli(['serve', '--port', '0', '--no-control', '--database', url])
    expect((await run.exited()).code).not.toBe(0)
    expect(run.stderr()).toMatch(/\*\*\*/)
    expect(run.stderr()).not.toContain('s3cr3t')
  })
})

describe('patkit serve: shutdown', { timeout: SERVE_TIMEOUT }, () => {
  it('a client that never finishes its request cannot hold the shutdown beyond the grace', async () => {
    const server = await startServe(['--shutdown-grace', '1'])
    const { port } = new URL(server.url)
    const socket = connect(Number(port), '127.0.0.1')
    await new Promise<void>((resolve) => socket.once('connect', resolve))
    // Headers begun, never finished: Node's own header timeout is a minute.
    socket.write('GET /api/v4/personal_access_tokens HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ')
    const dropped = new Promise<void>((resolve) => socket.once('close', () => resolve()))
    socket.on('error', () => {})
    expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null })
    await dropped
  })

  it('rejects a malformed --shutdown-grace with exit code 2', async () => {
    const run = runCli(['serve', '--shutdown-grace', '3601'])
    expect((await run.exited()).code).toBe(2)
    expect(run.stderr()).toContain('--shutdown-grace must be a whole number of seconds from 0 to 3600')
  })
})

describe('patkit serve: never outlives its parent', { timeout: SERVE_TIMEOUT }, () => {
  it('exits cleanly when its piped stdin closes (the harness exited)', async () => {
    const server = await startServe()
    server.child.stdin.end()
    expect(await server.exited()).toEqual({ code: 0, signal: null })
    expect(server.stderr()).toContain('patkit serve: stdin closed, closing')
  })

  it('with --daemon, keeps serving after stdin closes', async () => {
    const server = await startServe(['--daemon'])
    server.child.stdin.end()
    // Closing stdin was seen by the child once a request after it is answered.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect((await fetch(`${server.apiUrl}/personal_access_tokens`)).status).toBe(401)
    expect(await server.stop()).toEqual({ code: 0, signal: null })
  })

  it('exits when its parent is killed with SIGKILL (stdin not a pipe)', async () => {
    // The parent starts the server with stdin on /dev/null and shares its stdout with us; the pipe
    // ends only when every writer, the orphaned server included, has exited.
    const wrapper = spawn(
      process.execPath,
      [
        '-e',
        `const c = require('node:child_process').spawn(process.execPath, [${JSON.stringify(cli)}, 'serve', '--port', '0'], { stdio: ['ignore', 'inherit', 'inherit'] })
         console.log('child ' + c.pid)`,
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let out = ''
    wrapper.stdout.setEncoding('utf8')
    const ended = new Promise<void>((resolve) => wrapper.stdout.once('end', () => resolve()))
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listening line: ${out}`)), WAIT_MS)
      wrapper.stdout.on('data', (chunk: string) => {
        out += chunk
        if (out.includes('patkit listening on')) {
          clearTimeout(timer)
          resolve()
        }
      })
    })
    const pid = Number(/child (\d+)/.exec(out)?.[1])
    expect(pid).toBeGreaterThan(0)
    wrapper.kill('SIGKILL')
    let timer: NodeJS.Timeout | undefined
    await Promise.race([
      ended,
      new Promise((_, reject) => {
        timer = setTimeout(() => {
          try {
            process.kill(pid, 'SIGKILL')
          } catch {}
          reject(new Error(`patkit serve (pid ${pid}) still running ${WAIT_MS} ms after its parent died`))
        }, WAIT_MS)
      }),
    ]).finally(() => clearTimeout(timer))
  })
})
