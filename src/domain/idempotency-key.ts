import { err, ok, type Result } from 'neverthrow'
import type { ErrorOf } from './errors.js'

// The header's name, as the IETF's idempotency-key draft (draft-ietf-httpapi-idempotency-key-header) spells it.
const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key'

/**
 * The longest key accepted, in characters: room for any UUID or ULID form, and a bound on what a
 * client can make the authority hash.
 */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255

// Printable ASCII, space included: what a header value can carry without encoding questions. The
// value is opaque (the draft's sf-string quotes, if a client sends them, are part of it).
const PRINTABLE = /^[\x20-\x7e]+$/

/** Checks an `Idempotency-Key` value: 1 to 255 printable ASCII characters, kept exactly as given. */
export function parseIdempotencyKey(value: string): Result<string, ErrorOf<'invalid_parameter'>> {
  if (value.length > IDEMPOTENCY_KEY_MAX_LENGTH || !PRINTABLE.test(value)) {
    return err({ type: 'invalid_parameter', parameter: IDEMPOTENCY_KEY_HEADER, reason: 'invalid' })
  }
  return ok(value)
}
