import {
  IdentifierNode,
  type KyselyPlugin,
  OperationNodeTransformer,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type TableNode,
  type UnknownRow,
} from 'kysely'

class PrefixTransformer extends OperationNodeTransformer {
  readonly #prefix: string
  readonly #tables: ReadonlySet<string>

  constructor(prefix: string, tables: readonly string[]) {
    super()
    this.#prefix = prefix
    this.#tables = new Set(tables)
  }

  // Every table name, in FROM, INSERT INTO, UPDATE, a column reference (`tokens.id`) or DDL, is a
  // TableNode. Only the store's own names are renamed, so an alias or a host table passes unchanged.
  protected override transformTable(node: TableNode): TableNode {
    const transformed = super.transformTable(node)
    const { identifier } = transformed.table
    if (transformed.table.schema !== undefined || !this.#tables.has(identifier.name)) return transformed
    return {
      ...transformed,
      table: { ...transformed.table, identifier: IdentifierNode.create(this.#prefix + identifier.name) },
    }
  }
}

/**
 * A Kysely plugin that prefixes the store's table names, so its queries are written against `tokens`
 * and `users` and run against `patkit_tokens` and `patkit_users` (or any prefix).
 */
export class TablePrefixPlugin implements KyselyPlugin {
  readonly #transformer: PrefixTransformer

  constructor(prefix: string, tables: readonly string[]) {
    this.#transformer = new PrefixTransformer(prefix, tables)
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node, args.queryId)
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result)
  }
}
