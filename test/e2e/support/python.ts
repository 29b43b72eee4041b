import { spawnSync } from 'node:child_process'

/**
 * The first Python interpreter that can import every one of `modules`: $PATKIT_PYTHON, the `python3`
 * on PATH, then the system one. Debian installs python3-gitlab and python3-pytest for /usr/bin/python3,
 * which a pyenv or venv `python3` earlier on PATH does not see. Otherwise the reason, naming what was
 * tried, for the test's skip message.
 */
export function findPython(
  modules: readonly string[],
  install: string,
): { python: string } | { reason: string } {
  const candidates = [process.env['PATKIT_PYTHON'], 'python3', '/usr/bin/python3'].filter(
    (c): c is string => c !== undefined && c !== '',
  )
  const tried: string[] = []
  for (const candidate of candidates) {
    const probe = spawnSync(candidate, ['-c', `import ${modules.join(', ')}`], {
      encoding: 'utf8',
      timeout: 30_000,
    })
    if (probe.status === 0) return { python: candidate }
    tried.push(`${candidate}: ${probe.error?.message ?? probe.stderr.trim().split('\n').at(-1) ?? 'failed'}`)
  }
  return {
    reason: `no python3 with ${modules.join(' and ')} (apt-get install ${install}); tried ${tried.join('; ')}`,
  }
}
