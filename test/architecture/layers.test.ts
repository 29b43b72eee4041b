import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// The layer rules of ARCHITECTURE.md, checked from the imports of every src/**/*.ts file. The wall-clock
// rule (only src/domain/clock.ts) is test/domain/purity.test.ts's, not repeated here.

const root = join(import.meta.dirname, '..', '..')
const src = join(root, 'src')

/** The entry `patkit` itself: src/index.ts, not in a folder. */
const ROOT_ENTRY = 'index.ts'

/**
 * What each top folder of src may import (besides itself): ARCHITECTURE.md's table, once. The design's
 * layering, not today's imports: where the two differ today, the difference is in EXCEPTIONS.
 */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  [ROOT_ENTRY]: ['domain', 'query', 'store', 'authority'],
  domain: [],
  query: ['domain'],
  store: ['domain', 'query'],
  authority: ['domain', 'query', 'store'],
  // The entry patkit/releases: the release table and the deprecation schedule, which live in authority.
  releases: ['domain', 'authority'],
  memory: ['domain', 'query', 'store'],
  // cache/invalidation.ts is the invalidation port; sql's PostgreSQL and polling notifiers implement it.
  sql: ['domain', 'query', 'store', 'cache'],
  cache: ['domain', 'store'],
  http: ['domain', 'query', 'store', 'authority'],
  node: ['domain', 'query', 'store', 'authority', 'http'],
  // The Node frameworks reuse node's request reading and `withToken`.
  express: ['domain', 'query', 'store', 'authority', 'http', 'node'],
  fastify: ['domain', 'query', 'store', 'authority', 'http', 'node'],
  hono: ['domain', 'query', 'store', 'authority', 'http'],
  next: ['domain', 'query', 'store', 'authority', 'http'],
  // The fake GitLab (createFakeGitLab, its control plane, the seed format and loader): serves the API on
  // Node over any store, the memory store by default (design.md, Stage 3, "The fake's home").
  // It delivers GitLab's access-token expiry webhooks through patkit/webhooks (issue 33).
  fake: ['domain', 'query', 'store', 'authority', 'memory', 'http', 'node', 'webhooks'],
  // The store conformance suite and fixtures only (design.md, Stage 3).
  testing: ['domain', 'query', 'store'],
  // Everything but testing: the CLI imports the fake, never the conformance suite (design.md, Stage 3).
  cli: [
    'domain',
    'query',
    'store',
    'authority',
    'memory',
    'sql',
    'cache',
    'http',
    'node',
    'fake',
    'webhooks',
  ],
  // GitLab's webhook delivery and the embedders' signed sender (issue 33): domain and Node only.
  webhooks: ['domain'],
}

/** The files directly in src/authority: the assembly (`create-authority.ts`), the entry and `AuthorityError`. */
const AUTHORITY_TOP = '(top)'

/**
 * What each sub-folder of src/authority may import inside the authority (besides itself), as
 * ARCHITECTURE.md says: `core` is the shared lib (dependencies, principal, authentication, the one
 * mint path and token kinds, the one rotation rule, scope policy, grace window, the shared lookups)
 * and imports no concern; each concern imports `core` and no other concern, but a resource token's
 * rotation, which is a rotate request with the resource's rule (`requests`); the top assembles them all.
 */
const AUTHORITY_MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  core: [],
  requests: ['core'],
  personal: ['core'],
  impersonation: ['core'],
  resource: ['core', 'requests'],
  'service-accounts': ['core'],
  users: ['core'],
  admin: ['core'],
  hooks: ['core'],
  [AUTHORITY_TOP]: [
    'core',
    'requests',
    'personal',
    'impersonation',
    'resource',
    'service-accounts',
    'users',
    'admin',
    'hooks',
  ],
}

type Exception =
  | {
      readonly kind: 'import'
      readonly from: string
      readonly to: string
      /** The files of `from` that import `to` today, relative to the repository root. */
      readonly files: readonly string[]
      readonly reason: string
      readonly removedBy: string
    }
  | {
      readonly kind: 'cycle'
      readonly folders: readonly string[]
      readonly reason: string
      readonly removedBy: string
    }

/**
 * Every place the code breaks the table above, each with why and what removes it. A new violation
 * fails; so does an entry here that no longer matches the code (delete it when its move is done).
 * Empty since the fake moved to src/fake; the mechanism stays for the next planned move.
 */
const EXCEPTIONS: readonly Exception[] = []

interface Edge {
  readonly file: string
  readonly from: string
  readonly to: string
  readonly specifier: string
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : []
  })
}

function folderOf(path: string): string {
  const parts = relative(src, path).split(sep)
  return parts.length === 1 ? ROOT_ENTRY : (parts[0] as string)
}

function importsOf(path: string): string[] {
  // TypeScript's own pre-parser: import/export-from (type-only too) and import(), never comments.
  return ts.preProcessFile(readFileSync(path, 'utf8'), true, true).importedFiles.map((f) => f.fileName)
}

const files = sourceFiles(src)

/** Every relative import that crosses a folder boundary. */
const edges: readonly Edge[] = files.flatMap((path) =>
  importsOf(path)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => ({
      file: relative(root, path).split(sep).join('/'),
      from: folderOf(path),
      to: folderOf(resolve(dirname(path), specifier)),
      specifier,
    }))
    .filter((edge) => edge.from !== edge.to),
)

const importExceptions = EXCEPTIONS.flatMap((e) => (e.kind === 'import' ? [e] : []))
const cycleExceptions = EXCEPTIONS.flatMap((e) => (e.kind === 'cycle' ? [e] : []))

function isAllowed(edge: Edge): boolean {
  return (MAY_IMPORT[edge.from] ?? []).includes(edge.to)
}

function isExcepted(edge: Edge): boolean {
  return importExceptions.some((e) => e.from === edge.from && e.to === edge.to && e.files.includes(edge.file))
}

/** The groups of folders that reach each other (strongly connected, more than one), named sorted. */
function cyclesOf(graph: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const reach = (start: string): Set<string> => {
    const seen = new Set<string>()
    const stack = [...(graph.get(start) ?? [])]
    for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
      if (seen.has(next)) continue
      seen.add(next)
      stack.push(...(graph.get(next) ?? []))
    }
    return seen
  }
  const reached = new Map([...graph.keys()].map((node) => [node, reach(node)]))
  const groups = new Set<string>()
  for (const [node, from] of reached) {
    if (!from.has(node)) continue
    const group = [...from].filter((other) => reached.get(other)?.has(node)).sort()
    groups.add(group.join(' <-> '))
  }
  return [...groups].sort()
}

function graphOf(pairs: Iterable<readonly [string, string]>): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>()
  for (const [from, to] of pairs) {
    const targets = graph.get(from) ?? new Set<string>()
    targets.add(to)
    graph.set(from, targets)
  }
  return graph
}

const authorityRoot = join(src, 'authority')

/** The sub-folder of src/authority a path is in, or {@link AUTHORITY_TOP}; `null` outside the authority. */
function authorityFolderOf(path: string): string | null {
  const parts = relative(authorityRoot, path).split(sep)
  if (parts[0] === '..') return null
  return parts.length === 1 ? AUTHORITY_TOP : (parts[0] as string)
}

const authorityFiles = files.filter((path) => authorityFolderOf(path) !== null)

/** Every relative import between two sub-folders of src/authority. */
const authorityEdges: readonly Edge[] = authorityFiles.flatMap((path) =>
  importsOf(path)
    .filter((specifier) => specifier.startsWith('.'))
    .flatMap((specifier) => {
      const from = authorityFolderOf(path) as string
      const to = authorityFolderOf(resolve(dirname(path), specifier))
      const file = relative(root, path).split(sep).join('/')
      return to === null || to === from ? [] : [{ file, from, to, specifier }]
    }),
)

describe('the sub-folders of src/authority (ARCHITECTURE.md)', () => {
  it('reads the imports between them', () => {
    expect(authorityFiles.length).toBeGreaterThan(50)
    expect(authorityEdges.length).toBeGreaterThan(100)
  })

  it('the table names every sub-folder, and only those', () => {
    const folders = [...new Set(authorityFiles.map((path) => authorityFolderOf(path) as string))].sort()
    expect(Object.keys(AUTHORITY_MAY_IMPORT).sort()).toEqual(folders)
  })

  it('the table itself has no cycle', () => {
    const pairs = Object.entries(AUTHORITY_MAY_IMPORT).flatMap(([from, tos]) =>
      tos.map((to) => [from, to] as const),
    )
    expect(cyclesOf(graphOf(pairs))).toEqual([])
  })

  it('each sub-folder imports only what the table says, with no exception', () => {
    const offenders = authorityEdges
      .filter((edge) => !(AUTHORITY_MAY_IMPORT[edge.from] ?? []).includes(edge.to))
      .map((edge) => `${edge.file} (${edge.from}) imports ${edge.specifier} (${edge.to})`)
    expect(offenders).toEqual([])
  })
})

describe('layers (ARCHITECTURE.md)', () => {
  it('reads the imports of every source file', () => {
    // A floor, so a broken reader cannot pass by finding nothing.
    expect(files.length).toBeGreaterThan(200)
    expect(edges.length).toBeGreaterThan(300)
  })

  it('the table names every top folder of src, and only those', () => {
    const folders = [...new Set(files.map(folderOf))].sort()
    expect(Object.keys(MAY_IMPORT).sort()).toEqual(folders)
  })

  it('the table itself has no cycle', () => {
    const pairs = Object.entries(MAY_IMPORT).flatMap(([from, tos]) => tos.map((to) => [from, to] as const))
    expect(cyclesOf(graphOf(pairs))).toEqual([])
  })

  it('each folder imports only what its layer may, or a listed exception', () => {
    const offenders = edges
      .filter((edge) => !isAllowed(edge) && !isExcepted(edge))
      .map((edge) => `${edge.file} (${edge.from}) imports ${edge.specifier} (${edge.to})`)
    expect(offenders).toEqual([])
  })

  it('every listed exception is still needed (delete the ones the code no longer makes)', () => {
    const stale = importExceptions.flatMap((e) => [
      ...((MAY_IMPORT[e.from] ?? []).includes(e.to) ? [`${e.from} -> ${e.to} is allowed by the table`] : []),
      ...e.files
        .filter((file) => !edges.some((edge) => edge.file === file && edge.to === e.to))
        .map((file) => `${file} no longer imports ${e.to}`),
    ])
    expect(stale).toEqual([])
    for (const e of EXCEPTIONS) {
      expect(e.reason.length, 'an exception says why').toBeGreaterThan(0)
      expect(e.removedBy.length, 'an exception says what removes it').toBeGreaterThan(0)
    }
  })

  it('no import cycle between folders but the listed ones', () => {
    const found = cyclesOf(graphOf(edges.map((edge) => [edge.from, edge.to] as const)))
    const known = cycleExceptions.map((e) => [...e.folders].sort().join(' <-> ')).sort()
    expect(found).toEqual(known)
  })

  it('src/domain imports no node: module, but node-crypto.ts as types (the lookup at run time)', () => {
    const domain = files.filter((path) => folderOf(path) === 'domain')
    const offenders = domain
      .filter((path) => !path.endsWith(join('domain', 'node-crypto.ts')))
      .flatMap((path) =>
        importsOf(path)
          .filter((specifier) => specifier.startsWith('node:'))
          .map((s) => `${relative(root, path)}: ${s}`),
      )
    expect(offenders).toEqual([])
    const nodeCrypto = join(src, 'domain', 'node-crypto.ts')
    const source = ts.createSourceFile(nodeCrypto, readFileSync(nodeCrypto, 'utf8'), ts.ScriptTarget.Latest)
    const valueImports = source.statements
      .filter(ts.isImportDeclaration)
      .filter((s) => ts.isStringLiteral(s.moduleSpecifier) && s.moduleSpecifier.text.startsWith('node:'))
      .filter((s) => s.importClause?.isTypeOnly !== true)
      .map((s) => s.getText(source))
    expect(valueImports).toEqual([])
  })
})
