import { readFile } from 'node:fs/promises'
import { err, ok, type Result } from 'neverthrow'
import { type ValidSeed, validateSeed } from '../fake/seed/seed-schema.js'

function reason(cause: unknown): string {
  if (cause instanceof Error && 'code' in cause && cause.code === 'ENOENT') return 'no such file'
  return cause instanceof Error ? cause.message : String(cause)
}

/**
 * Reads and validates a seed file. Each error line names the file and, for a bad field, its path:
 * `seed file ./seed.json: tokens[0].scopes[1]: Invalid option: expected one of "api"|...`.
 */
export async function readSeedFile(path: string): Promise<Result<ValidSeed, readonly string[]>> {
  const prefix = `seed file ${path}`
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (cause) {
    return err([`${prefix}: cannot read it: ${reason(cause)}`])
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (cause) {
    return err([`${prefix}: not valid JSON: ${reason(cause)}`])
  }
  const validated = validateSeed(json)
  if (!validated.success) return err(validated.problems.map((p) => `${prefix}: ${p.path}: ${p.message}`))
  return ok(validated.seed)
}
