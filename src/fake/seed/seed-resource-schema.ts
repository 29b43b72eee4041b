import { z } from 'zod'
import { parseCalendarDate } from '../../domain/calendar.js'
import { fullMessages, type PathKind, pathProblems } from '../../domain/namespace-path.js'
import { ACCESS_LEVELS, isAccessLevel } from '../../domain/resource.js'

/**
 * One direct member of a seed's group or project, in GitLab's field names: the user and their role
 * (`access_level` 10 Guest, 15 Planner, 20 Reporter, 30 Developer, 40 Maintainer, 50 Owner).
 *
 * @example
 * ```ts
 * import { seedMemberSchema } from 'patkit/fake'
 * seedMemberSchema.parse({ user_id: 2, access_level: 40 })
 * ```
 */
export const seedMemberSchema = z.strictObject({
  user_id: z.number().int().positive(),
  access_level: z
    .number()
    .refine(isAccessLevel, `access_level must be one of ${ACCESS_LEVELS.join(', ')}`)
    .transform((level) => (isAccessLevel(level) ? level : 10)),
})

// GitLab's path rules (src/domain/namespace-path.ts): a top-level group's path is a root namespace's
// (`admin`, `api` reserved), a subgroup's and a project's have their own reserved words; the message is
// GitLab's full one ("Path is too short (minimum is 2 characters)").
function checkPath(kind: PathKind) {
  return (path: string, ctx: z.RefinementCtx) => {
    const problems = pathProblems(path, kind)
    if (problems.length > 0)
      ctx.addIssue({ code: 'custom', message: fullMessages('Path', problems), path: ['path'] })
  }
}

const resourceFields = {
  id: z.number().int().positive(),
  path: z.string(),
  name: z.string().trim().min(1).max(255),
  /** GitLab's default for a new group or project: private. */
  visibility: z.enum(['private', 'internal', 'public']).optional(),
  members: z.array(seedMemberSchema).optional(),
}

/**
 * One group of a seed, in GitLab's field names: `parent_id` names the group above it (absent or
 * `null` for a top-level group); `visibility` defaults to `private`, `members` to none.
 *
 * @example
 * ```ts
 * import { seedGroupSchema } from 'patkit/fake'
 * seedGroupSchema.parse({ id: 1, path: 'acme', name: 'Acme', members: [{ user_id: 2, access_level: 50 }] })
 * ```
 */
export const seedGroupSchema = z
  .strictObject({
    ...resourceFields,
    parent_id: z.number().int().positive().nullable().optional(),
    /** GitLab's namespace setting: the group's hooks also hear the 60- and 30-day expiry notices. */
    extended_grat_expiry_webhooks_execute: z.boolean().optional(),
    /**
     * GitLab.com's namespace setting of a top-level group: from `granular_tokens_enforced_after` on,
     * legacy personal access tokens of human users are refused on the group, its subgroups and their
     * projects (held by the fake, not by the store).
     */
    enforce_granular_tokens: z.boolean().optional(),
    granular_tokens_enforced_after: z
      .string()
      .refine(
        (value) => parseCalendarDate(value).isOk(),
        'Invalid date: expected an existing day as YYYY-MM-DD',
      )
      .nullable()
      .optional(),
  })
  .superRefine((group, ctx) => {
    const top = group.parent_id === undefined || group.parent_id === null
    checkPath(top ? 'root_namespace' : 'subgroup')(group.path, ctx)
    const enforced = group.enforce_granular_tokens === true
    const day = group.granular_tokens_enforced_after ?? null
    if (!top && (enforced || day !== null)) {
      ctx.addIssue({
        code: 'custom',
        path: [enforced ? 'enforce_granular_tokens' : 'granular_tokens_enforced_after'],
        message: 'Only a top-level group has this setting: its subgroups and projects inherit it',
      })
    } else if (enforced && day === null) {
      ctx.addIssue({
        code: 'custom',
        path: ['granular_tokens_enforced_after'],
        message:
          'enforce_granular_tokens needs granular_tokens_enforced_after: the day (YYYY-MM-DD) enforcement starts',
      })
    }
  })

/**
 * One project of a seed, in GitLab's field names: `group_id` names its group (absent or `null`: a
 * project outside any group); `visibility` defaults to `private`, `members` to none. Ids of projects
 * and of groups are separate sequences.
 *
 * @example
 * ```ts
 * import { seedProjectSchema } from 'patkit/fake'
 * seedProjectSchema.parse({ id: 1, path: 'api', name: 'API', group_id: 1 })
 * ```
 */
export const seedProjectSchema = z
  .strictObject({
    ...resourceFields,
    group_id: z.number().int().positive().nullable().optional(),
    /** GitLab's project setting: the project's hooks also hear the 60- and 30-day expiry notices. */
    extended_prat_expiry_webhooks_execute: z.boolean().optional(),
  })
  .superRefine((project, ctx) => checkPath('project')(project.path, ctx))

/**
 * A group as a seed gives it (the input of {@link seedGroupSchema}).
 *
 * @example
 * ```ts
 * import type { SeedGroup } from 'patkit/fake'
 * const acme: SeedGroup = { id: 1, path: 'acme', name: 'Acme' }
 * ```
 */
export type SeedGroup = z.input<typeof seedGroupSchema>

/**
 * A project as a seed gives it (the input of {@link seedProjectSchema}).
 *
 * @example
 * ```ts
 * import type { SeedProject } from 'patkit/fake'
 * const api: SeedProject = { id: 1, path: 'api', name: 'API', group_id: 1 }
 * ```
 */
export type SeedProject = z.input<typeof seedProjectSchema>

/**
 * A bot's namespace as a seed gives it (GitLab's `bot_namespace`): the project or group the bot
 * belongs to.
 */
export const botNamespaceSchema = z.strictObject({
  type: z.enum(['project', 'group']),
  id: z.number().int().positive(),
})

/** A group after validation (`access_level` narrowed to an AccessLevel). */
export type ValidSeedGroup = z.output<typeof seedGroupSchema>

/** A project after validation. */
export type ValidSeedProject = z.output<typeof seedProjectSchema>
