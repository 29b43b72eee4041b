import { errAsync, okAsync, type ResultAsync } from 'neverthrow'
import type { ErrorOf } from '../../domain/errors.js'
import type { Principal } from '../core/principal.js'
import { hasFeature, type Release } from '../core/release.js'
import { METADATA_SCOPES, requireScope } from '../core/scope-policy.js'

/**
 * What GitLab's `GET /metadata` reports (and `GET /version` from 15.5 on), for the emulated release.
 * patkit is no GitLab build, so `revision` is `patkit`, the agent server for Kubernetes (KAS) is
 * disabled, with the nulls GitLab reports then, and the edition is Community (`enterprise: false`).
 * Fields appear from the release that introduced them.
 *
 * @example
 * ```ts
 * import type { InstanceMetadata } from 'patkit/releases'
 * const m: InstanceMetadata = { version: '18.6.0', revision: 'patkit', kas: { enabled: false, externalUrl: null, version: null } }
 * ```
 */
export interface InstanceMetadata {
  /** The emulated release as GitLab spells its version: `MAJOR.MINOR.0`. */
  readonly version: string
  readonly revision: string
  readonly kas: {
    readonly enabled: boolean
    readonly externalUrl: string | null
    /** From 17.6. */
    readonly externalK8sProxyUrl?: string | null
    readonly version: string | null
  }
  /** From 15.6. */
  readonly enterprise?: boolean
}

/** The `revision` patkit reports: GitLab's is a commit id; patkit's names the build it is. */
export const PATKIT_REVISION = 'patkit'

/**
 * The metadata of an emulated release, fields in GitLab's order (lib/api/metadata.rb runs a GraphQL
 * query whose answer keeps the query's order: version, revision, kas, enterprise).
 *
 * @example
 * ```ts
 * import { instanceMetadata } from 'patkit/releases'
 * instanceMetadata('18.6').version // '18.6.0'
 * instanceMetadata('15.5').enterprise // undefined: the field came in 15.6
 * ```
 */
export function instanceMetadata(release: Release): InstanceMetadata {
  const kas = hasFeature('metadata_kas_k8s_proxy_url', release)
    ? { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null }
    : { enabled: false, externalUrl: null, version: null }
  return {
    version: `${release}.0`,
    revision: PATKIT_REVISION,
    kas,
    ...(hasFeature('metadata_enterprise', release) ? { enterprise: false } : {}),
  }
}

/**
 * The metadata for a caller: any token with `api`, `read_api`, `read_user` or `ai_features` may read
 * it (lib/api/metadata.rb); others get `insufficient_scope`.
 */
export function readInstanceMetadata(
  release: Release,
  principal: Principal,
): ResultAsync<InstanceMetadata, ErrorOf<'insufficient_scope'>> {
  const allowed = requireScope(principal, METADATA_SCOPES)
  return allowed.isErr() ? errAsync(allowed.error) : okAsync(instanceMetadata(release))
}
