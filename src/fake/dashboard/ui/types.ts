// The shapes of the control API's answers the dashboard reads (the contract of GET /__patkit/tokens,
// /tokens/:id/family, /users, /groups, /projects, /journal, /faults, /clock, /deliveries).

/** One of a fine-grained token's scopes, as GitLab's entity shows it. */
export interface GranularScopeRow {
  readonly access: string
  readonly permissions: readonly string[]
  readonly project_id: number | null
  readonly group_id: number | null
}

export interface TokenRow {
  readonly id: number
  readonly user_id: number
  readonly name: string
  readonly scopes: readonly string[]
  /** A fine-grained token's scopes; absent on a legacy token. */
  readonly granular_scopes?: readonly GranularScopeRow[]
  readonly description: string | null
  readonly created_at: string
  readonly last_used_at: string | null
  readonly expires_at: string | null
  readonly revoked: boolean
  readonly active: boolean
  readonly expired?: boolean
  readonly impersonation?: boolean
  readonly previous_id?: number | null
  readonly family_id?: number | null
}

export type LinkState = 'active' | 'revoked' | 'expired' | 'reuse_revoked'

export interface FamilyLink {
  readonly id: number
  readonly name: string
  readonly user_id: number
  readonly previous_id: number | null
  readonly state: LinkState
  readonly created_at: string
  readonly expires_at: string | null
  readonly last_used_at: string | null
}

export interface ReuseEvent {
  readonly at: string
  readonly presented_id: number
  readonly revoked_ids: readonly number[]
}

export interface Family {
  readonly family_id: number
  readonly tokens: readonly FamilyLink[]
  readonly reuse: readonly ReuseEvent[]
}

export interface UserRow {
  readonly id: number
  readonly username: string
  readonly name: string
  readonly admin?: boolean
  readonly blocked?: boolean
  readonly bot?: boolean
  readonly bot_namespace?: unknown
  readonly service_account?: boolean
  readonly provisioned_by_group_id?: number | null
}

export interface Member {
  readonly user_id: number
  readonly access_level: number
}

export interface ResourceRow {
  readonly id: number
  readonly path: string
  readonly full_path?: string
  readonly name: string
  readonly parent_id?: number | null
  readonly group_id?: number | null
  readonly visibility?: string
  readonly members?: readonly Member[]
  readonly bots?: readonly number[]
}

export interface JournalEntry {
  readonly kind: 'request' | 'event'
  readonly seq: number
  readonly at: string
  readonly method?: string
  readonly path?: string
  readonly status?: number
  readonly tokenId?: number | null
  readonly userId?: number | null
  readonly fault?: string | null
  /** Why a request was refused: a code and a sentence (docs/testing.md). */
  readonly reason?: { readonly code: string; readonly message: string } | null
  readonly detail?: {
    readonly headers: Readonly<Record<string, string>>
    readonly params: Readonly<Record<string, string>>
    readonly answer: { readonly status: number; readonly body: string | null }
  } | null
  readonly type?: string
  readonly event?: Readonly<Record<string, unknown>>
}

export interface ClockState {
  readonly now: string
  readonly frozen: boolean
}

export interface FaultRule {
  readonly id: string
  readonly method?: string
  readonly path?: string
  readonly tokenId?: number
  readonly times?: number
  readonly probability?: number
  readonly status?: number
  readonly delayMs?: number
  readonly drop?: boolean
  readonly hits: number
  readonly remaining: number | null
}

/** A webhook delivery of GET /__patkit/deliveries (the hook's secret token already redacted). */
export interface Delivery {
  readonly id: number
  readonly hook_id: number
  /** The project or group the hook belongs to. */
  readonly resource: { readonly type: 'project' | 'group'; readonly id: number }
  readonly at: string
  readonly cause: 'expiry' | 'test'
  readonly token_id: number | null
  readonly interval: 60 | 30 | 7 | null
  readonly url: string
  readonly request_headers: Readonly<Record<string, string>>
  readonly payload: unknown
  readonly status: number | null
  readonly response_body: string
  readonly duration_ms: number
  readonly error: {
    readonly kind: 'timeout' | 'refused' | 'blocked' | 'network'
    readonly message: string
  } | null
}
