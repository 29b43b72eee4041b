import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { examplePlacement } from './example-placement.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const sources = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts'))
  .map((f) => join(root, 'src', f))
// One Program over src: seconds, more on a busy machine.
const PROGRAM_TIMEOUT_MS = 60_000

describe('JSDoc examples belong to public exports (style.md; docs/development.md, "Code examples")', () => {
  it(
    'every name an entry point exports has an @example, and no internal declaration has one',
    () => {
      const placement = examplePlacement(root, sources)
      // A floor, so a reader that finds nothing cannot pass.
      expect(placement.publicCount).toBeGreaterThan(150)
      expect(placement.bare).toEqual([])
      expect(placement.internal).toEqual([])
    },
    PROGRAM_TIMEOUT_MS,
  )
})
