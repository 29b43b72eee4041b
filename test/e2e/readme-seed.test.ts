import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { README_SEED } from './readme-commands.js'

describe('README seed file', () => {
  it('examples/seed.json is exactly the seed the README commands are checked against', () => {
    const file = JSON.parse(
      readFileSync(join(import.meta.dirname, '..', '..', 'examples', 'seed.json'), 'utf8'),
    )
    expect(file).toEqual(JSON.parse(JSON.stringify(README_SEED)))
  })
})
