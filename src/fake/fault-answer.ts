import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http'
import type { NodeListener } from '../node/node-listener.js'
import { type FaultAction, faultResponseHeaders } from './fault-action.js'

/**
 * Answers with a fault's status, headers and body (default GitLab's `{"message":"503 Service
 * Unavailable"}` form).
 */
export function answerWithFault(
  res: ServerResponse,
  action: FaultAction & { readonly status: number },
): void {
  const body = action.body ?? { message: `${action.status} ${STATUS_CODES[action.status] ?? ''}`.trim() }
  res.writeHead(action.status, faultResponseHeaders(action))
  res.end(JSON.stringify(body))
}

/**
 * Serves the request for real, then loses its answer: whatever `listener` writes is held back, and once
 * it ends its answer (the operation has committed: a rotation is stored), the client gets the fault's
 * status instead, or a closed connection. This is the proxy that times out after the upstream did the
 * work, or the connection reset between the commit and the answer's first byte.
 */
export function serveThenLose(
  listener: NodeListener,
  req: IncomingMessage,
  res: ServerResponse,
  action: FaultAction,
): void {
  const { writeHead, write, end } = res
  // The listener writes with writeHead and end (node-io's reply); nothing it writes reaches the socket.
  res.writeHead = (() => res) as unknown as ServerResponse['writeHead']
  res.write = (() => true) as unknown as ServerResponse['write']
  res.end = (() => {
    res.writeHead = writeHead
    res.write = write
    res.end = end
    if (action.status === undefined) {
      req.socket.destroy()
      return res
    }
    for (const name of res.getHeaderNames()) res.removeHeader(name)
    answerWithFault(res, { ...action, status: action.status })
    return res
  }) as unknown as ServerResponse['end']
  listener(req, res)
}
