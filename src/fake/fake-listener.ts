import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Clock } from '../domain/clock.js'
import type { Digester } from '../domain/secret.js'
import { presentedSecret } from '../http/credentials.js'
import type { NodeListener } from '../node/node-listener.js'
import type { TokenStore } from '../store/token-store.js'
import { CONTROL_PREFIX } from './control/control-api.js'
import { answerWithFault, serveThenLose } from './fault-answer.js'
import { type Faults, faultActionOf } from './faults.js'
import type { Journal } from './journal.js'
import { journalPath } from './journal-path.js'

/**
 * What {@link fakeListener} puts together.
 */
interface FakeListenerParts {
  /** GitLab's API (`createNodeListener(authority)`). */
  readonly gitlab: NodeListener
  /** The control API, for paths under `/__patkit`; absent, those paths are GitLab's (404). */
  readonly control?: NodeListener
  readonly journal: Journal
  readonly faults: Faults
  readonly clock: Clock
  /** Where the presented token is looked up, for the journal and token-bound faults. */
  readonly store: TokenStore
  readonly digest: Digester
  /** Runs before each GitLab API request (the expiry notices of a new day). */
  readonly beforeRequest?: () => Promise<void>
}

// Where the presented secret is read when the target does not parse (it is then only in a header).
const NO_URL = new URL('http://patkit.invalid/')

// The secret a GitLab client presents, read by the handler's own rule (a body's private_token is not
// read here: the journal and the faults see the request before its body).
function presented(req: IncomingMessage, url: URL | null): string | null {
  const get = (name: string) => {
    const value = req.headers[name]
    return typeof value === 'string' ? value : null
  }
  return presentedSecret({ headers: { get } }, url ?? NO_URL, {})
}

function parse(target: string | undefined): URL | null {
  try {
    return new URL(target ?? '/', 'http://patkit.invalid')
  } catch {
    return null
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

async function serveApi(
  parts: FakeListenerParts,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL | null,
) {
  const at = parts.clock.now().toISOString()
  const secret = presented(req, url)
  const found = secret === null ? null : await parts.store.findByDigest(parts.digest(secret))
  const token = found?.isOk() === true ? found.value : null
  const fault = parts.faults.take({
    method: (req.method ?? 'GET').toUpperCase(),
    path: url?.pathname ?? '',
    tokenId: token?.id ?? null,
  })
  let recorded = false
  const record = (status: number) => {
    if (recorded) return
    recorded = true
    parts.journal.recordRequest({
      at,
      method: (req.method ?? 'GET').toUpperCase(),
      path: journalPath(url, req.url),
      status,
      tokenId: token?.id ?? null,
      // The fake holds GitLab's integer ids only (createFakeGitLab's store).
      userId: typeof token?.userId === 'number' ? token.userId : null,
      fault: fault?.id ?? null,
    })
  }
  // Recorded as the answer is handed to node, so a client holding the answer finds it in the journal.
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse
  res.end = ((...args: unknown[]) => {
    record(res.statusCode)
    return end(...args)
  }) as ServerResponse['end']
  res.once('close', () => record(0))
  const action = fault === undefined ? null : faultActionOf(fault)
  if (action?.delayMs !== undefined) await sleep(action.delayMs)
  if (action?.lostAnswer === true) {
    serveThenLose(parts.gitlab, req, res, action)
    return
  }
  if (action?.drop === true) {
    req.socket.destroy()
    return
  }
  if (action?.status !== undefined) {
    answerWithFault(res, { ...action, status: action.status })
    return
  }
  parts.gitlab(req, res)
}

/**
 * The fake authority's `node:http` listener: the control API under `/__patkit`, and GitLab's API
 * behind the fault rules (answer, delay, drop, lose the real answer; one action or a sequence) with every request recorded in the journal (method, path
 * with every credential of the query filtered, status, the presented token and its owner; never a
 * secret).
 */
export function fakeListener(parts: FakeListenerParts): NodeListener {
  return (req, res) => {
    const url = parse(req.url)
    const path = url?.pathname ?? ''
    if (parts.control !== undefined && (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`))) {
      parts.control(req, res)
      return
    }
    serveApi(parts, req, res, url).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' })
      res.end('{"message":"500 Internal Server Error"}')
    })
  }
}
