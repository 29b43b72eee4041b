/**
 * patkit/releases: the GitLab releases patkit emulates, as typed data. The feature table (`FEATURES`,
 * `hasFeature`: what appeared in which release), the `GET /metadata` of a release, and the
 * deprecation schedule of the programmable interface (`DEPRECATIONS`, `isRemoved`, `removedBy`: the
 * specification's section 9), for tools that emulate or check a release. See docs/releases.md.
 * @packageDocumentation
 */

export {
  DEPRECATIONS,
  type Deprecation,
  type DeprecationId,
  isRemoved,
  removedBy,
} from '../authority/core/deprecations.js'
export {
  FEATURES,
  type Feature,
  hasFeature,
  LATEST_RELEASE,
  type Release,
} from '../authority/core/release.js'
export { type InstanceMetadata, instanceMetadata } from '../authority/users/instance-metadata.js'
