import type { TokenStore } from '../../store/token-store.js'
import type { ControllableClock } from '../controllable-clock.js'
import type { Journal } from '../journal.js'
import { journalStream } from './journal-stream.js'
import { listResources } from './resource-lists.js'
import { tokenFamily } from './token-family.js'
import { listTokens } from './token-list.js'

/** The read routes the dashboard uses, as the control API's route table names them. */
export const DASHBOARD_ROUTES = [
  'GET /tokens',
  'GET /tokens/:id/family',
  'GET /users',
  'GET /groups',
  'GET /projects',
  'GET /journal/stream',
] as const

/** One of {@link DASHBOARD_ROUTES}. */
export type DashboardRoute = (typeof DASHBOARD_ROUTES)[number]

/** The route key of a path with an id in it (`/tokens/7/family`), for the route table. */
export function dashboardRouteKey(path: string): string {
  return path.replace(/^\/tokens\/[^/]+\/family$/, '/tokens/:id/family')
}

/** What the dashboard's routes read. */
interface DashboardParts {
  readonly store: TokenStore
  readonly journal: Journal
  readonly clock: ControllableClock
  readonly closing?: AbortSignal | undefined
}

/** Whether a route key is one of the dashboard's. */
export function isDashboardRoute(route: string): route is DashboardRoute {
  return (DASHBOARD_ROUTES as readonly string[]).includes(route)
}

/** Answers one of the dashboard's routes (the guard has let the request through). */
export function serveDashboard(
  parts: DashboardParts,
  route: DashboardRoute,
  request: Request,
  url: URL,
  path: string,
): Promise<Response> {
  const { store, journal } = parts
  switch (route) {
    case 'GET /tokens':
      return listTokens(store, url, parts.clock.now())
    case 'GET /tokens/:id/family':
      return tokenFamily(store, journal, path.split('/')[2] ?? '', parts.clock.now())
    case 'GET /users':
      return listResources(store, 'users', url)
    case 'GET /groups':
      return listResources(store, 'groups', url)
    case 'GET /projects':
      return listResources(store, 'projects', url)
    case 'GET /journal/stream':
      return Promise.resolve(journalStream(request, url, { journal, closing: parts.closing }))
  }
}
