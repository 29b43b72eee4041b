import { err, ok, type Result } from 'neverthrow'
import type { ErrorOf } from './errors.js'

// GitLab's username rules: a user's username is the path of its user namespace, and the namespace's
// path errors are the user's (User#set_username_errors). From gitlabhq (newest copies read):
// - app/models/namespace.rb (2008eb99): `path` present, at most URL_MAX_LENGTH (255), matching
//   Gitlab::Regex.oci_repository_path_regex, `namespace_path: true`, and at least 2 characters when
//   it changes;
// - lib/gitlab/regex.rb (5d1088c2): oci_repository_path_regex and its message;
// - app/validators/namespace_path_validator.rb (5c583c8e) over AbstractPathValidator: the format
//   (Gitlab::PathRegex.namespace_format_regex, namespace_format_message), then "<value> is a reserved
//   name" for a top-level route;
// - lib/gitlab/path_regex.rb (03b596d4): NAMESPACE_FORMAT_REGEX, namespace_format_message and
//   TOP_LEVEL_ROUTES (a root namespace path may not be one of them, in any case).

/** The longest username: the namespace's URL_MAX_LENGTH, and the SQL store's `varchar(255)`. */
export const USERNAME_MAX_LENGTH = 255

const USERNAME_MIN_LENGTH = 2

// Gitlab::Regex.oci_repository_path_regex: letters and digits, one of '.', '_', '-' between them.
const OCI_PATH = /^[a-zA-Z0-9]+(?:[._-][a-zA-Z0-9]+)*$/
const OCI_MESSAGE =
  "can only include non-accented letters, digits, '_', '-' and '.'. It must not start with '-', '_', or '.', nor end with '-', '_', '.', '.git', or '.atom'."

// Gitlab::PathRegex.namespace_format_regex: NAMESPACE_FORMAT_REGEX_JS without a `.git`/`.atom` end.
const NAMESPACE_FORMAT = /^(?:[a-zA-Z0-9_.][a-zA-Z0-9_.-]*[a-zA-Z0-9_-]|[a-zA-Z0-9_])$/
const NAMESPACE_SUFFIX = /\.(?:git|atom)$/
const NAMESPACE_FORMAT_MESSAGE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."

// Gitlab::PathRegex::TOP_LEVEL_ROUTES: a user's namespace is top-level, so these are refused.
const TOP_LEVEL_ROUTES: ReadonlySet<string> = new Set([
  '-',
  '.well-known',
  '404.html',
  '422.html',
  '500.html',
  '502.html',
  '503.html',
  'abuse_reports',
  'admin',
  'api',
  'apple-touch-icon-precomposed.png',
  'apple-touch-icon.png',
  'assets',
  'autocomplete',
  'ci',
  'dashboard',
  'deploy.html',
  'explore',
  'favicon.ico',
  'files',
  'groups',
  'header_logo_dark.png',
  'header_logo_light.png',
  'health_check',
  'help',
  'import',
  'invites',
  'jwt',
  'koding',
  'notification_settings',
  'oauth',
  'profile',
  'projects',
  'public',
  'robots.txt',
  's',
  'search',
  'sent_notifications',
  'slash-command-logo.png',
  'snippets',
  'u',
  'unsubscribes',
  'uploads',
  'users',
])

/** Why a username is refused: GitLab's messages for it, joined as GitLab joins them. */
export type UsernameError = ErrorOf<'bad_request'> & { readonly reason: string }

/** Rails' `Array#to_sentence`: `a`, `a and b`, `a, b, and c`. */
function toSentence(parts: readonly string[]): string {
  if (parts.length <= 2) return parts.join(' and ')
  return `${parts.slice(0, -1).join(', ')}, and ${parts.at(-1) ?? ''}`
}

/** Each rule the username breaks, in the order GitLab's validations add them. */
function brokenRules(username: string): string[] {
  if (username === '') return ["can't be blank"]
  const broken: string[] = []
  if (username.length > USERNAME_MAX_LENGTH) {
    broken.push(`is too long (maximum is ${USERNAME_MAX_LENGTH} characters)`)
  }
  if (!OCI_PATH.test(username)) broken.push(OCI_MESSAGE)
  if (!NAMESPACE_FORMAT.test(username) || NAMESPACE_SUFFIX.test(username)) {
    broken.push(NAMESPACE_FORMAT_MESSAGE)
  } else if (TOP_LEVEL_ROUTES.has(username.toLowerCase())) {
    broken.push(`${username} is a reserved name`)
  }
  if (username.length < USERNAME_MIN_LENGTH) {
    broken.push(`is too short (minimum is ${USERNAME_MIN_LENGTH} characters)`)
  }
  return broken
}

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
  const broken = brokenRules(username)
  if (broken.length === 0) return ok(username)
  return err({ type: 'bad_request', reason: toSentence(broken.map((rule) => `Username ${rule}`)) })
}
