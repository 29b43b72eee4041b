// The routes README's route table names: every `METHOD /path` code span in the table under "The routes,
// under `/api/v4`" (the table ends at its first line that is not a table row).

const ROUTE_SPAN = /`(GET|POST|PUT|PATCH|DELETE) (\/[^`\s]*)`/g

/** The `METHOD /path` routes of README's route table; throws when the table is not found. */
export function readmeRoutes(readme: string): Set<string> {
  const lines = readme.split('\n')
  const intro = lines.findIndex((line) => line.startsWith('The routes, under `/api/v4`'))
  if (intro === -1) throw new Error('README has no route table ("The routes, under `/api/v4`")')
  const first = lines.findIndex((line, index) => index > intro && line.startsWith('|'))
  const routes = new Set<string>()
  for (let index = first; index >= 0 && index < lines.length && lines[index]?.startsWith('|'); index++) {
    for (const match of lines[index]?.matchAll(ROUTE_SPAN) ?? []) routes.add(`${match[1]} ${match[2]}`)
  }
  return routes
}
