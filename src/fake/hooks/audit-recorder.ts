import type { ResultAsync } from 'neverthrow'
import type { AuthorityEvent, TokenInfo } from '../../authority/core/events.js'
import type { StoreFailure } from '../../domain/errors.js'
import { type AccessLevel, directAccess, type ResourceRef } from '../../domain/resource.js'
import type { UserId } from '../../domain/user-id.js'
import type { AuditEventDraft } from '../../store/hook-store.js'
import type { TokenStore } from '../../store/token-store.js'
import { displayName, type User } from '../../store/user.js'

/** What the recorder reads: the store it writes to and the authority's user lookup. */
interface AuditRecorderDeps {
  readonly store: TokenStore
  readonly userById: (id: UserId) => ResultAsync<User | null, StoreFailure>
}

/** Records GitLab's token audit events from the authority's events, in order, into `store.resources.audit`. */
export interface AuditRecorder {
  record(event: AuthorityEvent): void
  /** Resolves once every event recorded so far is written (a failed write is dropped). */
  settled(): Promise<void>
}

// Gitlab::Access.human_access.
const ROLE: Record<AccessLevel, string> = {
  10: 'Guest',
  15: 'Planner',
  20: 'Reporter',
  30: 'Developer',
  40: 'Maintainer',
  50: 'Owner',
}

// Ruby's `Array#inspect` of the token's scopes (strings): `["api", "read_api"]`.
function inspect(scopes: readonly string[]): string {
  return `[${scopes.map((s) => JSON.stringify(s)).join(', ')}]`
}

/**
 * The audit event GitLab's services record for a token event (docs/webhooks.md, "Audit events"):
 * a PAT's `personal_access_token_created`/`_revoked` (EE PersonalAccessTokens services, scope the
 * acting user), a bot's `project_access_token_created`/`_deleted`, `group_...` (EE
 * ResourceAccessTokens services, scope the resource). Rotation records none: GitLab's RotateService
 * revokes with `token.revoke!` and saves the successor itself, through neither service.
 */
async function draftOf(deps: AuditRecorderDeps, event: AuthorityEvent): Promise<AuditEventDraft | null> {
  if (event.type !== 'created' && event.type !== 'revoked') return null
  const actorId = event.actorUserId
  // Tokens the seed or the control API put in place: no GitLab API request, no audit event.
  if (typeof actorId !== 'number') return null
  const token = event.token
  const [actor, owner] = await Promise.all([
    deps.userById(actorId).unwrapOr(null),
    deps.userById(token.userId).unwrapOr(null),
  ])
  const base = {
    authorId: actorId,
    createdAt: event.at,
    author_name: actor === null ? null : displayName(actor),
  }
  const resource = owner?.bot === true ? (owner.botNamespace ?? null) : null
  if (resource === null) return personalDraft(event.type, token, base, owner)
  return resourceDraft(deps, event.type, token, base, owner as User, resource)
}

interface Base {
  readonly authorId: number
  readonly createdAt: Date
  readonly author_name: string | null
}

function personalDraft(
  type: 'created' | 'revoked',
  token: TokenInfo,
  base: Base,
  owner: User | null,
): AuditEventDraft {
  const eventName = type === 'created' ? 'personal_access_token_created' : 'personal_access_token_revoked'
  const message =
    type === 'created'
      ? `Created personal access token with id ${token.id}`
      : `Revoked personal access token with id ${token.id}`
  return {
    authorId: base.authorId,
    entityType: 'User',
    entityId: base.authorId,
    eventName,
    details: {
      event_name: eventName,
      custom_message: message,
      author_name: base.author_name,
      target_id: typeof token.userId === 'number' ? token.userId : null,
      target_type: 'User',
      target_details: owner === null ? null : owner.username,
      // PersonalAccessTokens::RevokeService's default source (`:self`, spec index id 8825623990).
      ...(type === 'revoked' ? { revocation_source: 'self' } : {}),
    },
    createdAt: base.createdAt,
  }
}

async function resourceDraft(
  deps: AuditRecorderDeps,
  type: 'created' | 'revoked',
  token: TokenInfo,
  base: Base,
  bot: User,
  resource: ResourceRef,
): Promise<AuditEventDraft> {
  const kind = resource.type
  const eventName = `${kind}_access_token_${type === 'created' ? 'created' : 'deleted'}`
  let message: string
  if (type === 'revoked') {
    message = `Revoked ${kind} access token with token_id: ${token.id}`
  } else if (kind === 'group') {
    message = `Created group token with token_id: ${token.id} with scopes: ${inspect(token.scopes)}.`
  } else {
    const project = await (deps.store.resources?.findProject(resource.id).unwrapOr(null) ?? null)
    const level = project === null || typeof bot.id !== 'number' ? null : directAccess(project, bot.id)
    message =
      `Created project access token with token_id: ${token.id} with scopes: ${inspect(token.scopes)}` +
      ` and ${level === null ? 'no' : ROLE[level]} access level.`
  }
  return {
    authorId: base.authorId,
    entityType: kind === 'project' ? 'Project' : 'Group',
    entityId: resource.id,
    eventName,
    details: {
      event_name: eventName,
      custom_message: message,
      author_name: base.author_name,
      target_id: token.id,
      target_type: 'PersonalAccessToken',
      target_details: displayName(bot),
      action: 'custom',
    },
    createdAt: base.createdAt,
  }
}

/** An {@link AuditRecorder} writing in event order, one write after the other. */
export function auditRecorder(deps: AuditRecorderDeps): AuditRecorder {
  let chain: Promise<void> = Promise.resolve()
  return {
    record(event) {
      if (event.type !== 'created' && event.type !== 'revoked') return
      chain = chain
        .then(async () => {
          const draft = await draftOf(deps, event)
          const audit = deps.store.resources?.audit
          if (draft !== null && audit !== undefined) await audit.appendAuditEvent(draft)
        })
        .catch(() => {
          // An audit write that fails is dropped, as a failing event listener is: the change stands.
        })
    },
    settled: () => chain,
  }
}
