import { z } from 'zod'
import { isKnownPermission } from '../../domain/gitlab-permissions.js'
import { GRANULAR_ACCESS } from '../../domain/granular-scope.js'
import type { SeedGranularEntry } from './seed-granular.js'

const id = z.number().int().positive()

/**
 * One entry of a seed token's `granular_scopes`, in the shape GitLab's REST API takes
 * (`granular_scope_params`): `project_ids` and `group_ids` only with `selected_memberships`, which needs
 * at least one of them (the API would make no scope of it; a seed says so instead). Each permission
 * must be one of GitLab's assignable permissions patkit knows. Its output is `SeedGranularEntry`, the
 * type the conversions (seed-granular.ts) take without loading zod.
 */
export const seedGranularScopeSchema = z
  .strictObject({
    access: z.enum(GRANULAR_ACCESS),
    permissions: z
      .array(
        z.string().refine(isKnownPermission, {
          error: (issue) =>
            `Unknown permission ${JSON.stringify(issue.input)}: not one of GitLab's assignable permissions (docs/testing.md, "Fine-grained tokens in a seed", lists them)`,
        }),
      )
      .min(1, 'At least one permission'),
    project_ids: z.array(id).min(1).optional(),
    group_ids: z.array(id).min(1).optional(),
  })
  .superRefine((entry, context) => {
    for (const [at, permission] of entry.permissions.entries()) {
      if (entry.permissions.indexOf(permission) !== at) {
        context.addIssue({
          code: 'custom',
          path: ['permissions', at],
          message: `Permission ${JSON.stringify(permission)} is listed twice`,
        })
      }
    }
    const selected = entry.access === 'selected_memberships'
    for (const field of ['project_ids', 'group_ids'] as const) {
      if (!selected && entry[field] !== undefined) {
        context.addIssue({
          code: 'custom',
          path: [field],
          message: `${field} goes with access selected_memberships only, not ${entry.access}`,
        })
      }
    }
    if (selected && entry.project_ids === undefined && entry.group_ids === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['access'],
        message: 'selected_memberships needs project_ids or group_ids: the projects and groups it reaches',
      })
    }
  }) satisfies z.ZodType<SeedGranularEntry>
