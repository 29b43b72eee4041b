import type { ControllableClock } from '../controllable-clock.js'
import { CLOCK_UNITS, clockTarget, durationMs } from './clock-input.js'
import type { ControlParts } from './control-parts.js'
import { problem, reply } from './control-reply.js'
import { type ControlRow, controlRoute } from './control-row.js'
import { canMove } from './instant.js'
import { answer, closed, INVALID, json, ref } from './openapi-schema.js'

const clockJson = (clock: ControllableClock) => ({ now: clock.now().toISOString(), frozen: clock.frozen })

// After the clock moved: expiry notices are emitted before the answer.
async function moved(parts: ControlParts): Promise<Response> {
  await parts.onClockChange?.()
  return reply(200, clockJson(parts.clock))
}

const CLOCK = { '200': answer('the clock', ref('Clock')) }

/** `/__patkit/clock`: read it, set it, move it, stop it. */
export const CLOCK_ROUTES: readonly ControlRow[] = [
  controlRoute({
    method: 'GET',
    path: '/clock',
    doc: {
      operationId: 'getClock',
      summary: 'The clock',
      responses: { '200': answer('now and whether frozen', ref('Clock')) },
    },
    serve: ({ parts }) => reply(200, clockJson(parts.clock)),
  }),
  controlRoute({
    method: 'POST',
    path: '/clock/set',
    body: 'json',
    doc: {
      operationId: 'setClock',
      summary: 'Move the clock to an instant',
      requestBody: {
        required: true,
        ...json(closed({ at: { type: 'string', format: 'date-time' } }, ['at'])),
      },
      responses: { ...CLOCK, ...INVALID },
    },
    serve: ({ parts, body }) => {
      const instant = clockTarget(body)
      if (typeof instant === 'string') return problem(400, instant)
      parts.clock.set(instant)
      return moved(parts)
    },
  }),
  controlRoute({
    method: 'POST',
    path: '/clock/advance',
    body: 'json',
    doc: {
      operationId: 'advanceClock',
      summary: 'Move the clock by a duration (negative: back)',
      requestBody: {
        required: true,
        ...json({
          ...closed(Object.fromEntries(CLOCK_UNITS.map((unit) => [unit, { type: 'number' }]))),
          minProperties: 1,
        }),
      },
      responses: { ...CLOCK, ...INVALID },
    },
    serve: ({ parts, body }) => {
      const ms = durationMs(body)
      if (typeof ms === 'string') return problem(400, ms)
      if (!canMove(parts.clock.now(), ms))
        return problem(400, 'the clock would leave the range of dates (about 275,000 years)')
      parts.clock.advance(ms)
      return moved(parts)
    },
  }),
  controlRoute({
    method: 'POST',
    path: '/clock/freeze',
    doc: { operationId: 'freezeClock', summary: 'Stop the clock', responses: CLOCK },
    serve: ({ parts }) => {
      parts.clock.freeze()
      return reply(200, clockJson(parts.clock))
    },
  }),
  controlRoute({
    method: 'POST',
    path: '/clock/resume',
    doc: { operationId: 'resumeClock', summary: 'Let the clock run again', responses: CLOCK },
    serve: ({ parts }) => {
      parts.clock.resume()
      return reply(200, clockJson(parts.clock))
    },
  }),
]
