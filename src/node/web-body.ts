/**
 * A node:http request body (any async iterable of byte chunks) as a web ReadableStream, read only as
 * the handler pulls. It stands in for `Readable.toWeb` from `node:stream`, so that the listeners load
 * no more of Node.js than `node:http` itself.
 */
export function webBody(source: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const chunks = source[Symbol.asyncIterator]()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next()
      if (next.done === true) controller.close()
      else controller.enqueue(next.value)
    },
    async cancel() {
      await chunks.return?.()
    },
  })
}
