// patkit/webhooks: GitLab's access-token expiry webhooks (payload, headers, destination policy, delivery,
// queue) and an opt-in signed sender for embedders.
export { systemMonotonic } from '../domain/clock.js'
export {
  type AccessTokenHookAttrs,
  type AccessTokenHookGroup,
  type AccessTokenHookProject,
  type AccessTokenHookToken,
  type AccessTokenPayload,
  type AccessTokenPayloadInput,
  accessTokenPayload,
  type ExpiryInterval,
  type GroupHookAttrs,
  hookTimestamp,
  type ProjectHookAttrs,
} from './access-token-payload.js'
export {
  DEFAULT_DELIVERY_TIMEOUT_MS,
  type DeliveryError,
  type DeliveryOptions,
  type DeliveryRecord,
  type DeliveryRequest,
  deliver,
  RESPONSE_BODY_LIMIT,
} from './deliver.js'
export {
  DEFAULT_DELIVERY_CONCURRENCY,
  type DeliveryJob,
  type DeliveryQueue,
  type DeliveryQueueOptions,
  deliveryQueue,
} from './delivery-queue.js'
export {
  type BlockedDestination,
  type CheckedDestination,
  checkDestination,
  type DestinationPolicy,
  type HostResolver,
  type ResolvedAddress,
  systemResolver,
} from './destination-policy.js'
export {
  type HookHeadersInput,
  hookHeaders,
  REDACTED,
  RESOURCE_ACCESS_TOKEN_HOOK_EVENT,
  redactHookHeaders,
  uuidFrom,
} from './hook-headers.js'
export {
  type SendFailure,
  type SendSuccess,
  SIGNATURE_HEADER,
  type SignatureProblem,
  verifyWebhookSignature,
  type WebhookSender,
  type WebhookSenderOptions,
  webhookSender,
} from './webhook-sender.js'
