import { CLOCK_ROUTES } from './clock-routes.js'
import { reply } from './control-reply.js'
import { type ControlRow, controlRoute } from './control-row.js'
import { DASHBOARD_ROUTES } from './dashboard-routes.js'
import { DELIVERY_ROUTES } from './delivery-routes.js'
import { FAULT_ROUTES } from './fault-routes.js'
import { JOURNAL_ROUTES } from './journal-routes.js'
import { controlOpenApi } from './openapi.js'
import { answer } from './openapi-schema.js'
import { STATE_ROUTES } from './state-routes.js'

const OPENAPI_ROUTE = controlRoute({
  method: 'GET',
  path: '/openapi.json',
  doc: {
    operationId: 'getOpenApi',
    summary: 'This document',
    responses: {
      '200': answer('the document', {
        type: 'object',
        required: ['openapi', 'info', 'paths'],
        properties: {
          openapi: { type: 'string', pattern: '^3\\.1\\.' },
          info: { type: 'object' },
          paths: { type: 'object' },
        },
      }),
    },
  },
  serve: () => reply(200, CONTROL_OPENAPI),
})

/** Every route of the control API, relative to `/__patkit`: one table serves them, one document describes them. */
export const CONTROL_ROUTES: readonly ControlRow[] = [
  OPENAPI_ROUTE,
  ...CLOCK_ROUTES,
  ...STATE_ROUTES,
  ...JOURNAL_ROUTES,
  ...FAULT_ROUTES,
  ...DASHBOARD_ROUTES,
  ...DELIVERY_ROUTES,
]

/** The OpenAPI 3.1 document of the control API, built from its rows: `GET /__patkit/openapi.json`. */
export const CONTROL_OPENAPI = controlOpenApi(CONTROL_ROUTES)
