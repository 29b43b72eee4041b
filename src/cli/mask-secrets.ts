// The password of a URL's userinfo (`scheme://user:password@`), however the user part is written.
const USERINFO_PASSWORD = /(\/\/[^\s/@:]*:)[^\s/@]*@/g
// A password given as a parameter: a URL query (`?password=`, `&sslpassword=`) or a libpq
// conninfo string (`password=...`), the forms pg and mysql2 read.
const PASSWORD_PARAMETER = /(\b(?:password|passwd|pwd|pass|sslpassword)\s*=\s*)(?:'[^']*'|[^\s&;'"]+)/gi

/**
 * Replaces every database password in a line with `***`: the userinfo password of any URL and every
 * `password=`-style parameter (URL query or conninfo). What the CLI prints to stderr goes through it,
 * driver messages included, so no form of `--database` can leak its password to a log.
 */
export function maskSecrets(line: string): string {
  return line.replace(USERINFO_PASSWORD, '$1***@').replace(PASSWORD_PARAMETER, '$1***')
}
