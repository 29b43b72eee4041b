import { type Journal, type JournalEntry, type JournalQuery, journalMatches } from '../journal.js'
import { journalQuery } from './journal-params.js'

/** How often a stream sends a `: keep-alive` comment, so proxies and clients keep it open. */
export const KEEP_ALIVE_MS = 15_000

/** Calls `tick` every `ms` until the returned function is called. */
export type Every = (ms: number, tick: () => void) => () => void

const realEvery: Every = (ms, tick) => {
  const timer = setInterval(tick, ms)
  // A stream's keep-alive never holds a process open.
  timer.unref?.()
  return () => clearInterval(timer)
}

/** What {@link journalStream} reads and when it ends. */
export interface JournalStreamOptions {
  readonly journal: Journal
  /** Aborted when the fake closes: every open stream ends. */
  readonly closing?: AbortSignal | undefined
  readonly keepAliveMs?: number
  /** The keep-alive timer (tests give their own; default `setInterval`). */
  readonly every?: Every
}

const SEQ = /^\d{1,16}$/

// One entry as a server-sent event: its seq as the id a client resumes from.
const frame = (entry: JournalEntry) => `id: ${entry.seq}\nevent: entry\ndata: ${JSON.stringify(entry)}\n\n`

const refusal = (message: string) =>
  new Response(JSON.stringify({ error: message }), {
    status: 400,
    headers: { 'content-type': 'application/json' },
  })

/**
 * `GET /__patkit/journal/stream`: every new journal entry the filters of `GET /__patkit/journal`
 * select, as server-sent events; the entries after `Last-Event-ID` (or `?since=`) first. A
 * `: keep-alive` comment every {@link KEEP_ALIVE_MS}; the stream ends when the fake closes.
 */
export function journalStream(request: Request, url: URL, options: JournalStreamOptions): Response {
  const params = new URLSearchParams(url.searchParams)
  const since = params.get('since')
  params.delete('since')
  const header = request.headers.get('last-event-id')
  for (const [name, value] of [
    ['since', since],
    ['Last-Event-ID', header],
  ] as const) {
    if (value !== null && value !== '' && !SEQ.test(value.trim()))
      return refusal(`${name} must be an integer from 0 (the seq of the last entry seen)`)
  }
  const parsed = journalQuery(params)
  if (typeof parsed === 'string') return refusal(parsed)
  // The header (a client resuming) wins over the query's start.
  const resume = header !== null && header.trim() !== '' ? header.trim() : since === '' ? null : since
  const { limit, ...live } = parsed
  const after = Math.max(live.afterSeq ?? 0, resume === null ? 0 : Number(resume))
  const replaying = resume !== null || live.afterSeq !== undefined
  const selected: JournalQuery = after === 0 ? live : { ...live, afterSeq: after }
  const { journal, closing } = options
  const every = options.every ?? realEvery
  const encoder = new TextEncoder()
  let stop = () => {}
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true
      const send = (text: string) => {
        if (open) controller.enqueue(encoder.encode(text))
      }
      const end = () => {
        if (!open) return
        stop()
        open = false
        controller.close()
      }
      // Subscribed before the replay is read, in one synchronous step: no entry falls between them.
      const unsubscribe = journal.subscribe((entry) => {
        if (journalMatches(entry, selected)) send(frame(entry))
      })
      const stopTicking = every(options.keepAliveMs ?? KEEP_ALIVE_MS, () => send(': keep-alive\n\n'))
      stop = () => {
        unsubscribe()
        stopTicking()
        closing?.removeEventListener('abort', end)
      }
      // A first chunk at once, so the client's fetch resolves before any entry comes.
      send(': patkit journal stream\n\n')
      if (replaying) {
        const replay = journal.query(limit === undefined ? selected : { ...selected, limit })
        for (const entry of replay.entries) send(frame(entry))
      }
      closing?.addEventListener('abort', end, { once: true })
      if (closing?.aborted === true) end()
    },
    cancel() {
      stop()
    },
  })
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
    },
  })
}
