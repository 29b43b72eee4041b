import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { entryPoints } from '../docs/examples-typecheck.js'
import { exportedNames } from './entry-exports.js'

// README.md's "What each entry point exports" lists, for every entry point package.json exports, the
// names that entry exports, all of them and only those: a new export without its README line fails
// here. The names are read from the src/ entry files (tsup.config.ts's entries, as the examples check
// resolves them), so no build is needed.

const root = join(import.meta.dirname, '..', '..')
const SECTION = '## What each entry point exports'

/**
 * The README's list per entry point: one bullet each, `- **`patkit/x`** ...`, its continuation lines
 * indented. Every backticked identifier of a bullet is a name it lists; "everything `patkit/y`
 * exports" lists the names of y's bullet too.
 */
function readmeLists(readme: string): Map<string, Set<string>> {
  const start = readme.indexOf(SECTION)
  if (start < 0) throw new Error(`README.md has no "${SECTION}" section`)
  const rest = readme.slice(start + SECTION.length)
  const end = rest.search(/^## /m)
  const section = end < 0 ? rest : rest.slice(0, end)
  const bullets: string[] = []
  for (const line of section.split('\n')) {
    if (line.startsWith('- ')) bullets.push(line)
    else if (line.startsWith('  ') && bullets.length > 0) bullets[bullets.length - 1] += ` ${line.trim()}`
  }
  const raw = new Map<string, { names: Set<string>; includes: string[] }>()
  for (const bullet of bullets) {
    const head = /^- \*\*`(patkit(?:\/[a-z]+)?)`\*\*/.exec(bullet)
    if (head?.[1] === undefined) throw new Error(`a bullet that names no entry point: ${bullet.slice(0, 60)}`)
    const body = bullet.slice(head[0].length)
    const names = new Set(
      [...body.matchAll(/`([A-Za-z_$][\w$]*)`/g)].flatMap((m) => (m[1] === undefined ? [] : [m[1]])),
    )
    const includes = [...body.matchAll(/everything `(patkit(?:\/[a-z]+)?)` exports/g)].flatMap((m) =>
      m[1] === undefined ? [] : [m[1]],
    )
    raw.set(head[1], { names, includes })
  }
  const lists = new Map<string, Set<string>>()
  for (const [entry, { names, includes }] of raw) {
    const all = new Set(names)
    for (const included of includes) for (const name of raw.get(included)?.names ?? []) all.add(name)
    lists.set(entry, all)
  }
  return lists
}

/** What the README gets wrong about each entry: names it misses, names the entry does not export. */
function differences(readme: string): string[] {
  const lists = readmeLists(readme)
  const problems: string[] = []
  for (const [entry, file] of entryPoints(root)) {
    const listed = lists.get(entry)
    if (listed === undefined) {
      problems.push(`${entry}: no README bullet`)
      continue
    }
    const exported = exportedNames(file)
    const missing = [...exported].filter((name) => !listed.has(name)).sort()
    const extra = [...listed].filter((name) => !exported.has(name)).sort()
    if (missing.length > 0) problems.push(`${entry}: exported but not in README.md: ${missing.join(', ')}`)
    if (extra.length > 0) problems.push(`${entry}: in README.md but not exported: ${extra.join(', ')}`)
  }
  for (const entry of lists.keys())
    if (!entryPoints(root).has(entry)) problems.push(`${entry}: a README bullet for no entry point`)
  return problems
}

const readme = readFileSync(join(root, 'README.md'), 'utf8')

describe("README.md lists every entry point's exports (What each entry point exports)", () => {
  it('reads every entry point and its names', () => {
    // A floor, so a broken reader cannot pass by finding nothing.
    const entries = entryPoints(root)
    expect(entries.size).toBeGreaterThanOrEqual(14)
    expect(exportedNames(entries.get('patkit') ?? '').has('createAuthority')).toBe(true)
    expect(readmeLists(readme).get('patkit/memory')).toEqual(new Set(['memoryStore', 'MemoryStoreOptions']))
  })

  it('each bullet lists exactly the names its entry point exports', () => {
    expect(differences(readme)).toEqual([])
  })

  it('fails for a name the README leaves out, one it invents, and an entry without a bullet', () => {
    // Only what each edit adds, so the check holds whatever the README's state.
    const baseline = new Set(differences(readme))
    const added = (text: string) => differences(text).filter((problem) => !baseline.has(problem))
    expect(added(readme.replace('`memoryStore`, ', ''))).toEqual([
      'patkit/memory: exported but not in README.md: memoryStore',
    ])
    expect(added(readme.replace('`memoryStore`, ', '`memoryStore`, `memoryStoreV2`, '))).toEqual([
      'patkit/memory: in README.md but not exported: memoryStoreV2',
    ])
    expect(added(readme.replace(/^- \*\*`patkit\/memory`\*\*.*\n/m, ''))).toEqual([
      'patkit/memory: no README bullet',
    ])
  })
})
