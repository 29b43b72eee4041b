import { err, ok, type Result } from 'neverthrow'
import { maskSecrets } from './mask-secrets.js'

/**
 * A parsed `--database` URL: the SQL dialect and what its driver needs.
 */
export type DatabaseUrl =
  | { readonly dialect: 'sqlite'; readonly file: string }
  | { readonly dialect: 'postgres'; readonly url: string }
  | { readonly dialect: 'mysql'; readonly url: string }

const SERVER_SCHEMES: Readonly<Record<string, 'postgres' | 'mysql'>> = {
  'postgres:': 'postgres',
  'postgresql:': 'postgres',
  'mysql:': 'mysql',
  'mariadb:': 'mysql',
}

/**
 * Parses a `--database` value: `sqlite:./file.db`, `sqlite:///absolute/file.db`, `sqlite::memory:`,
 * `postgres://user:password@host:5432/db` (or `postgresql://`), `mysql://user:password@host:3306/db`
 * (or `mariadb://`). The error is a sentence for the user.
 */
export function parseDatabaseUrl(value: string): Result<DatabaseUrl, string> {
  if (value.startsWith('sqlite:')) {
    // `sqlite:///abs.db` is the URL form of an absolute path, `sqlite:./rel.db` the short form.
    const rest = value.slice('sqlite:'.length)
    const file = rest.startsWith('//') ? rest.slice(2) : rest
    if (file === '') return err('--database sqlite: needs a file, e.g. sqlite:./patkit.db')
    return ok({ dialect: 'sqlite', file })
  }
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return err(
      `--database must be a URL such as sqlite:./patkit.db, postgres://... or mysql://..., got ${JSON.stringify(maskSecrets(value))}`,
    )
  }
  const dialect = SERVER_SCHEMES[url.protocol]
  if (dialect === undefined) {
    return err(
      `--database: unsupported scheme "${url.protocol}" (supported: sqlite:, postgres:, postgresql:, mysql:, mariadb:)`,
    )
  }
  if (url.hostname === '') return err(`--database: ${maskSecrets(value)} names no host`)
  if (dialect === 'mysql' && url.protocol === 'mariadb:') {
    // mysql2 speaks to MariaDB too but only reads mysql:// URLs.
    const copy = new URL(`mysql:${value.slice('mariadb:'.length)}`)
    return ok({ dialect, url: copy.href })
  }
  return ok({ dialect, url: value })
}

/**
 * A database URL fit for a message: the password replaced by `***`.
 */
export function describeDatabase(database: DatabaseUrl): string {
  if (database.dialect === 'sqlite') return `sqlite:${database.file}`
  return maskSecrets(database.url)
}
