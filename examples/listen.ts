// What the examples share besides the authority: listening on loopback and running when executed
// directly. Not part of patkit; a real server has its own.
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'

/** A started example: its origin and a way to stop it. */
export interface Started {
  /** e.g. `http://127.0.0.1:3000`, with the real port when started on port 0. */
  readonly url: string
  readonly close: () => Promise<void>
}

/** Listens on 127.0.0.1 only (an example is not meant to be reachable from elsewhere). */
export async function listen(server: Server, port: number): Promise<Started> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  return started(server)
}

/** The origin and a promise-returning close for a node:http server that is already listening. */
export function started(server: Server): Started {
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Idle keep-alive sockets from clients would otherwise hold close() open.
        server.closeAllConnections()
        server.close((e) => (e === undefined ? resolve() : reject(e)))
      }),
  }
}

/**
 * Runs `start` when the example file is the program (`npx tsx examples/node-http.ts`), not when a test
 * imports it. The port comes from `PORT`, default 3000.
 */
export async function runIfMain(moduleUrl: string, start: (port: number) => Promise<Started>): Promise<void> {
  const main = process.argv[1]
  if (main === undefined || pathToFileURL(main).href !== moduleUrl) return
  const { url } = await start(Number(process.env['PORT'] ?? 3000))
  process.stdout.write(`listening on ${url}\n`)
  process.stdout.write(
    `try: curl -s -H "PRIVATE-TOKEN: glpat-example-alice-secret-1" ${url}/api/v4/personal_access_tokens/self\n`,
  )
}
