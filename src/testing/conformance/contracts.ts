/**
 * The contracts of the {@link TokenStore} port that the conformance suite enforces beyond the method
 * signatures, by id. The same ids name them in the port's JSDoc and in docs/storage.md ("Writing a
 * store for another database"), and every failure of a check the suite makes for one names its id
 * and says it, so a store author learns the rule from the failure (test/docs/store-contract.test.ts
 * holds the three lists to one another).
 */
export const STORE_CONTRACTS = {
  'exact-copy':
    'a stored token reads back exactly as given: insert returns the draft with its id (and familyId = id when the draft has none), importToken the token itself, every field kept (scopes as the strings given, instants to the millisecond), and every read returns the same',
  'increasing-ids':
    'insert and rotate assign positive safe-integer ids, each above every id stored before, imported ids included',
  'taken-id-or-digest':
    'insert refuses a token whose digest is already stored, and importToken one whose id or digest is, with a store_failure, storing nothing',
  'one-successor':
    'a token has at most one successor: insert and importToken refuse a token whose previousId already has a successor with a store_failure (make it a constraint, such as UNIQUE (previous_id), not a check), and rotate of a revoked token fails with already_revoked',
  'conflict-key':
    "a write refused because a unique key is taken names the key in the store_failure's conflict: 'digest' (insert, importToken), 'id' (importToken), 'previous_id' (a second successor), 'username' (putUser, resources.createUser; in any case); any other failure names none",
  'failed-rotation-stores-nothing':
    "rotate (and rotateWithReceipt) of an unknown id fails with { type: 'not_found', entity: 'token' }, of a revoked token with { type: 'already_revoked', tokenId }, and stores neither a successor nor a receipt",
  'no-empty-ips':
    'lastUsedIps is absent, not [], on a token with no recorded address, in every token a method returns (reads, insert, importToken, rotate, revokeDescendants); when present it holds one to five addresses, oldest first',
  snapshots:
    'a token a method returned never changes afterwards: the store hands out copies or frozen objects, never the row it goes on updating',
  'exact-digest': 'findByDigest and findByDigestWithUser match the digest exactly, case included',
  'tokens-without-users':
    "a token's user need not be in the store (the authority may have a user directory of its own): insert accepts the token, and findByDigestWithUser answers it with user: null",
  'user-refs':
    'findUser finds a user by id, by an id written as a string of digits (integer ids) or by username in any case; with string ids a string is a username only and a number finds no one; putUser replaces the user with the same id',
  'user-id-kind':
    'a store holds one kind of user id and refuses a user or token whose id is of the other kind (or an empty or space-padded string) with a store_failure; userIdType, when the store declares it, names that kind',
  'list-pages':
    'list returns one page of the matches in the query’s order and the total of every match; a page past the end is empty and still carries the total',
} as const

/**
 * The id of one of the {@link STORE_CONTRACTS}.
 */
export type ContractId = keyof typeof STORE_CONTRACTS

/**
 * A contract as a failure states it: its id and what it says.
 */
export function contract(id: ContractId): string {
  return `[store contract ${id}: ${STORE_CONTRACTS[id]}]`
}
