import { AsyncLocalStorage } from 'node:async_hooks'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Clock } from '../domain/clock.js'
import type { PatkitError } from '../domain/errors.js'
import type { Digester } from '../domain/secret.js'
import type { Token } from '../domain/token.js'
import { presentedSecret } from '../http/credentials.js'
import type { NodeListener } from '../node/node-listener.js'
import type { TokenStore } from '../store/token-store.js'
import { CONTROL_PREFIX } from './control/control-api.js'
import { answerWithFault, serveThenLose } from './fault-answer.js'
import { type Faults, faultActionOf } from './faults.js'
import type { Journal } from './journal.js'
import { journalPath } from './journal-path.js'
import { type PresentedToken, type RefusalReason, type RevokedBy, refusalReason } from './refusal-reason.js'
import { answerText, filteredBody, filteredHeaders, filteredParams } from './request-detail.js'
import { issuedSecret, type SecretPrefixes } from './secret-prefixes.js'

/**
 * Where the GitLab API's typed refusal of a request reaches the fake's listener: the listener serves
 * each request in a context of its own, and the handler's `onRefusal` (see {@link refusalHook}) fills it.
 */
export interface RefusalSlot {
  error: PatkitError | null
}

const slots = new AsyncLocalStorage<RefusalSlot>()

/**
 * The `HandlerOptions.onRefusal` of the GitLab API the fake's listener serves: it hands the typed
 * error to the listener serving that request, for its journal entry's reason.
 */
export function refusalHook(error: PatkitError): void {
  const slot = slots.getStore()
  if (slot !== undefined) slot.error = error
}

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
  /** The prefixes of the secrets handed out, for an unknown token's closest known one. */
  readonly prefixes: SecretPrefixes
  /** Admin Mode is on (an administrator's token without `admin_mode` acts as a regular user). */
  readonly adminMode: boolean
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

// What an answer's writes carried, as text (the node listener writes its whole body with `end`).
function captureBody(res: ServerResponse): () => string | null {
  const chunks: string[] = []
  let size = 0
  const keep = (chunk: unknown) => {
    if (size > 65_536) return
    const text =
      typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString() : ''
    size += text.length
    chunks.push(text)
  }
  const write = res.write.bind(res) as (...args: unknown[]) => boolean
  res.write = ((...args: unknown[]) => {
    keep(args[0])
    return write(...args)
  }) as ServerResponse['write']
  return () => (chunks.length === 0 ? null : chunks.join(''))
}

function presentedToken(token: Token | null): PresentedToken | null {
  if (token === null) return null
  return {
    id: token.id,
    userId: typeof token.userId === 'number' ? token.userId : null,
    scopes: token.scopes,
    expiresAt: token.expiresAt,
    familyId: token.familyId,
    granular: token.granularScopes !== undefined,
  }
}

// How a revoked token was revoked, from the journal's events about it (the newest first).
function revokedByOf(journal: Journal, tokenId: number): RevokedBy {
  const { entries } = journal.query({ kind: 'event', tokenId })
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]
    if (entry?.kind !== 'event') continue
    const { event } = entry
    if (entry.type === 'reuse_detected') {
      const revoked = (event['revoked'] as { id?: unknown }[] | undefined) ?? []
      if (revoked.some((token) => token.id === tokenId)) return 'reuse_detection'
    }
    if (entry.type === 'rotated' && (event['previous'] as { id?: unknown } | undefined)?.id === tokenId)
      return 'rotation'
    if (entry.type === 'revoked' && (event['token'] as { id?: unknown } | undefined)?.id === tokenId)
      return 'revoke'
  }
  return 'unknown'
}

async function ownerIsInactiveAdmin(parts: FakeListenerParts, token: Token | null): Promise<boolean> {
  if (!parts.adminMode || token === null || token.scopes.includes('admin_mode')) return false
  const owner = await parts.store.findUser(token.userId)
  return owner.isOk() && owner.value?.admin === true
}

function reasonOf(
  parts: FakeListenerParts,
  status: number,
  body: string | null,
  error: PatkitError | null,
  faultId: string | null,
  secret: string | null,
  token: Token | null,
  inactiveAdmin: boolean,
): RefusalReason | null {
  if (faultId === null && status < 400 && status !== 0) return null
  const unknown =
    error?.type === 'unauthenticated' && (error.reason === 'unknown' || error.reason === 'malformed')
  return refusalReason({
    status,
    answerText: answerText(body),
    error,
    faultId,
    token: presentedToken(token),
    closest: unknown && secret !== null ? parts.prefixes.closest(secret) : null,
    revokedBy: error?.type === 'token_revoked' ? revokedByOf(parts.journal, error.tokenId) : 'unknown',
    inactiveAdmin: inactiveAdmin && (error?.type === 'forbidden' || error?.type === 'not_found'),
  })
}

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
  const action = fault === undefined ? null : faultActionOf(fault)
  // Read before the answer (Admin Mode only), so that the entry is recorded as the answer is handed over.
  const inactiveAdmin = await ownerIsInactiveAdmin(parts, token)
  // A fault refuses a request when it answers, drops or loses the answer; a delay alone lets it through.
  const faultAnswered =
    action !== null && (action.status !== undefined || action.drop === true || action.lostAnswer === true)
  const slot: RefusalSlot = { error: null }
  const body = captureBody(res)
  let recorded = false
  const record = (status: number, sent: string | null) => {
    if (recorded) return
    recorded = true
    if (sent !== null && status < 300) rememberIssued(parts.prefixes, sent)
    const detail = {
      headers: filteredHeaders(req.headers),
      params: filteredParams(url),
      answer: { status, body: filteredBody(sent) },
    }
    const entry = {
      at,
      method: (req.method ?? 'GET').toUpperCase(),
      path: journalPath(url, req.url),
      status,
      tokenId: token?.id ?? null,
      // The fake holds GitLab's integer ids only (createFakeGitLab's store).
      userId: typeof token?.userId === 'number' ? token.userId : null,
      fault: fault?.id ?? null,
      detail,
    }
    const faultId = faultAnswered && fault !== undefined ? fault.id : null
    const reason = reasonOf(parts, status, sent, slot.error, faultId, secret, token, inactiveAdmin)
    parts.journal.recordRequest({ ...entry, reason })
  }
  // Recorded as the answer is handed to node, so a client holding the answer finds it in the journal.
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse
  res.end = ((...args: unknown[]) => {
    const first = args[0]
    const last = typeof first === 'string' || first instanceof Uint8Array ? first : null
    const written = body()
    const lastText = last === null ? null : typeof last === 'string' ? last : Buffer.from(last).toString()
    record(res.statusCode, written === null ? lastText : `${written}${lastText ?? ''}`)
    return end(...args)
  }) as ServerResponse['end']
  res.once('close', () => record(0, null))
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
  slots.run(slot, () => parts.gitlab(req, res))
}

function rememberIssued(prefixes: SecretPrefixes, body: string): void {
  const issued = issuedSecret(body)
  if (issued !== null) prefixes.remember(issued.id, issued.token)
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
