import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { type DeliveryRecord, deliver } from '../../src/webhooks/deliver.js'
import { deliveryQueue } from '../../src/webhooks/delivery-queue.js'
import { receiver } from './receiver.js'

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

const record = (url: string): DeliveryRecord => ({
  url,
  requestHeaders: {},
  requestBody: '',
  status: 200,
  responseHeaders: {},
  responseBody: '',
  durationMs: 0,
  error: null,
})

describe('deliveryQueue', () => {
  it('never runs more than `concurrency` jobs at once, runs them all, and idle() waits for the last', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 0, max: 20 }),
        async (concurrency, jobs) => {
          const queue = deliveryQueue({ concurrency })
          let running = 0
          let peak = 0
          let finished = 0
          for (let i = 0; i < jobs; i++)
            void queue.enqueue(async () => {
              running++
              peak = Math.max(peak, running)
              await new Promise((resolve) => setImmediate(resolve))
              running--
              finished++
              return record(`job-${i}`)
            })
          await queue.idle()
          expect(finished).toBe(jobs)
          expect(peak).toBeLessThanOrEqual(concurrency)
          if (jobs >= concurrency) expect(peak).toBe(concurrency)
          expect(queue.pending).toBe(0)
        },
      ),
      { numRuns: 30 },
    )
  })

  // The deadline is generous so the healthy deliveries finish within it even on a loaded machine.
  it('a hanging receiver holds only its own slot: the deadline frees it and the others are delivered', async () => {
    const hang = await receiver(() => undefined)
    const fine = await receiver((_req, res) => res.end('ok'))
    closers.push(hang.close, fine.close)
    const seen: DeliveryRecord[] = []
    const queue = deliveryQueue({ concurrency: 1, deadlineMs: 1000, onRecord: (r) => seen.push(r) })
    const hung = queue.enqueue((signal) => deliver({ url: hang.url, headers: {}, body: '{}' }, { signal }))
    const others = [1, 2, 3].map(() =>
      queue.enqueue((signal) => deliver({ url: fine.url, headers: {}, body: '{}' }, { signal })),
    )
    await queue.idle()
    expect(await hung).toBeNull()
    expect((await Promise.all(others)).map((r) => r?.status)).toEqual([200, 200, 200])
    expect(fine.seen).toHaveLength(3)
    expect(seen.map((r) => r.status)).toEqual([200, 200, 200])
  })

  it('a job that throws settles as null and does not stop the queue', async () => {
    const queue = deliveryQueue({ concurrency: 2 })
    const bad = queue.enqueue(async () => {
      throw new Error('bug')
    })
    const good = queue.enqueue(async () => record('good'))
    await queue.idle()
    expect(await bad).toBeNull()
    expect((await good)?.url).toBe('good')
  })

  it('idle() resolves at once when nothing is queued', async () => {
    const queue = deliveryQueue()
    await expect(queue.idle()).resolves.toBeUndefined()
  })
})
