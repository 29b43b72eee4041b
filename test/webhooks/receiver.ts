import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A request a test receiver saw. */
export interface Seen {
  readonly method: string
  readonly url: string
  readonly headers: IncomingMessage['headers']
  readonly body: string
}

/** A real HTTP server on 127.0.0.1 that records requests and answers with `handler`. */
export async function receiver(
  handler: (req: IncomingMessage, res: ServerResponse, seen: Seen) => void,
): Promise<{ url: string; port: number; seen: Seen[]; close: () => Promise<void> }> {
  const seen: Seen[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const one = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      }
      seen.push(one)
      handler(req, res, one)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A port on 127.0.0.1 nothing listens on: bound, then closed. */
export async function closedPort(): Promise<number> {
  const r = await receiver(() => undefined)
  await r.close()
  return r.port
}
