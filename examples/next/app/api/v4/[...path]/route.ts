// GitLab's token API under /api/v4 in a Next.js App Router app: a catch-all route that hands the
// request to patkit's web-standard handler, body stream and all.
//   curl -s -H "PRIVATE-TOKEN: glpat-example-alice-secret-1" http://localhost:3000/api/v4/personal_access_tokens/self
//
// In your own project: import { createHandler } from 'patkit/http'
import { createHandler } from '../../../../../../src/http/index.js'
import { authority } from '../../../../patkit.js'

const handler = createHandler(authority, { basePath: '/api/v4' })

export const GET = handler
export const HEAD = handler
export const POST = handler
export const DELETE = handler
