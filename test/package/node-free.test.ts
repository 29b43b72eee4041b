import { readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

// Runs against dist/ with its declarations, which `npm run test:slow` builds first (`pretest:slow`;
// `npm test` builds no declarations, so this file is in the slow project). patkit/http and the root
// must type-check and run where Node.js is not (edge runtimes, workers, Deno, a browser bundle): their
// declarations name no `node:` type, and the guards for web-standard frameworks load no Node module.
const dist = join(import.meta.dirname, '..', '..', 'dist')

/** The file and every file it imports relatively, transitively (the chunks an entry is split into). */
function closure(entry: string): Map<string, string> {
  const files = new Map<string, string>()
  const pending = [join(dist, entry)]
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (files.has(file)) continue
    const text = readFileSync(file, 'utf8')
    files.set(file, text)
    for (const [, specifier] of code(text).matchAll(
      /(?:from|import|require)\s*\(?\s*['"](\.\.?\/[^'"]+)['"]/g,
    )) {
      const target = resolve(dirname(file), specifier ?? '')
      // A declaration file imports its chunks as `./x.js`; the declarations are `./x.d.ts`.
      pending.push(entry.endsWith('.d.ts') ? target.replace(/\.js$/, '.d.ts') : target)
    }
  }
  return files
}

/** The code of a file without its comments (JSDoc prose may well mention `node:http`). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/(?!\/).*$/gm, '')
}

const NODE_BUILTINS = new Set(builtinModules.filter((m) => !m.startsWith('_')))

/** Every place a text depends on Node.js: a `node:` or builtin module, the node types, a Node global. */
function nodeReferences(text: string): string[] {
  const found: string[] = []
  const body = code(text)
  for (const [, specifier] of body.matchAll(/(?:from|import|require)\s*\(?\s*['"]([^'"]+)['"]/g)) {
    if (specifier === undefined) continue
    if (specifier.startsWith('node:') || NODE_BUILTINS.has(specifier.split('/')[0] ?? ''))
      found.push(specifier)
  }
  for (const match of text.matchAll(/\/\/\/\s*<reference\s+types=["']node["']/g)) found.push(match[0])
  for (const match of body.matchAll(/\bnode:[a-z_/]+|\bNodeJS\.\w+|\bBuffer\b/g)) found.push(match[0])
  return found
}

describe('entry points usable without Node.js', () => {
  it.each(['http.d.ts', 'index.d.ts', 'next.d.ts', 'hono.d.ts'])(
    'dist/%s and the declarations it imports name no node: type',
    (entry) => {
      const files = closure(entry)
      expect(files.size).toBeGreaterThan(0)
      for (const [file, text] of files) expect(nodeReferences(text), file).toEqual([])
    },
  )

  it.each(['next.js', 'hono.js', 'next.cjs', 'hono.cjs'])(
    'dist/%s and the chunks it loads import no Node.js module (edge runtimes)',
    (entry) => {
      const files = closure(entry)
      for (const [file, text] of files) expect(nodeReferences(text), file).toEqual([])
    },
  )

  it('the check finds what it looks for: patkit/node names node:http', () => {
    const found = [...closure('node.d.ts').values()].flatMap(nodeReferences)
    expect(found).toContain('node:http')
  })
})
