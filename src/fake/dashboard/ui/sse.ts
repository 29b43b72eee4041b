import { controlHeaders, controlUrl } from './api.js'

// Server-sent events read with fetch(): EventSource cannot send the X-Patkit-Control-Token header.

/** One event of the stream: its id, name and data. */
export interface StreamEvent {
  readonly id: string | null
  readonly event: string
  readonly data: string
}

/** Splits the text/event-stream body into events (the WHATWG parsing rules, without retry). */
export function sseParser(onEvent: (event: StreamEvent) => void): (chunk: string) => void {
  let buffer = ''
  let data: string[] = []
  let event = ''
  let id: string | null = null
  return (chunk) => {
    buffer += chunk
    const lines = buffer.split(/\r\n|\r|\n/)
    buffer = lines.pop() ?? ''
    for (const line of lines) {
      if (line === '') {
        if (data.length > 0) onEvent({ id, event: event || 'message', data: data.join('\n') })
        data = []
        event = ''
        continue
      }
      if (line.startsWith(':')) continue // a comment: the keep-alive
      const colon = line.indexOf(':')
      const field = colon === -1 ? line : line.slice(0, colon)
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
      if (field === 'data') data.push(value)
      else if (field === 'event') event = value
      else if (field === 'id') id = value
    }
  }
}

/** What the stream reports to its reader. */
export interface StreamHandlers {
  readonly onEvent: (event: StreamEvent) => void
  readonly onStatus: (status: 'open' | 'closed' | 'error', detail?: string) => void
}

/**
 * Reads `route` (e.g. `journal/stream?type=rotated`) until `signal` aborts or the server closes it;
 * `lastEventId` resumes after the entries already shown.
 */
export async function readStream(
  route: string,
  lastEventId: string | null,
  signal: AbortSignal,
  handlers: StreamHandlers,
): Promise<void> {
  const headers = controlHeaders(false)
  headers.set('accept', 'text/event-stream')
  if (lastEventId !== null) headers.set('last-event-id', lastEventId)
  let response: Response
  try {
    response = await fetch(controlUrl(route), { headers, signal })
  } catch {
    if (!signal.aborted) handlers.onStatus('error', 'the fake did not answer')
    return
  }
  if (!response.ok || response.body === null) {
    handlers.onStatus('error', `${response.status}: ${await response.text()}`)
    return
  }
  handlers.onStatus('open')
  const parse = sseParser(handlers.onEvent)
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      parse(value)
    }
    handlers.onStatus('closed')
  } catch {
    if (!signal.aborted) handlers.onStatus('error', 'the stream broke off')
  }
}
