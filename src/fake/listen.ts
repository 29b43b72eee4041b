import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { NodeListener } from '../node/node-listener.js'

/**
 * A handler served on a real socket by {@link listen}.
 */
export interface ListeningServer {
  /** `http://HOST:PORT` with the real port (IPv6 hosts in brackets). */
  readonly url: string
  readonly host: string
  readonly port: number
  /**
   * Stops accepting connections, lets requests in flight finish, closes idle keep-alive connections,
   * closes every connection still open after the grace (`shutdownGraceMs`), and resolves once the
   * server is closed. Calling it again returns the same promise.
   */
  close(): Promise<void>
}

/**
 * Options of {@link listen}.
 */
interface ListenOptions {
  readonly host: string
  /** 0 picks a free ephemeral port. */
  readonly port: number
  /**
   * How long `close()` lets requests in flight (and clients still sending one) finish before it
   * closes every remaining connection. Default 5000.
   */
  readonly shutdownGraceMs?: number
}

/** The default {@link ListenOptions.shutdownGraceMs}. */
const DEFAULT_SHUTDOWN_GRACE_MS = 5000

/**
 * Builds the URL of a host and port, bracketing IPv6 literals (`http://[::1]:3000`).
 */
function serverUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`
}

function closeGracefully(server: Server, closing: { value: boolean }, graceMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    closing.value = true
    // After the grace, whatever is left goes: a client trickling a request (or never finishing
    // reading its response) cannot hold the shutdown up for longer than that.
    const deadline = setTimeout(() => server.closeAllConnections(), graceMs)
    deadline.unref()
    // close() stops accepting and (Node >= 19) drops idle keep-alive sockets; busy ones are dropped as
    // their response finishes (see the request listener), so a client that keeps connections open
    // cannot hold the server up.
    server.close((error) => {
      clearTimeout(deadline)
      if (error === undefined) resolve()
      else reject(error)
    })
    server.closeIdleConnections()
  })
}

/**
 * {@link listen} for a `node:http` listener (the fake authority's, which can drop a connection).
 */
export function listenNode(nodeListener: NodeListener, options: ListenOptions): Promise<ListeningServer> {
  const closing = { value: false }
  const server = createServer((req, res) => {
    res.on('finish', () => {
      // The server marks the socket idle in its own 'finish' listener; ours runs after it.
      if (closing.value) setImmediate(() => server.closeIdleConnections())
    })
    nodeListener(req, res)
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => {
      server.off('error', reject)
      const { port } = server.address() as AddressInfo
      let closed: Promise<void> | undefined
      resolve(
        Object.freeze({
          url: serverUrl(options.host, port),
          host: options.host,
          port,
          close: () => {
            closed ??= closeGracefully(server, closing, options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS)
            return closed
          },
        }),
      )
    })
  })
}
