import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'

/** Where JSDoc `@example` blocks sit, against what the package entries export. */
export interface ExamplePlacement {
  /** `file:line name` of every `@example` on a declaration no entry exports (nor a member of one). */
  readonly internal: readonly string[]
  /** `entry: name` of every name an entry exports whose declaration has no `@example`. */
  readonly bare: readonly string[]
  /** How many `@example` blocks sit on public declarations. */
  readonly publicCount: number
}

// The entries are tsup.config.ts's (one per public subpath); the runtime targets of `#node-crypto` and
// the CLI bin are not importable surfaces.
function entryFiles(root: string): string[] {
  const config = readFileSync(join(root, 'tsup.config.ts'), 'utf8')
  const files = [...config.matchAll(/'(src\/[^']+\.ts)'/g)].map((m) => join(root, m[1] ?? ''))
  return [...new Set(files)].filter((f) => !f.includes('node-crypto') && !f.includes('/cli/'))
}

function hasExample(node: ts.Node): boolean {
  const docs = (node as { jsDoc?: readonly ts.JSDoc[] }).jsDoc ?? []
  return docs.some((doc) => doc.getText().includes('@example'))
}

// Members of a public declaration (an interface's properties, a class's methods) are public too.
function opensMembers(node: ts.Node): boolean {
  return (
    ts.isInterfaceDeclaration(node) ||
    ts.isClassDeclaration(node) ||
    ts.isTypeAliasDeclaration(node) ||
    ts.isTypeLiteralNode(node) ||
    ts.isPropertySignature(node) ||
    ts.isVariableStatement(node) ||
    ts.isVariableDeclarationList(node) ||
    ts.isVariableDeclaration(node) ||
    ts.isObjectLiteralExpression(node)
  )
}

/** Reads every src file and every entry's exports with the compiler, and places each `@example`. */
export function examplePlacement(root: string, sources: readonly string[]): ExamplePlacement {
  const entries = entryFiles(root)
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  )
  if (parsed === undefined) throw new Error('tsconfig.json does not parse')
  const program = ts.createProgram([...entries, ...sources], parsed.options)
  const checker = program.getTypeChecker()
  const publicDeclarations = new Set<ts.Node>()
  const bare: string[] = []
  for (const entry of entries) {
    const file = program.getSourceFile(entry)
    const module = file === undefined ? undefined : checker.getSymbolAtLocation(file)
    if (module === undefined) throw new Error(`no module for ${entry}`)
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
      const declarations = symbol.declarations ?? []
      for (const declaration of declarations) publicDeclarations.add(declaration)
      const first = declarations[0]
      const documented =
        first !== undefined && hasExample(ts.isVariableDeclaration(first) ? first.parent.parent : first)
      if (!documented) bare.push(`${relative(root, entry)}: ${exported.name}`)
    }
  }
  const internal: string[] = []
  let publicCount = 0
  for (const path of sources) {
    const file = program.getSourceFile(path)
    if (file === undefined) continue
    const visit = (node: ts.Node, insidePublic: boolean): void => {
      const isPublic =
        insidePublic ||
        (ts.isVariableStatement(node)
          ? node.declarationList.declarations.some((d) => publicDeclarations.has(d))
          : publicDeclarations.has(node))
      if (hasExample(node)) {
        if (isPublic) publicCount++
        else {
          const { line } = file.getLineAndCharacterOfPosition(node.getStart())
          const name = (node as { name?: ts.Node }).name?.getText() ?? ts.SyntaxKind[node.kind]
          internal.push(`${relative(root, path)}:${line + 1} ${name}`)
        }
      }
      ts.forEachChild(node, (child) => visit(child, isPublic && opensMembers(node)))
    }
    ts.forEachChild(file, (child) => visit(child, false))
  }
  return { internal, bare, publicCount }
}
