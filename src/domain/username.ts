import { err, ok, type Result } from 'neverthrow'
import type { ErrorOf } from './errors.js'

import { fullMessages, pathProblems } from './namespace-path.js'

// A user's username is the path of its user namespace, a root namespace, and the namespace's path
// errors are the user's (User#set_username_errors, app/models/user.rb): see namespace-path.ts.

/** Why a username is refused: GitLab's messages for it, joined as GitLab joins them. */
export type UsernameError = ErrorOf<'bad_request'> & { readonly reason: string }

/**
 * Checks a username against GitLab's rules for a new one (its user namespace's path: present, 2 to
 * 255 characters, letters, digits and single `.`, `_` or `-` between them, no `.git`/`.atom` end,
 * not a top-level route such as `admin` or `api` in any case). A refusal is `bad_request` whose
 * `reason` is GitLab's full message (`Username is too long (maximum is 255 characters)`), several
 * joined with "and" as GitLab's `to_sentence` does. Whether the username is taken is the store's
 * question, not this one's. (Used by every way a username enters: service accounts, the authority's
 * `putUser`, the fake's seeds and control API.)
 */
export function checkUsername(username: string): Result<string, UsernameError> {
  const broken = pathProblems(username, 'root_namespace')
  if (broken.length === 0) return ok(username)
  return err({ type: 'bad_request', reason: fullMessages('Username', broken) })
}
