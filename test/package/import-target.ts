import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** The conditions an edge bundler such as Next.js's sets for an ESM import (Next.js: "edge-light"). */
export const EDGE_CONDITIONS = ['edge-light', 'import', 'default'] as const

type Target = string | { readonly [condition: string]: Target }

const root = join(import.meta.dirname, '..', '..')

/**
 * The file package.json's "imports" maps `specifier` to under `conditions`, as Node's resolver walks
 * it: the first key, in the map's order, that is one of the conditions (or "default") wins.
 */
export function importTarget(specifier: string, conditions: readonly string[]): string {
  const imports = (
    JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { imports?: Record<string, Target> }
  ).imports
  let target = imports?.[specifier]
  while (target !== undefined && typeof target !== 'string') {
    const map: { readonly [condition: string]: Target } = target
    const key = Object.keys(map).find((k) => k === 'default' || conditions.includes(k))
    target = key === undefined ? undefined : map[key]
  }
  if (target === undefined)
    throw new Error(`package.json "imports" maps ${specifier} nowhere under ${conditions}`)
  return target
}
