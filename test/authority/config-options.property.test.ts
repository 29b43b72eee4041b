import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { type AuthorityOptions, authorityOptionProblem } from '../../src/authority/core/config.js'

// The zod schema createAuthority validated its scalar options with until the check was written out
// (so that importing patkit does not load zod): the reference the check must agree with, answer for
// answer and reason for reason.
const formerSchema = z.object({
  tokenPrefix: z
    .string()
    .regex(/^[A-Za-z0-9_-]{0,20}$/, 'letters, digits, - and _, at most 20')
    .optional(),
  tokenFormat: z.enum(['routable', 'legacy']).optional(),
  release: z
    .string()
    .regex(/^\d{1,3}\.\d{1,3}$/, 'a GitLab release such as 16.10')
    .optional(),
  requireExpiry: z.boolean().optional(),
  adminMode: z.boolean().optional(),
  maxLifetimeDays: z.number().int().min(1).max(36_500).optional(),
  lastUsedThrottleMs: z.number().int().min(0).optional(),
  rotationReplayWindowMs: z.number().int().min(0).max(86_400_000).optional(),
})

function formerProblem(options: AuthorityOptions): string | null {
  const parsed = formerSchema.safeParse(options)
  if (parsed.success) return null
  const issue = parsed.error.issues[0]
  return `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`
}

class Custom {}
const numbers = fc.oneof(
  fc.constantFrom(0, -0, 1, -1, 36_500, 36_501, 86_400_000, 86_400_001, 0.5, NaN, Infinity, -Infinity),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 1, Number.MIN_SAFE_INTEGER, -1e21, 1e21),
  fc.integer({ min: -100, max: 100_000_000 }),
  fc.double(),
)
const strings = fc.oneof(
  fc.constantFrom(
    '',
    'glpat-',
    'a'.repeat(20),
    'a'.repeat(21),
    'ab c',
    'routable',
    'legacy',
    '16.10',
    '1.2.3',
    'x16.1',
  ),
  fc.stringMatching(/^\d{1,4}\.\d{1,4}$/),
  fc.string(),
)
const oddValues = fc.constantFrom<unknown>(
  null,
  [],
  {},
  Object.create(null),
  new Date(0),
  new Custom(),
  new (class {})(),
  new Map(),
  new Number(1),
  new String('16.10'),
  new Boolean(true),
  10n,
  Symbol('s'),
  () => 1,
  true,
  false,
)
const value = fc.oneof(fc.constant(undefined), numbers, strings, oddValues, fc.anything())
const options = fc.record(
  {
    tokenPrefix: value,
    tokenFormat: value,
    release: value,
    requireExpiry: value,
    adminMode: value,
    maxLifetimeDays: value,
    lastUsedThrottleMs: value,
    rotationReplayWindowMs: value,
  },
  { requiredKeys: [] },
)

// 5,000 runs of each property: seconds of CPU on a busy machine.
describe('the authority options check', { timeout: 30_000 }, () => {
  it('accepts and refuses exactly what the former zod schema did, with the same reason', () => {
    fc.assert(
      fc.property(options, (given) => {
        expect(authorityOptionProblem(given)).toBe(formerProblem(given))
      }),
      { numRuns: 5000 },
    )
  })

  it('agrees on each option alone, for every kind of value', () => {
    const names = Object.keys(formerSchema.shape) as (keyof AuthorityOptions)[]
    fc.assert(
      fc.property(fc.constantFrom(...names), value, (name, given) => {
        expect(authorityOptionProblem({ [name]: given })).toBe(formerProblem({ [name]: given }))
      }),
      { numRuns: 5000 },
    )
  })
})
