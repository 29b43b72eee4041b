import type { Kysely } from 'kysely'
import { errAsync, okAsync, ResultAsync } from 'neverthrow'
import type { StoreFailure } from '../domain/errors.js'
import { createDigester } from '../domain/secret.js'
import { resolveOptions, type SqlContext, type SqlStoreOptions } from './options.js'
import { retrying, toStoreFailure } from './store-failure.js'
import { writeTransaction } from './transaction.js'

/** The settings row holding the fingerprint. */
const SETTING = 'pepper_fingerprint'
// Domain separation: the fingerprint is an HMAC of this label, which no token secret is (it starts
// with a NUL), so it can never equal a stored token digest.
const LABEL = '\u0000patkit pepper fingerprint v1'

/**
 * A database refused because its tokens were stored under another pepper: with this one, none of
 * them would authenticate.
 *
 * @example
 * ```ts
 * import type { PepperMismatch } from 'patkit/sql'
 * const mismatch: PepperMismatch = { type: 'pepper_mismatch' }
 * ```
 */
export interface PepperMismatch {
  readonly type: 'pepper_mismatch'
}

/**
 * What {@link verifyPepper} found: the database had no fingerprint and now records this pepper's, or
 * its fingerprint is this pepper's.
 *
 * @example
 * ```ts
 * import type { PepperCheck } from 'patkit/sql'
 * const first: PepperCheck = 'recorded'
 * ```
 */
export type PepperCheck = 'recorded' | 'matched'

/**
 * The pepper's fingerprint: a keyed check value (HMAC-SHA-256 under the pepper of a fixed label), so
 * it tells whether two peppers are the same without revealing the pepper.
 *
 * @example
 * ```ts
 * import { pepperFingerprint } from 'patkit/sql'
 *
 * pepperFingerprint('a') === pepperFingerprint('a') // true
 * ```
 */
export function pepperFingerprint(pepper: string): string {
  return createDigester(pepper)(LABEL)
}

function check(context: SqlContext, fingerprint: string): Promise<PepperCheck | PepperMismatch> {
  return writeTransaction(context, async (trx) => {
    const stored = await trx
      .selectFrom('settings')
      .select('settings.value')
      .where('settings.name', '=', SETTING)
      .executeTakeFirst()
    if (stored !== undefined) {
      return stored.value === fingerprint ? 'matched' : ({ type: 'pepper_mismatch' } as const)
    }
    await trx.insertInto('settings').values({ name: SETTING, value: fingerprint }).execute()
    return 'recorded'
  })
}

/**
 * Guards a database against a pepper change: records the pepper's fingerprint with the data on first
 * use (insert-if-absent, safe when several processes start at once), and afterwards fails with
 * `pepper_mismatch` when started with another pepper, instead of running with every stored token
 * silently refusing to authenticate. Run {@link migrate} first; `patkit serve` calls it on every start.
 *
 * @example
 * ```ts
 * import { migrate, verifyPepper } from 'patkit/sql'
 * await migrate(db)
 * const checked = await verifyPepper(db, process.env.PATKIT_PEPPER ?? '')
 * if (checked.isErr()) throw new Error(checked.error.type) // 'pepper_mismatch' | 'store_failure'
 * ```
 */
export function verifyPepper<DB>(
  db: Kysely<DB>,
  pepper: string,
  options: SqlStoreOptions = {},
): ResultAsync<PepperCheck, PepperMismatch | StoreFailure> {
  const context = resolveOptions(db, options)
  const fingerprint = pepperFingerprint(pepper)
  // Two processes starting together on a fresh database both find no row; the second insert
  // violates the primary key, and once more it reads the first one's fingerprint.
  const run = () => retrying(() => check(context, fingerprint), context.dialect.isUniqueViolation, 2)
  return ResultAsync.fromPromise(run(), toStoreFailure('verifyPepper')).andThen((outcome) =>
    typeof outcome === 'string' ? okAsync(outcome) : errAsync(outcome),
  )
}
