import type { Result } from 'neverthrow'
import { type ContractId, contract } from './contracts.js'
import { callOf, summarize } from './described-store.js'

type Outcome<T, E> = PromiseLike<Result<T, E>>

/** The call a failure is about: the described store's record of it, with the call site's note. */
function callNamed(outcome: object, note: string | undefined): string {
  const call = callOf(outcome) ?? 'the call'
  return note === undefined ? call : `${call} [${note}]`
}

/**
 * The value of a store call that must succeed; a failure fails the test naming the call (its
 * operation and arguments, when the store came from the suite) and the error, and the contract the
 * call is about when one is given.
 */
export async function okValue<T, E>(outcome: Outcome<T, E>, about?: ContractId, note?: string): Promise<T> {
  const result = await outcome
  if (result.isErr()) {
    const expected = about === undefined ? 'expected ok' : `expected ok ${contract(about)}`
    throw new Error(`${callNamed(outcome, note)}: ${expected}, got the error ${summarize(result.error)}`)
  }
  return result.value
}

/**
 * The error of a store call that must fail; a success fails the test naming the call (its operation
 * and arguments, when the store came from the suite, and the call site's `note`), the contract it
 * breaks, and the value the store answered.
 */
export async function errValue<T, E>(outcome: Outcome<T, E>, about?: ContractId, note?: string): Promise<E> {
  const result = await outcome
  if (result.isOk()) {
    const expected =
      about === undefined
        ? 'expected the store to refuse it'
        : `expected the store to refuse it ${contract(about)}`
    throw new Error(`${callNamed(outcome, note)}: ${expected}, got ok(${summarize(result.value)})`)
  }
  return result.error
}

/**
 * Fails the test naming the call and the contract when `holds` is false: a contract that is a
 * property of a value (a field a token must not have) rather than an outcome.
 */
export function expectContract(about: ContractId, call: string, holds: boolean, got: unknown): void {
  if (!holds) throw new Error(`${call}: answered ${summarize(got)}, which breaks ${contract(about)}`)
}
