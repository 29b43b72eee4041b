import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** How long a probe or a build may take; longer is a broken toolchain, not a slow one. */
const PROBE_TIMEOUT_MS = 30_000
const BUILD_TIMEOUT_MS = 180_000

/**
 * A `ruby` that can `require 'gitlab'` (Debian's ruby-gitlab): $PATKIT_RUBY, else `ruby` on PATH.
 * Otherwise the reason, for the test's skip message.
 */
export function findRubyGitlab(): { ruby: string; version: string } | { reason: string } {
  const ruby = process.env['PATKIT_RUBY'] ?? 'ruby'
  const probe = spawnSync(ruby, ['-e', 'require "gitlab"; print Gitlab::VERSION'], {
    encoding: 'utf8',
    timeout: PROBE_TIMEOUT_MS,
  })
  if (probe.status === 0) return { ruby, version: probe.stdout.trim() }
  const why = probe.error?.message ?? probe.stderr.trim().split('\n').at(-1) ?? 'failed'
  return { reason: `no ruby with the gitlab gem (apt-get install ruby-gitlab); ${ruby}: ${why}` }
}

/** Debian's GOPATH, where golang-github-xanzy-go-gitlab-dev installs go-gitlab. */
const GOPATH = process.env['PATKIT_GOPATH'] ?? '/usr/share/gocode'

/**
 * Builds a Go program against Debian's go-gitlab in GOPATH mode (GO111MODULE=off, GOPATH
 * /usr/share/gocode, a fresh GOCACHE in a temporary directory) and returns the binary, or the reason
 * it cannot: no `go`, or no go-gitlab under the GOPATH. A failed build is our program's bug: it throws,
 * with the compiler's output.
 */
export function buildGoGitlab(programDir: string): { binary: string; dir: string } | { reason: string } {
  const go = process.env['PATKIT_GO'] ?? 'go'
  const version = spawnSync(go, ['version'], { encoding: 'utf8', timeout: PROBE_TIMEOUT_MS })
  if (version.status !== 0) {
    return {
      reason: `no go toolchain (apt-get install golang-go); ${go}: ${version.error?.message ?? version.stderr.trim()}`,
    }
  }
  if (!existsSync(join(GOPATH, 'src', 'github.com', 'xanzy', 'go-gitlab'))) {
    return { reason: `no go-gitlab under ${GOPATH} (apt-get install golang-github-xanzy-go-gitlab-dev)` }
  }
  const out = mkdtempSync(join(tmpdir(), 'patkit-go-'))
  const binary = join(out, 'go_gitlab_check')
  const build = spawnSync(go, ['build', '-o', binary, '.'], {
    cwd: programDir,
    encoding: 'utf8',
    timeout: BUILD_TIMEOUT_MS,
    env: {
      ...process.env,
      GOPATH,
      GO111MODULE: 'off',
      GOFLAGS: '',
      GOCACHE: join(out, 'cache'),
    },
  })
  if (build.status !== 0) {
    rmSync(out, { recursive: true, force: true })
    throw new Error(`go build of ${programDir} failed: ${build.error?.message ?? build.stderr.trim()}`)
  }
  return { binary, dir: out }
}
