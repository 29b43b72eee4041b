import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

// The dashboard's static assets (index.html, dashboard.js, dashboard.css), built by
// scripts/build-dashboard.mjs into dist/dashboard at `npm run build` and read at serve time: from the
// package they sit beside the built code (dist/dashboard); run from src (vitest, tsx) they are the
// repository's dist/dashboard. The page carries no data: everything it shows it fetches from the
// control API with the control token the user types in.

/** The Content-Security-Policy of every dashboard asset: nothing but this origin's own files. */
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

const ASSETS: ReadonlyMap<string, { readonly file: string; readonly type: string }> = new Map([
  ['/', { file: 'index.html', type: 'text/html; charset=utf-8' }],
  ['/dashboard/dashboard.js', { file: 'dashboard.js', type: 'text/javascript; charset=utf-8' }],
  ['/dashboard/dashboard.css', { file: 'dashboard.css', type: 'text/css; charset=utf-8' }],
])

const SECURITY_HEADERS = {
  'content-security-policy': DASHBOARD_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
}

/** Whether a control path (after the prefix; `/` for the prefix itself) is a dashboard asset. */
export function isDashboardPath(path: string): boolean {
  return ASSETS.has(path)
}

// The first of dist/dashboard beside this module or above it (src/fake/dashboard → dist/dashboard).
function assetDirectory(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (let depth = 0; depth < 5; depth += 1) {
    for (const candidate of [join(dir, 'dashboard'), join(dir, 'dist', 'dashboard')]) {
      if (existsSync(join(candidate, 'index.html'))) return candidate
    }
    const parent = dirname(dir)
    if (parent === dir) break
    dir = parent
  }
  return null
}

let located: string | null | undefined

/**
 * The answer to `GET` of a dashboard path: the asset with the strict CSP and nosniff, or 503 when the
 * assets were never built (a checkout without `npm run build`).
 */
export async function dashboardAsset(path: string): Promise<Response> {
  const asset = ASSETS.get(path)
  if (asset === undefined) return new Response(null, { status: 404, headers: SECURITY_HEADERS })
  if (located === undefined || located === null) located = assetDirectory()
  const body = located === null ? null : await readFile(join(located, asset.file)).catch(() => null)
  if (body === null) {
    return new Response(
      'The dashboard is not built: run `npm run build` (or node scripts/build-dashboard.mjs).\n',
      { status: 503, headers: { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' } },
    )
  }
  return new Response(new Uint8Array(body), {
    status: 200,
    headers: { ...SECURITY_HEADERS, 'content-type': asset.type },
  })
}
