import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { err, ok, type Result } from 'neverthrow'

/**
 * Where webhook deliveries may go. Loopback (127.0.0.0/8, ::1, `localhost`) is always allowed; any
 * other address (private, link-local, public) only with `allowNetwork: true` or when its host is in
 * `allowHosts`.
 *
 * @example
 * ```ts
 * import type { DestinationPolicy } from 'patkit/webhooks'
 * const loopbackOnly: DestinationPolicy = {}
 * const intranet: DestinationPolicy = { allowHosts: ['hooks.internal'] }
 * ```
 */
export interface DestinationPolicy {
  /** Allow every destination. Default false: loopback only. */
  readonly allowNetwork?: boolean | undefined
  /** Host names (or literal addresses) allowed besides loopback, compared case-insensitively. */
  readonly allowHosts?: readonly string[] | undefined
}

/**
 * One resolved address of a host.
 *
 * @example
 * ```ts
 * import type { ResolvedAddress } from 'patkit/webhooks'
 * const address: ResolvedAddress = { address: '127.0.0.1', family: 4 }
 * ```
 */
export interface ResolvedAddress {
  readonly address: string
  readonly family: 4 | 6
}

/**
 * Resolves a host name to all its addresses (node:dns `lookup` with `all: true` by default).
 *
 * @example
 * ```ts
 * import type { HostResolver } from 'patkit/webhooks'
 * const fixed: HostResolver = async () => [{ address: '127.0.0.1', family: 4 }]
 * ```
 */
export type HostResolver = (host: string) => Promise<readonly ResolvedAddress[]>

/**
 * A destination the policy accepted: the URL and the address to connect to.
 *
 * @example
 * ```ts
 * import { type CheckedDestination, checkDestination } from 'patkit/webhooks'
 * const checked = await checkDestination('http://localhost:9000/', {})
 * if (checked.isOk()) {
 *   const target: CheckedDestination = checked.value
 *   target.address // '127.0.0.1' or '::1'
 * }
 * ```
 */
export interface CheckedDestination {
  readonly url: URL
  /** The address the delivery connects to (the first resolved), so a second lookup cannot differ. */
  readonly address: string
  readonly family: 4 | 6
}

/**
 * Why a destination was refused.
 *
 * @example
 * ```ts
 * import { type BlockedDestination, checkDestination } from 'patkit/webhooks'
 * const checked = await checkDestination('http://10.0.0.1/', {})
 * if (checked.isErr()) {
 *   const blocked: BlockedDestination = checked.error
 *   console.warn(blocked.message) // ... Requests to the local network are not allowed ...
 * }
 * ```
 */
export interface BlockedDestination {
  readonly kind: 'blocked'
  readonly message: string
}

/**
 * The resolver patkit uses by default: node:dns `lookup` with every address.
 *
 * @example
 * ```ts
 * import { systemResolver } from 'patkit/webhooks'
 * const addresses = await systemResolver('localhost')
 * ```
 */
export const systemResolver: HostResolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }))

// ::ffff:a.b.c.d (dotted or the hex form URL parsing produces) is the IPv4 address a.b.c.d.
function unmapped(address: string): string {
  const lower = address.toLowerCase()
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower)
  if (dotted?.[1] !== undefined) return dotted[1]
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower)
  if (hex?.[1] !== undefined && hex[2] !== undefined) {
    const hi = Number.parseInt(hex[1], 16)
    const lo = Number.parseInt(hex[2], 16)
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`
  }
  return lower
}

function isLoopback(address: string): boolean {
  const a = unmapped(address)
  if (isIP(a) === 4) return a.startsWith('127.')
  return /^(?:0{0,4}:){7}0{0,3}1$|^::1$|^(?:0{0,4}:){1,6}:1$/.test(a)
}

function describe(address: string): string {
  const a = unmapped(address)
  if (isIP(a) === 4) {
    const [x = 0, y = 0] = a.split('.').map(Number)
    if (x === 10 || (x === 172 && y >= 16 && y <= 31) || (x === 192 && y === 168)) return 'the local network'
    if (x === 169 && y === 254) return 'a link-local address'
    if (x === 0) return 'the local network'
    return 'public addresses'
  }
  if (/^fe[89ab]/.test(a)) return 'a link-local address'
  if (/^f[cd]/.test(a)) return 'the local network'
  return 'public addresses'
}

const HOW_TO_ALLOW = 'allow it with allowHosts or allowNetwork: true'

/**
 * Checks a delivery URL: resolves its host (literal addresses as they are) and refuses it when ANY
 * address is refused, naming the address and the option that allows it, in GitLab's words ("URL
 * '...' is blocked: Requests to the local network are not allowed"). Redirects are never followed by
 * the delivery, so this one check covers the whole request.
 *
 * @example
 * ```ts
 * import { checkDestination } from 'patkit/webhooks'
 * const checked = await checkDestination('http://127.0.0.1:9000/hook', {})
 * checked.isOk() // true
 * ```
 */
export async function checkDestination(
  url: string,
  policy: DestinationPolicy,
  resolve: HostResolver = systemResolver,
): Promise<Result<CheckedDestination, BlockedDestination>> {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return err({ kind: 'blocked', message: `URL '${url}' is blocked: Only allowed schemes are http, https` })
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return err({ kind: 'blocked', message: `URL '${url}' is blocked: Only allowed schemes are http, https` })
  const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase()
  let addresses: readonly ResolvedAddress[]
  const family = isIP(host)
  if (family !== 0) addresses = [{ address: host, family: family === 6 ? 6 : 4 }]
  else {
    try {
      addresses = await resolve(host)
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause)
      return err({ kind: 'blocked', message: `URL '${url}' is blocked: Host cannot be resolved (${reason})` })
    }
  }
  const first = addresses[0]
  if (first === undefined)
    return err({ kind: 'blocked', message: `URL '${url}' is blocked: Host cannot be resolved` })
  const hostAllowed =
    policy.allowNetwork === true || (policy.allowHosts ?? []).some((h) => h.toLowerCase() === host)
  if (!hostAllowed) {
    const refused = addresses.find((a) => !isLoopback(a.address))
    if (refused !== undefined)
      return err({
        kind: 'blocked',
        message:
          `URL '${url}' is blocked: Requests to ${describe(refused.address)} are not allowed ` +
          `(${host} resolves to ${refused.address}; ${HOW_TO_ALLOW})`,
      })
  }
  return ok({ url: parsed, address: first.address, family: first.family })
}
