import { concatBytes } from '../domain/bytes.js'

/** What {@link readLimited} reads: a web `Request`, or the handler's `IncomingRequest`. */
interface BodySource {
  readonly headers: { get(name: string): string | null }
  readonly body: ReadableStream<Uint8Array> | null
}

/**
 * The body's bytes, read only up to `limit`; null when it is larger. A declared `Content-Length` above
 * the limit is refused unread, and the first chunk past it cancels the stream, so a body of any size
 * costs at most the limit and one chunk.
 */
export async function readLimited(request: BodySource, limit: number): Promise<Uint8Array | null> {
  const declared = request.headers.get('content-length')
  if (declared !== null && /^\s*\d+\s*$/.test(declared) && Number(declared) > limit) return null
  if (request.body === null) return new Uint8Array(0)
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel()
      return null
    }
    chunks.push(value)
  }
  return chunks.length === 1 && chunks[0] !== undefined ? chunks[0] : concatBytes(chunks)
}
