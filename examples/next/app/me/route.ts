// A Next.js App Router route of the application's own, protected by a personal access token:
//   curl -s -H "PRIVATE-TOKEN: glpat-example-alice-secret-1" http://localhost:3000/me
//
// In your own project: import { withToken } from 'patkit/next'
import type { NextRequest } from 'next/server.js'
import { withToken } from '../../../../src/next/index.js'
import { ME_SCOPES } from '../../../demo-authority.js'
import { authority } from '../../patkit.js'

// One call; the principal is typed in the handler. withToken imports nothing from Node.js, so
// `export const runtime = 'edge'` works too, with an authority whose store runs on the edge.
export const GET = withToken(
  async (_request: NextRequest, _context: { params: Promise<Record<string, never>> }, principal) =>
    Response.json({ username: principal.user.username, scopes: principal.token.scopes }),
  { authority, scopes: ME_SCOPES, realm: 'patkit example' },
)
