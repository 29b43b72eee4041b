// GitLab's rules for the path of a namespace (a user's, whose path is the username, or a group's) and
// of a project. From gitlabhq (newest copies the code search holds):
// - app/models/namespace.rb (2008eb99): `path` present, at most URL_MAX_LENGTH (255), matching
//   Gitlab::Regex.oci_repository_path_regex when it changes, `namespace_path: true`, and at least 2
//   characters when it changes (issue 225214; project namespaces excepted);
// - lib/gitlab/regex.rb (5d1088c2): oci_repository_path_regex and its message;
// - app/validators/namespace_path_validator.rb (5c583c8e) and project_path_validator.rb over
//   AbstractPathValidator: the format, then "<value> is a reserved name";
// - lib/gitlab/path_regex.rb (03b596d4): NAMESPACE_FORMAT_REGEX and PROJECT_PATH_FORMAT_REGEX with
//   their messages, TOP_LEVEL_ROUTES (refused for a root namespace), ILLEGAL_GROUP_PATH_WORDS (for a
//   subgroup) and ILLEGAL_PROJECT_PATH_WORDS (for a project), in any case.

/** The longest path of a namespace or project: URL_MAX_LENGTH, and the SQL store's `varchar(255)`. */
export const PATH_MAX_LENGTH = 255

const NAMESPACE_MIN_LENGTH = 2

// Gitlab::Regex.oci_repository_path_regex: letters and digits, one of '.', '_', '-' between them.
const OCI_PATH = /^[a-zA-Z0-9]+(?:[._-][a-zA-Z0-9]+)*$/
const OCI_MESSAGE =
  "can only include non-accented letters, digits, '_', '-' and '.'. It must not start with '-', '_', or '.', nor end with '-', '_', '.', '.git', or '.atom'."

// Gitlab::PathRegex: NAMESPACE_FORMAT_REGEX_JS and PATH_REGEX_STR, without a `.git`/`.atom` end.
const NAMESPACE_FORMAT = /^(?:[a-zA-Z0-9_.][a-zA-Z0-9_.-]*[a-zA-Z0-9_-]|[a-zA-Z0-9_])$/
const PROJECT_FORMAT = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/
const NO_SUFFIX = /\.(?:git|atom)$/
const NAMESPACE_FORMAT_MESSAGE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."
const PROJECT_FORMAT_MESSAGE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'"

// Gitlab::PathRegex::TOP_LEVEL_ROUTES.
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

// Gitlab::PathRegex::PROJECT_WILDCARD_ROUTES: ILLEGAL_PROJECT_PATH_WORDS, and with GROUP_ROUTES (`-`)
// ILLEGAL_GROUP_PATH_WORDS. (Entries with a '/' can never be one path.)
const PROJECT_WILDCARD_ROUTES: ReadonlySet<string> = new Set([
  '-',
  'badges',
  'blame',
  'blob',
  'builds',
  'commits',
  'create',
  'create_dir',
  'edit',
  'files',
  'find_file',
  'new',
  'preview',
  'raw',
  'refs',
  'tree',
  'update',
  'wikis',
])

/** Where a path is: a user's or top-level group's namespace, a subgroup, or a project. */
export type PathKind = 'root_namespace' | 'subgroup' | 'project'

/**
 * Each of GitLab's rules the path breaks, as the message its validations add (without the attribute's
 * name), in the order they add them; empty when the path is valid.
 */
export function pathProblems(path: string, kind: PathKind): string[] {
  if (path === '') return ["can't be blank"]
  const broken: string[] = []
  const tooLong = `is too long (maximum is ${PATH_MAX_LENGTH} characters)`
  if (kind === 'project') {
    // Project: `validates :path, presence: true, project_path: true, length: { maximum: 255 }`.
    if (!PROJECT_FORMAT.test(path) || NO_SUFFIX.test(path)) broken.push(PROJECT_FORMAT_MESSAGE)
    else if (PROJECT_WILDCARD_ROUTES.has(path.toLowerCase())) broken.push(`${path} is a reserved name`)
    if (path.length > PATH_MAX_LENGTH) broken.push(tooLong)
    return broken
  }
  if (path.length > PATH_MAX_LENGTH) broken.push(tooLong)
  if (!OCI_PATH.test(path)) broken.push(OCI_MESSAGE)
  const reserved = kind === 'root_namespace' ? TOP_LEVEL_ROUTES : PROJECT_WILDCARD_ROUTES
  if (!NAMESPACE_FORMAT.test(path) || NO_SUFFIX.test(path)) broken.push(NAMESPACE_FORMAT_MESSAGE)
  else if (reserved.has(path.toLowerCase())) broken.push(`${path} is a reserved name`)
  if (path.length < NAMESPACE_MIN_LENGTH) {
    broken.push(`is too short (minimum is ${NAMESPACE_MIN_LENGTH} characters)`)
  }
  return broken
}

/** Rails' `Array#to_sentence` over full messages (`Username is …`): `a`, `a and b`, `a, b, and c`. */
export function fullMessages(attribute: string, problems: readonly string[]): string {
  const parts = problems.map((problem) => `${attribute} ${problem}`)
  if (parts.length <= 2) return parts.join(' and ')
  return `${parts.slice(0, -1).join(', ')}, and ${parts.at(-1) ?? ''}`
}
