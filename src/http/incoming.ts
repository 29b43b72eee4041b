/**
 * What the handler reads of a request. A web `Request` is one; `createNodeListener` passes a lighter
 * view of an `IncomingMessage` that builds no `Request`, `Headers` or `AbortSignal` (see
 * src/node/create-node-listener.ts).
 */
export interface IncomingRequest {
  /** As the client sent it; the handler compares it upper-cased. */
  readonly method: string
  /** The absolute URL. */
  readonly url: string
  /**
   * `url` already parsed, when the adapter had to parse it anyway (saves parsing it twice). It may be
   * shared by requests with the same target (`createNodeListener` remembers the URLs of frequent
   * targets): the handler never changes it.
   */
  readonly parsedUrl?: URL
  readonly headers: { get(name: string): string | null }
  /**
   * The client's address as the adapter resolved it (`HandlerOptions.clientIp`, else the socket's),
   * recorded in the token's `last_used_ips`; absent or `null` records none.
   */
  readonly clientIp?: string | null
  /** Read only for methods that carry a body. */
  readonly body: ReadableStream<Uint8Array> | null
}
