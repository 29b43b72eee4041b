import { err, ok, type Result } from 'neverthrow'
import { checkToken, type GivenState, mintToken } from '../../domain/create-token.js'
import type { ErrorOf, StoreFailure } from '../../domain/errors.js'
import type { GranularScope } from '../../domain/granular-scope.js'
import type { MintPolicy } from '../../domain/mint-policy.js'
import type { UserId } from '../../domain/user-id.js'
import type { User } from '../../store/user.js'
import { type AuthorityDeps, mintContext } from './deps.js'
import { toTokenInfo } from './events.js'
import type { IssuedToken } from './issued-token.js'
import { familyOf } from './predecessor.js'

/** What the checks on the caller settle: whose token it is, and who is recorded as its creator. */
export interface Admission {
  /** The owner, or (a resource's bot) how to make it once the request passed its own checks. */
  readonly owner: User | OwnerToMake
  /** The `actorUserId` of the event: `null` when no one asked (seeds, fixtures). */
  readonly actorUserId: UserId | null
}

/**
 * An owner made by the mint itself, after the request's checks, so that a refused request leaves
 * nothing behind (GitLab makes a resource token's bot, then deletes it when the token fails).
 */
export interface OwnerToMake {
  /** Makes the owner, named after the token (GitLab names a bot after its token). */
  readonly make: (tokenName: string) => Promise<Result<User, StoreFailure | ErrorOf<'not_found'>>>
}

/**
 * A kind of token: its policy as data (`MintPolicy`: scopes, expiry, impersonation, given state),
 * who may mint it for whom (`admit`, GitLab's authentication and endpoint checks, which come before
 * the request's parameters are looked at), and the event that announces it. The kinds are in
 * `token-kinds.ts`; {@link mint} is the one path that makes a token of any of them.
 */
export interface TokenKind<Caller, Target, E, A extends Admission = Admission> extends MintPolicy {
  readonly name: string
  readonly admit: (deps: AuthorityDeps, caller: Caller, target: Target) => Promise<Result<A, E>>
  readonly event: 'created'
}

/** A request to mint, whatever the kind. */
export interface MintRequest {
  readonly name: string
  readonly scopes: readonly string[]
  /** A fine-grained token's scopes, checked by the caller; `scopes` is empty then. */
  readonly granularScopes?: readonly GranularScope[]
  readonly description?: string | null
  /** `YYYY-MM-DD`; absent for the kind's default; `null` (never) where the kind's expiry rule takes it. */
  readonly expiresAt?: string | null
  /** Read only for a kind whose `state` is `given`; `id` stores the token under that id. */
  readonly given?: GivenState & { readonly id?: number }
}

/**
 * Secrets {@link mint} draws for one token while each one's digest is already stored; then the
 * `store_failure` with `conflict: 'digest'` is the answer (the random source is not random).
 */
const MINT_ATTEMPTS = 8

/** The ways {@link mint} fails besides the kind's `admit`. */
export type MintError = ErrorOf<
  'invalid_parameter' | 'validation_failed' | 'invalid_expiry' | 'not_found' | 'store_failure'
>

/**
 * The one mint path of every token kind: admit the caller (the kind's checks, and the owner), check
 * the request (`checkToken`: the kind's scope and expiry rules, GitLab's model rules), make an owner
 * the admission left to make, check the family a given predecessor joins, mint the secret, insert (or
 * import under a given id), emit. A fresh secret whose digest is taken is minted again (at most
 * `MINT_ATTEMPTS` times).
 */
export async function mint<Caller, Target, E>(
  deps: AuthorityDeps,
  kind: TokenKind<Caller, Target, E>,
  caller: Caller,
  target: Target,
  request: MintRequest,
): Promise<Result<IssuedToken, E | MintError>> {
  return (await mintAdmitted(deps, kind, caller, target, request)).map(({ issued }) => issued)
}

/** {@link mint}, answering the admission too, for a kind whose admission says more than the owner. */
export async function mintAdmitted<Caller, Target, E, A extends Admission>(
  deps: AuthorityDeps,
  kind: TokenKind<Caller, Target, E, A>,
  caller: Caller,
  target: Target,
  request: MintRequest,
): Promise<Result<{ readonly issued: IssuedToken; readonly admission: A }, E | MintError>> {
  const admitted = await kind.admit(deps, caller, target)
  if (admitted.isErr()) return err(admitted.error)
  const admission = admitted.value
  const { owner: admittedOwner } = admission
  const known = 'make' in admittedOwner ? null : admittedOwner
  const now = deps.clock.now()
  const ctx = mintContext(deps, now)
  // An owner still to make is a bot: no administrator, and its id known only once it is made.
  const checked = checkToken(
    { ...request, userId: known?.id ?? 0, ownerIsAdmin: known?.admin ?? false },
    ctx,
    kind,
  )
  if (checked.isErr()) return err(checked.error)
  const owner = 'make' in admittedOwner ? await admittedOwner.make(request.name) : ok(admittedOwner)
  if (owner.isErr()) return err(owner.error)
  const userId = owner.value.id
  const previousId = checked.value.draft.previousId
  const family = previousId === null ? ok(null) : await familyOf(deps, previousId, userId)
  if (family.isErr()) return err(family.error)
  const id = kind.state === 'given' ? request.given?.id : undefined
  const draftOf = { ...checked.value, draft: { ...checked.value.draft, userId } }
  // A fresh secret whose digest is already stored (a seeded random source replaying its sequence over
  // a kept database) is drawn again; a given secret is the caller's, and its conflict is the answer.
  const attempts = checked.value.secret === undefined ? MINT_ATTEMPTS : 1
  for (let attempt = 1; ; attempt++) {
    const { draft, secret } = mintToken(draftOf, ctx)
    const token = await (id === undefined
      ? deps.store.insert({ ...draft, familyId: family.value })
      : deps.store.importToken({ ...draft, id, familyId: family.value ?? id }))
    if (token.isErr()) {
      if (token.error.type === 'store_failure' && token.error.conflict === 'digest' && attempt < attempts)
        continue
      return err(token.error)
    }
    deps.emit({
      type: kind.event,
      at: now,
      actorUserId: admission.actorUserId,
      token: toTokenInfo(token.value),
    })
    return ok({ issued: { token: token.value, secret }, admission })
  }
}
