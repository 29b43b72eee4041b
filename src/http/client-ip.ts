/**
 * What `HandlerOptions.clientIp` gets to decide the client's address from: the request's headers and
 * the TCP peer's address (`null` under `createHandler`, where a web `Request` carries none).
 *
 * @example
 * ```ts
 * import type { ClientIpSource } from 'patkit/http'
 * declare const source: ClientIpSource
 * source.socketAddress // '127.0.0.1' under createNodeListener
 * ```
 */
export interface ClientIpSource {
  readonly headers: { get(name: string): string | null }
  readonly socketAddress: string | null
}

/**
 * Decides the client's address, recorded in a token's `last_used_ips`; `null` records none.
 *
 * @example
 * ```ts
 * import type { ClientIpResolver } from 'patkit/http'
 * // Behind one trusted reverse proxy: the address it appended to X-Forwarded-For.
 * const behindProxy: ClientIpResolver = ({ headers, socketAddress }) =>
 *   headers.get('x-forwarded-for')?.split(',').at(-1)?.trim() ?? socketAddress
 * ```
 */
export type ClientIpResolver = (source: ClientIpSource) => string | null | undefined

// An IPv4-mapped IPv6 address: `::ffff:` (any case) and a dot after it.
const IPV4_MAPPED = /^::ffff:[\s\S]*\./i

/**
 * The address to record: the resolver's answer, else the socket's, with an IPv4-mapped IPv6 address
 * (`::ffff:127.0.0.1`, what a dual-stack node server reports) written as the IPv4 address, as Rails
 * reports it. Blank is none.
 */
export function resolveClientIp(
  resolver: ClientIpResolver | undefined,
  source: ClientIpSource,
): string | null {
  const raw = resolver === undefined ? source.socketAddress : (resolver(source) ?? null)
  if (raw === null) return null
  const ip = raw.trim()
  if (ip === '') return null
  return IPV4_MAPPED.test(ip) ? ip.slice(7) : ip
}
