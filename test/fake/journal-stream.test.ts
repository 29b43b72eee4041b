import { afterEach, describe, expect, it } from 'vitest'
import { journalStream } from '../../src/fake/control/journal-stream.js'
import type { FakeGitLab } from '../../src/fake/fake-gitlab.js'
import { createJournal } from '../../src/fake/journal.js'
import { ALICE, closeAll, startDashboardFake } from './support/dashboard-fake.js'

// GET /__patkit/journal/stream: server-sent events read as the dashboard reads them (fetch streaming),
// without timing: each test reads the stream until the frame it waits for arrives.

afterEach(closeAll)

interface Frame {
  readonly id?: string
  readonly event?: string
  readonly data?: string
  readonly comment?: string
}

/** Reads frames from an event stream; `next` waits for the next whole frame (null at the end). */
function frames(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  const parse = (block: string): Frame => {
    const frame: Record<string, string> = {}
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) frame['comment'] = line.slice(1).trim()
      else {
        const at = line.indexOf(': ')
        frame[line.slice(0, at)] = line.slice(at + 2)
      }
    }
    return frame
  }
  return {
    async next(): Promise<Frame | null> {
      for (;;) {
        const end = buffer.indexOf('\n\n')
        if (end >= 0) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          return parse(block)
        }
        const chunk = await reader.read()
        if (chunk.done) return null
        buffer += decoder.decode(chunk.value, { stream: true })
      }
    },
    /** The next entry frame, skipping comments. */
    async entry(): Promise<{ id: string; event: string; entry: Record<string, unknown> } | null> {
      for (;;) {
        const frame = await this.next()
        if (frame === null) return null
        if (frame.comment !== undefined) continue
        return { id: frame.id ?? '', event: frame.event ?? '', entry: JSON.parse(frame.data ?? 'null') }
      }
    },
    cancel: () => reader.cancel(),
  }
}

async function open(gitlab: FakeGitLab, query = '', headers: Record<string, string> = {}) {
  const response = await fetch(`${gitlab.url}/__patkit/journal/stream${query}`, { headers })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('text/event-stream')
  if (response.body === null) throw new Error('no body')
  return frames(response.body)
}

const version = (gitlab: FakeGitLab) =>
  fetch(`${gitlab.apiUrl}/version`, { headers: { 'PRIVATE-TOKEN': ALICE } })
const self = (gitlab: FakeGitLab) =>
  fetch(`${gitlab.apiUrl}/personal_access_tokens/self`, { headers: { 'PRIVATE-TOKEN': ALICE } })

describe('GET /__patkit/journal/stream', () => {
  it('delivers each new entry as it is recorded, with the JSON of GET /__patkit/journal', async () => {
    const gitlab = await startDashboardFake()
    const stream = await open(gitlab)
    expect(await stream.next()).toEqual({ comment: 'patkit journal stream' })
    await (await self(gitlab)).text()
    const journal = (await (await fetch(`${gitlab.url}/__patkit/journal?kind=request`)).json()) as {
      entries: unknown[]
    }
    const first = await stream.entry()
    expect(first?.event).toBe('entry')
    // The request's `used` event and the request itself, in seq order.
    const second = await stream.entry()
    const delivered = [first, second].map((frame) => frame?.entry)
    expect(delivered.map((entry) => entry?.['kind'])).toEqual(['event', 'request'])
    expect(delivered[1]).toEqual(journal.entries[0])
    expect([first?.id, second?.id]).toEqual(delivered.map((entry) => String(entry?.['seq'])))
    await stream.cancel()
  })

  // The fake's close after two client-cancelled streams takes about 3 s here (undici keeps a cancelled
  // stream's socket until it times out), so this test states a timeout of its own.
  it('replays the entries after Last-Event-ID or ?since= first', { timeout: 20_000 }, async () => {
    const gitlab = await startDashboardFake()
    await (await self(gitlab)).text()
    await (await version(gitlab)).text()
    const all = (await (await fetch(`${gitlab.url}/__patkit/journal`)).json()) as {
      entries: { seq: number }[]
    }
    const seqs = all.entries.map((entry) => entry.seq)
    expect(seqs.length).toBeGreaterThanOrEqual(3)
    const after = seqs[0] ?? 0
    for (const [query, headers] of [
      ['', { 'last-event-id': String(after) }],
      [`?since=${after}`, {}],
    ] as const) {
      const stream = await open(gitlab, query, headers)
      const replayed: number[] = []
      for (let i = 1; i < seqs.length; i++) replayed.push(Number((await stream.entry())?.id))
      expect(replayed).toEqual(seqs.slice(1))
      // Then live entries.
      await (await version(gitlab)).text()
      expect(Number((await stream.entry())?.id)).toBeGreaterThan(seqs.at(-1) ?? 0)
      await stream.cancel()
    }
  })

  it('applies the journal’s filters to replay and live entries', async () => {
    const gitlab = await startDashboardFake()
    await (await version(gitlab)).text()
    await (await self(gitlab)).text()
    const stream = await open(gitlab, '?kind=request&path=/personal_access_tokens&since=0')
    expect((await stream.entry())?.entry).toMatchObject({
      kind: 'request',
      path: '/api/v4/personal_access_tokens/self',
    })
    await (await version(gitlab)).text() // not selected
    await (await self(gitlab)).text()
    expect((await stream.entry())?.entry).toMatchObject({
      kind: 'request',
      path: '/api/v4/personal_access_tokens/self',
    })
    await stream.cancel()
    // A rotation: its events select by type and token.
    const events = await open(gitlab, '?type=rotated&token_id=1')
    await (
      await fetch(`${gitlab.apiUrl}/personal_access_tokens/self/rotate`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': ALICE },
      })
    ).text()
    expect((await events.entry())?.entry).toMatchObject({ kind: 'event', type: 'rotated' })
    await events.cancel()
  })

  it('refuses bad parameters before streaming', async () => {
    const gitlab = await startDashboardFake()
    for (const [query, headers, error] of [
      ['?type=nope', {}, 'type must be one of'],
      ['?since=x', {}, 'since must be an integer from 0'],
      ['', { 'last-event-id': '-1' }, 'Last-Event-ID must be an integer from 0'],
      ['?bogus=1', {}, 'bogus is not a journal parameter'],
    ] as const) {
      const response = await fetch(`${gitlab.url}/__patkit/journal/stream${query}`, { headers })
      expect(response.status).toBe(400)
      expect(((await response.json()) as { error: string }).error).toContain(error)
    }
  })

  it('is guarded as every control route: the control token, no other origin', async () => {
    const gitlab = await startDashboardFake({ controlToken: 'the-dashboard-token' })
    const without = await fetch(`${gitlab.url}/__patkit/journal/stream`)
    expect(without.status).toBe(401)
    const crossOrigin = await fetch(`${gitlab.url}/__patkit/journal/stream`, {
      headers: { 'x-patkit-control-token': 'the-dashboard-token', origin: 'https://evil.example' },
    })
    expect(crossOrigin.status).toBe(403)
    const stream = await open(gitlab, '', { 'x-patkit-control-token': 'the-dashboard-token' })
    expect(await stream.next()).toEqual({ comment: 'patkit journal stream' })
    await stream.cancel()
  })

  it('ends when the fake closes', async () => {
    const gitlab = await startDashboardFake()
    const stream = await open(gitlab)
    expect(await stream.next()).toEqual({ comment: 'patkit journal stream' })
    await gitlab.close()
    expect(await stream.next()).toBeNull()
  })
})

describe('journalStream keep-alive and subscriptions', () => {
  it('sends a keep-alive comment on each tick of its timer and unsubscribes when cancelled', async () => {
    const journal = createJournal()
    const ticks: (() => void)[] = []
    let stopped = 0
    const response = journalStream(new Request('http://127.0.0.1/'), new URL('http://127.0.0.1/'), {
      journal,
      keepAliveMs: 15_000,
      every: (ms, tick) => {
        expect(ms).toBe(15_000)
        ticks.push(tick)
        return () => {
          stopped++
        }
      },
    })
    if (response.body === null) throw new Error('no body')
    const stream = frames(response.body)
    expect(await stream.next()).toEqual({ comment: 'patkit journal stream' })
    ticks[0]?.()
    expect(await stream.next()).toEqual({ comment: 'keep-alive' })
    journal.recordRequest({
      at: 'x',
      method: 'GET',
      path: '/p',
      status: 200,
      tokenId: null,
      userId: null,
      fault: null,
    })
    expect((await stream.entry())?.id).toBe('1')
    await stream.cancel()
    expect(stopped).toBe(1)
    // No listener is left: recording after the cancel reaches no stream.
    journal.recordRequest({
      at: 'x',
      method: 'GET',
      path: '/p',
      status: 200,
      tokenId: null,
      userId: null,
      fault: null,
    })
  })

  it('ends at once when the fake is already closing', async () => {
    const closing = new AbortController()
    closing.abort()
    const response = journalStream(new Request('http://127.0.0.1/'), new URL('http://127.0.0.1/'), {
      journal: createJournal(),
      closing: closing.signal,
      every: () => () => {},
    })
    expect(await response.text()).toBe(': patkit journal stream\n\n')
  })
})
