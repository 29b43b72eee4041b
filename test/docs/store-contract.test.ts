import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { STORE_CONTRACTS } from '../../src/testing/conformance/contracts.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const read = (path: string) => readFileSync(`${root}/${path}`, 'utf8')
const ids = Object.keys(STORE_CONTRACTS).sort()

/** The text of one `## ` section of a markdown file, up to the next one. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`)
  if (start < 0) throw new Error(`no section "## ${heading}"`)
  const end = markdown.indexOf('\n## ', start + 1)
  return markdown.slice(start, end < 0 ? undefined : end)
}

/** The JSDoc block right above `export interface TokenStore`. */
function tokenStoreDoc(source: string): string {
  const at = source.indexOf('export interface TokenStore ')
  const start = source.lastIndexOf('/**', at)
  if (at < 0 || start < 0) throw new Error('no JSDoc on TokenStore')
  return source.slice(start, at)
}

// A store author learns the port from docs/storage.md and the interface's JSDoc; the conformance
// suite enforces it. One list of contract ids (src/testing/conformance/contracts.ts) ties the three:
// each is stated in both documents, and each is cited by a check of the suite, whose failure names it.
describe('issue 20: every store contract the conformance suite enforces is written where a store author reads', () => {
  it('the suite has contracts to check (a broken extractor cannot pass by finding none)', () => {
    expect(ids.length).toBeGreaterThanOrEqual(10)
  })

  it('docs/storage.md, "Writing a store for another database", states each contract, by id, and no other', () => {
    const doc = section(read('docs/storage.md'), 'Writing a store for another database')
    const stated = [...doc.matchAll(/^- \*\*`([a-z-]+)`\*\*: \S/gm)].map((m) => m[1]).sort()
    expect(stated).toEqual(ids)
  })

  it('the TokenStore JSDoc states each contract, by id, and no other', () => {
    const doc = tokenStoreDoc(read('src/store/token-store.ts'))
    const stated = [...doc.matchAll(/^ \* - `([a-z-]+)`: \S/gm)].map((m) => m[1]).sort()
    expect(stated).toEqual(ids)
  })

  it('every contract is cited by a check of the conformance suite', () => {
    const dir = 'src/testing/conformance'
    const checks = readdirSync(`${root}/${dir}`)
      .filter((file) => file.endsWith('.ts') && file !== 'contracts.ts')
      .map((file) => read(`${dir}/${file}`))
      .join('\n')
    expect(ids.filter((id) => !checks.includes(`'${id}'`))).toEqual([])
  })
})
