/**
 * Type-checks the code examples of the documentation: every ```ts block of a JSDoc `@example` in
 * src/, and every ```ts block of README.md and docs/*.md. The rules (docs/development.md, "Code
 * examples"):
 *
 * - Each block is a module of its own, compiled with the project's tsconfig (unused names allowed) in
 *   one Program, so 450 blocks take seconds.
 * - `patkit` and its subpaths resolve to the src/ entry files the package builds (tsup.config.ts's
 *   entries that package.json exports), so the check needs no build, and an import of a name an entry
 *   does not export fails as it would for a user.
 * - A free name is an error unless {@link EXAMPLE_FIXTURES} declares it: the common fixtures
 *   (`authority`, `store`, `db`, `secret`, ...) with their real types.
 * - A relative import (`./file.js`, resolved from the example's own source file) is how an example of
 *   an internal helper imports it; it may not import a name a public entry point exports (that example
 *   shows users an import they cannot write), and README and docs/ examples may not import relatively
 *   at all.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import ts from 'typescript'

/** One ```ts block: where it is written, and the module it is compiled as. */
export interface Example {
  /** The file it is written in, relative to the repository root. */
  readonly file: string
  /** The line (1-based) of the block's first code line in that file. */
  readonly line: number
  readonly code: string
  readonly from: 'jsdoc' | 'markdown'
}

/** A problem of one example, located in the file it is written in. */
export interface ExampleFailure {
  readonly file: string
  readonly line: number
  readonly message: string
}

/**
 * The names an example may use without declaring them, with their real types. Declared globally for
 * the examples only: a block that declares a name of its own (`const authority = createAuthority(...)`)
 * shadows the fixture.
 */
export const EXAMPLE_FIXTURES = `
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Kysely } from 'kysely'
import type { Authority, Clock, Principal, RandomSource, Token, User } from 'patkit'
import type { Handler } from 'patkit/http'
import type { TokenStore } from 'patkit/store'
import type { FakeGitLab, ValidSeed } from 'patkit/fake'

declare global {
  /** An authority over some store. */
  const authority: Authority
  /** Any token store. */
  const store: TokenStore
  /** The application's Kysely instance: of any schema, as users pass theirs to sqlStore and migrate. */
  const db: Kysely<any>
  /** The handler createHandler returns. */
  const handler: Handler
  /** An authenticated caller. */
  const principal: Principal
  /** A stored token, and its owner. */
  const token: Token
  const user: User
  /** A plaintext secret, as a client presents it. */
  const secret: string
  /** The pepper keying the digests of secrets. */
  const pepper: string
  /** The injected time and randomness. */
  const clock: Clock
  const random: RandomSource
  /** The current instant, as the clock gives it. */
  const now: Date
  /** A validated seed. */
  const seed: ValidSeed
  /** A fake GitLab started by createFakeGitLab. */
  const gitlab: FakeGitLab
  /** A request and its response in a node:http listener. */
  const req: IncomingMessage
  const res: ServerResponse
  /** A web request. */
  const request: Request
}
export {}
`

const FENCE_OPEN = /^```(?:ts|typescript)\s*$/
const FENCE_CLOSE = /^```\s*$/

/**
 * The ```ts blocks of the `@example` tags of one comment's lines (already stripped of ` * `), and how
 * many `@example` tags have none.
 */
function blocksOfComment(lines: readonly string[]): {
  blocks: { start: number; code: string[] }[]
  bare: number
} {
  const blocks: { start: number; code: string[] }[] = []
  let bare = 0
  let inExample = false
  let exampleBlocks = 0
  let open: { start: number; code: string[] } | undefined
  const endExample = () => {
    if (inExample && exampleBlocks === 0) bare++
    inExample = false
  }
  lines.forEach((line, index) => {
    if (open !== undefined) {
      if (FENCE_CLOSE.test(line.trim())) {
        blocks.push(open)
        open = undefined
      } else open.code.push(line)
      return
    }
    const trimmed = line.trim()
    if (trimmed.startsWith('@')) {
      endExample()
      if (trimmed.startsWith('@example')) {
        inExample = true
        exampleBlocks = 0
      }
      return
    }
    if (inExample && FENCE_OPEN.test(trimmed)) {
      exampleBlocks++
      open = { start: index + 1, code: [] }
    }
  })
  endExample()
  return { blocks, bare }
}

/** The examples of the JSDoc comments of one source file, and the lines of `@example` tags without a ts block. */
export function jsdocExamples(root: string, file: string): { examples: Example[]; bare: number[] } {
  const text = readFileSync(join(root, file), 'utf8')
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const seen = new Set<number>()
  const examples: Example[] = []
  const bare: number[] = []
  // Comments found through the syntax tree, so a `/**` inside a string is never taken for one.
  const visit = (node: ts.Node) => {
    for (const range of ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []) {
      if (seen.has(range.pos)) continue
      seen.add(range.pos)
      const comment = text.slice(range.pos, range.end)
      if (!comment.startsWith('/**')) continue
      const firstLine = source.getLineAndCharacterOfPosition(range.pos).line
      const lines = comment
        .replace(/^\/\*\*/, '')
        .replace(/\*\/$/, '')
        .split('\n')
        .map((l) => l.replace(/^\s*\* ?/, ''))
      const { blocks, bare: withoutBlock } = blocksOfComment(lines)
      for (const block of blocks) {
        examples.push({ file, line: firstLine + block.start + 1, code: block.code.join('\n'), from: 'jsdoc' })
      }
      if (withoutBlock > 0) bare.push(firstLine + 1)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  visit(source.endOfFileToken)
  return { examples, bare }
}

/** The ```ts blocks of one Markdown file. */
export function markdownExamples(root: string, file: string): Example[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n')
  const examples: Example[] = []
  let open: { start: number; indent: number; code: string[] } | undefined
  lines.forEach((line, index) => {
    if (open === undefined) {
      if (FENCE_OPEN.test(line.trim())) {
        open = { start: index + 2, indent: line.length - line.trimStart().length, code: [] }
      }
    } else if (FENCE_CLOSE.test(line.trim())) {
      examples.push({ file, line: open.start, code: open.code.join('\n'), from: 'markdown' })
      open = undefined
    } else open.code.push(line.slice(Math.min(open.indent, line.length - line.trimStart().length)))
  })
  return examples
}

function filesUnder(root: string, dir: string, suffix: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(suffix) && !e.name.endsWith('.d.ts'))
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .sort()
}

/** Every example of src/**\/*.ts, README.md and docs/*.md, and the `@example` tags without a ts block. */
export function collectExamples(root: string): { examples: Example[]; bare: ExampleFailure[] } {
  const examples: Example[] = []
  const bare: ExampleFailure[] = []
  for (const file of filesUnder(root, 'src', '.ts')) {
    const found = jsdocExamples(root, file)
    examples.push(...found.examples)
    for (const line of found.bare) bare.push({ file, line, message: 'an @example without a ```ts block' })
  }
  const markdown = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ]
  for (const file of markdown.sort()) examples.push(...markdownExamples(root, file))
  return { examples, bare }
}

/**
 * The package's entry points as `specifier -> src file`: tsup.config.ts's entries (`index` is the
 * root) that package.json exports, so a new subpath is checked as soon as it is built and exported.
 */
export function entryPoints(root: string): Map<string, string> {
  const exported = Object.keys(
    (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> })
      .exports,
  )
  const tsup = readFileSync(join(root, 'tsup.config.ts'), 'utf8')
  const entries = new Map<string, string>()
  for (const [, name, file] of tsup.matchAll(/^\s*(\w+): '(src\/[^']+\.ts)',?$/gm)) {
    if (name === undefined || file === undefined) continue
    const subpath = name === 'index' ? '.' : `./${name}`
    if (exported.includes(subpath))
      entries.set(name === 'index' ? 'patkit' : `patkit/${name}`, join(root, file))
  }
  const missing = exported.filter(
    (s) => s !== './package.json' && !entries.has(s === '.' ? 'patkit' : `patkit${s.slice(1)}`),
  )
  if (missing.length > 0) throw new Error(`no tsup.config.ts entry found for ${missing.join(', ')}`)
  return entries
}

/** Where an example is compiled: beside its source file, so its relative imports resolve from there. */
function modulePath(root: string, example: Example, index: number): string {
  const name = basename(example.file)
    .replace(/\.(ts|md)$/, '')
    .replace(/\W/g, '_')
  return join(root, dirname(example.file), `__example_${index}_${name}_L${example.line}.ts`)
}

/** The exports of the entry points, as the symbols they resolve to, with the specifiers exporting each. */
function publicSymbols(program: ts.Program, entries: Map<string, string>): Map<ts.Symbol, string[]> {
  const checker = program.getTypeChecker()
  const symbols = new Map<ts.Symbol, string[]>()
  for (const [specifier, file] of entries) {
    const source = program.getSourceFile(file)
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source)
    if (module === undefined) continue
    for (const exported of checker.getExportsOfModule(module)) {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
      symbols.set(target, [...(symbols.get(target) ?? []), specifier])
    }
  }
  return symbols
}

/** The relative-import rule of one compiled example (see the module comment). */
function importProblems(
  checker: ts.TypeChecker,
  source: ts.SourceFile,
  example: Example,
  publicNames: Map<ts.Symbol, string[]>,
): { position: number; message: string }[] {
  const problems: { position: number; message: string }[] = []
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue
    const specifier = statement.moduleSpecifier.text
    if (!specifier.startsWith('.')) continue
    if (example.from === 'markdown') {
      problems.push({
        position: statement.getStart(source),
        message: `'${specifier}': README and docs examples import from patkit's entry points only`,
      })
      continue
    }
    const bindings = statement.importClause?.namedBindings
    if (bindings === undefined || !ts.isNamedImports(bindings)) continue
    for (const element of bindings.elements) {
      const local = checker.getSymbolAtLocation(element.name)
      if (local === undefined) continue
      const target = local.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(local) : local
      const entries = publicNames.get(target)
      if (entries !== undefined) {
        const name = (element.propertyName ?? element.name).text
        problems.push({
          position: element.getStart(source),
          message: `${name} is public: import it from '${entries[0]}' as users do, not from '${specifier}'`,
        })
      }
    }
  }
  return problems
}

/** The Program of the examples, with each example's compiled module. */
export interface CompiledExamples {
  readonly program: ts.Program
  readonly entries: Map<string, string>
  /** The fixtures' module, and each example's, by the path it is compiled at. */
  readonly fixtures: string
  readonly modules: Map<string, Example>
}

/** Compiles every example (and the fixtures) as separate modules of one Program. */
export function compileExamples(root: string, examples: readonly Example[]): CompiledExamples {
  const entries = entryPoints(root)
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), (path) => ts.sys.readFile(path))
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root)
  const options: ts.CompilerOptions = {
    ...parsed.options,
    noEmit: true,
    // An example shows one call; the names it declares need not be used afterwards.
    noUnusedLocals: false,
    noUnusedParameters: false,
    // Examples read as users write them (`process.env.PATKIT_PEPPER`); the flag is a style rule of
    // patkit's own code, the type (string | undefined) is the same either way.
    noPropertyAccessFromIndexSignature: false,
    // The temporary tsconfig's one addition: patkit's specifiers resolve to the src/ entry files.
    paths: Object.fromEntries([...entries].map(([specifier, file]) => [specifier, [file]])),
  }
  const fixtures = join(root, 'test/docs/__example_fixtures.ts')
  const modules = new Map<string, Example>()
  const texts = new Map<string, string>([[fixtures, EXAMPLE_FIXTURES]])
  examples.forEach((example, index) => {
    const path = modulePath(root, example, index)
    modules.set(path, example)
    // `export {}` makes a block without imports a module too, so blocks never share names.
    texts.set(path, `${example.code}\nexport {}\n`)
  })

  const host = ts.createCompilerHost(options, true)
  const readSource = host.getSourceFile.bind(host)
  host.getSourceFile = (fileName, language, onError, shouldCreate) => {
    const text = texts.get(fileName)
    return text === undefined
      ? readSource(fileName, language, onError, shouldCreate)
      : ts.createSourceFile(fileName, text, language, true)
  }
  const fileExists = host.fileExists.bind(host)
  host.fileExists = (fileName) => texts.has(fileName) || fileExists(fileName)
  const readFile = host.readFile.bind(host)
  host.readFile = (fileName) => texts.get(fileName) ?? readFile(fileName)

  const program = ts.createProgram({ rootNames: [...texts.keys()], options, host })
  return { program, entries, fixtures, modules }
}

/** Compiles every example in one Program and returns each problem where it is written. */
export function checkExamples(root: string, examples: readonly Example[]): ExampleFailure[] {
  const { program, entries, fixtures, modules } = compileExamples(root, examples)
  const checker = program.getTypeChecker()
  const publicNames = publicSymbols(program, entries)
  const failures: ExampleFailure[] = []
  const describe = (d: ts.Diagnostic) =>
    `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`
  for (const d of [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()]) {
    failures.push({ file: 'tsconfig.json', line: 0, message: describe(d) })
  }
  const fixtureSource = program.getSourceFile(fixtures)
  if (fixtureSource !== undefined) {
    for (const d of [
      ...program.getSyntacticDiagnostics(fixtureSource),
      ...program.getSemanticDiagnostics(fixtureSource),
    ]) {
      const line = d.start === undefined ? 0 : fixtureSource.getLineAndCharacterOfPosition(d.start).line
      failures.push({
        file: 'EXAMPLE_FIXTURES (test/docs/examples-typecheck.ts)',
        line,
        message: describe(d),
      })
    }
  }
  for (const [path, example] of modules) {
    const source = program.getSourceFile(path)
    if (source === undefined) throw new Error(`${example.file}:${example.line}: not compiled`)
    const at = (position: number | undefined) =>
      example.line + (position === undefined ? 0 : source.getLineAndCharacterOfPosition(position).line)
    for (const d of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
      failures.push({ file: example.file, line: at(d.start), message: describe(d) })
    }
    for (const problem of importProblems(checker, source, example, publicNames)) {
      failures.push({ file: example.file, line: at(problem.position), message: problem.message })
    }
  }
  return failures
}
