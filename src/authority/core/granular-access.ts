import { err, ok, type Result } from 'neverthrow'
import { utcDay } from '../../domain/calendar.js'
import { insufficientGranularScope, notFound } from '../../domain/error-constructors.js'
import type { ErrorOf, StoreFailure } from '../../domain/errors.js'
import { type GranularBoundary, type GranularScope, missingPermissions } from '../../domain/granular-scope.js'
import type { Group, Project } from '../../domain/resource.js'
import type { User } from '../../store/user.js'
import type { AuthorityDeps } from './deps.js'
import type { Principal } from './principal.js'
import { hasFeature } from './release.js'
import { groupInView, projectInView, type ResourceInView, viewerOf } from './resource-access.js'

/**
 * What an operation declares for fine-grained tokens, as GitLab's `route_setting :authorization`: the
 * assignable permission it needs and the boundary it is checked at. A project or group boundary names
 * the resource (`ref`: its id or full path, as the request's `:id` had it); `publicRead` marks GitLab's
 * "publicly accessible endpoints", which a fine-grained token may read without the permission when
 * the resource is public.
 *
 * @example
 * ```ts
 * import type { GranularRequirement } from 'patkit/authority'
 * const self: GranularRequirement = { permission: 'read_personal_access_token', boundary: 'user' }
 * const project: GranularRequirement = { permission: 'read_project', boundary: 'project', ref: 'acme/api', publicRead: true }
 * ```
 */
export type GranularRequirement =
  | { readonly permission: string; readonly boundary: 'user' | 'instance' }
  | {
      readonly permission: string
      readonly boundary: 'project' | 'group'
      readonly ref: string
      readonly publicRead?: boolean
    }

/**
 * Every way a fine-grained token is refused: `insufficient_granular_scope` (403), or `not_found` for a
 * project or group that does not exist or that the caller may not see (GitLab's `404 Not Found`,
 * `reason: :resource_not_found`).
 *
 * @example
 * ```ts
 * import type { GranularAccessError } from 'patkit/authority'
 * const e: GranularAccessError = { type: 'insufficient_granular_scope', boundary: 'user', missing: ['read_user'] }
 * ```
 */
export type GranularAccessError = ErrorOf<'insufficient_granular_scope'> | ErrorOf<'not_found'> | StoreFailure

type Verdict = Result<void, GranularAccessError>

const GRANTED: Verdict = ok(undefined)

/**
 * GitLab's `Authz::Tokens::AuthorizeGranularScopesService` for one operation: any token before the
 * release that has fine-grained tokens passes untouched (its scopes are checked as ever); a
 * fine-grained token passes when its scopes grant `requirement`'s permission at its boundary.
 * `requirement` `null`: the operation declares none, and takes no fine-grained token. A fine-grained
 * token acting through `sudo` is held to its own scopes. A legacy token passes, unless its project's or
 * group's top-level group enforces fine-grained tokens (`granularEnforcement`, GitLab's
 * `granular_token_required?`): then it is checked as a fine-grained token without permissions.
 * Answered at once for a user or instance boundary and for a legacy token without enforcement; a
 * project or group boundary reads the store.
 */
export function authorizeGranular(
  deps: AuthorityDeps,
  principal: Principal,
  requirement: GranularRequirement | null,
): Verdict | Promise<Verdict> {
  if (!hasFeature('granular_enforcement', deps.release)) return GRANTED
  const scopes = principal.token.granularScopes
  if (scopes === undefined) return legacyVerdict(deps, principal, requirement)
  if (requirement === null) return err(insufficientGranularScope(null, []))
  if ('ref' in requirement) return resourceVerdict(deps, principal, scopes, requirement)
  return verdict(scopes, { type: requirement.boundary }, requirement.permission)
}

// GitLab's `granular_token_required?` (authorize_granular_scopes_service.rb; shared/reference
// fine-grained-pats.md §6, §12): a legacy token of a human user (`token.user.human?`: no bot, no
// service account), on an operation whose boundary is a project or group (a user or instance boundary
// has no namespace), whose top-level group enforces fine-grained tokens from a day that has come
// (`granular_tokens_enforced_after: Date.current` already denies, in the shared example).
function legacyVerdict(
  deps: AuthorityDeps,
  principal: Principal,
  requirement: GranularRequirement | null,
): Verdict | Promise<Verdict> {
  const enforcement = deps.granularEnforcement
  if (enforcement === null || requirement === null || !('ref' in requirement)) return GRANTED
  if (enforcement.anyEnforced?.() === false) return GRANTED
  const owner = ownerOf(principal)
  if (owner.bot === true || owner.serviceAccount === true) return GRANTED
  return enforcedVerdict(deps, principal, requirement, enforcement.enforcedFrom)
}

async function enforcedVerdict(
  deps: AuthorityDeps,
  principal: Principal,
  requirement: Extract<GranularRequirement, { readonly ref: string }>,
  enforcedFrom: (topLevelGroupId: number) => string | null,
): Promise<Verdict> {
  const seen = await inView(deps, requirement.boundary, viewerOf(principal), requirement.ref)
  // A project or group the caller cannot see: the operation answers its own 404, as for any legacy token.
  if (seen.isErr()) return seen.error.type === 'not_found' ? GRANTED : err(seen.error)
  const root = seen.value.root
  const day = root === null ? null : enforcedFrom(root.id)
  if (day === null || day > utcDay(deps.clock.now())) return GRANTED
  if (requirement.publicRead === true && seen.value.resource.visibility === 'public') return GRANTED
  return verdict([], boundaryOf(seen.value, principal), requirement.permission)
}

function verdict(scopes: readonly GranularScope[], boundary: GranularBoundary, permission: string): Verdict {
  const missing = missingPermissions(scopes, boundary, [permission])
  return missing.length === 0 ? GRANTED : err(insufficientGranularScope(boundary.type, missing))
}

async function resourceVerdict(
  deps: AuthorityDeps,
  principal: Principal,
  scopes: readonly GranularScope[],
  requirement: Extract<GranularRequirement, { readonly ref: string }>,
): Promise<Verdict> {
  const type = requirement.boundary
  const seen = await inView(deps, type, viewerOf(principal), requirement.ref)
  if (seen.isOk()) {
    const { resource } = seen.value
    if (requirement.publicRead === true && resource.visibility === 'public') return GRANTED
    return verdict(scopes, boundaryOf(seen.value, principal), requirement.permission)
  }
  if (seen.error.type !== 'not_found') return err(seen.error)
  // Hidden from the caller, or absent: 404 either way when the scopes would not reach it (GitLab
  // answers `404 Not Found` rather than say a hidden resource exists); a token whose scopes reach a
  // hidden resource goes on to the operation, which answers its own 404.
  const hidden = await inView(deps, type, { ...principal.user, admin: true }, requirement.ref)
  if (hidden.isErr()) return err(hidden.error.type === 'not_found' ? notFound(type) : hidden.error)
  const reached = verdict(scopes, boundaryOf(hidden.value, principal), requirement.permission)
  return reached.isOk() ? GRANTED : err(notFound(type))
}

function inView(deps: AuthorityDeps, type: 'project' | 'group', viewer: User, ref: string) {
  return type === 'project' ? projectInView(deps, viewer, ref) : groupInView(deps, viewer, ref)
}

// The token's owner: with `sudo`, the administrator whose token it is, not the user it acts as.
function ownerOf(principal: Principal): User {
  return principal.sudoer ?? principal.user
}

/**
 * The boundary of a resource in view: its groups above, nearest first; a project is in its owner's
 * personal namespace when it has no group and its full path starts with the owner's username (a
 * user namespace's path is the username).
 */
function boundaryOf(seen: ResourceInView<Group | Project>, principal: Principal): GranularBoundary {
  const ancestorGroupIds = seen.chain.slice(1).map((g) => g.id)
  const { resource } = seen
  if (!('groupId' in resource)) return { type: 'group', id: resource.id, ancestorGroupIds }
  const namespace = `${ownerOf(principal).username.toLowerCase()}/`
  const personal = resource.groupId === null && resource.fullPath.toLowerCase().startsWith(namespace)
  return { type: 'project', id: resource.id, ancestorGroupIds, personal }
}
