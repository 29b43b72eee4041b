import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { manualClock } from '../../src/domain/clock.js'
import { seededRandom } from '../../src/domain/random.js'
import { SIGNATURE_HEADER, verifyWebhookSignature, webhookSender } from '../../src/webhooks/webhook-sender.js'
import { closedPort, receiver } from './receiver.js'

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

const at = new Date('2030-01-01T00:00:00Z')
const noSleep = async (): Promise<void> => undefined

async function answering(statuses: number[]) {
  let i = 0
  const r = await receiver((_req, res) => {
    res.statusCode = statuses[Math.min(i++, statuses.length - 1)] ?? 200
    res.end()
  })
  closers.push(r.close)
  return r
}

describe('webhookSender', () => {
  it('signs the JSON body; the receiver verifies it with the shared secret', async () => {
    const r = await answering([204])
    const sender = webhookSender({
      url: r.url,
      secret: 'whsec',
      clock: manualClock(at),
      random: seededRandom(1),
    })
    const outcome = await sender.send({ type: 'token.expiring', id: 1 })
    expect(outcome._unsafeUnwrap()).toMatchObject({ status: 204, attempts: 1 })
    const [seen] = r.seen
    const header = seen?.headers[SIGNATURE_HEADER.toLowerCase()]
    expect(typeof header).toBe('string')
    expect(seen?.body).toBe('{"type":"token.expiring","id":1}')
    expect(seen?.headers['content-type']).toBe('application/json')
    const verified = verifyWebhookSignature('whsec', String(header), seen?.body ?? '', at, 300)
    expect(verified._unsafeUnwrap().timestamp).toBe(at.getTime() / 1000)
  })

  it('retries 5xx and 429 with exponential backoff and the same idempotency key, then succeeds', async () => {
    const r = await answering([500, 429, 503, 200])
    const waits: number[] = []
    const sender = webhookSender({
      url: r.url,
      secret: 's',
      clock: manualClock(at),
      random: seededRandom(2),
      retries: 3,
      backoff: (n) => 100 * 2 ** n,
      sleep: async (ms) => {
        waits.push(ms)
      },
    })
    const outcome = await sender.send({ n: 1 })
    expect(outcome._unsafeUnwrap()).toMatchObject({ status: 200, attempts: 4 })
    expect(waits).toEqual([100, 200, 400])
    const keys = new Set(r.seen.map((s) => s.headers['idempotency-key']))
    expect(r.seen).toHaveLength(4)
    expect(keys.size).toBe(1)
    expect([...keys][0]).toBe(outcome._unsafeUnwrap().idempotencyKey)
  })

  it('gives up after retries + 1 attempts and reports the last status', async () => {
    const r = await answering([502])
    const sender = webhookSender({
      url: r.url,
      secret: 's',
      clock: manualClock(at),
      retries: 2,
      sleep: noSleep,
    })
    const outcome = await sender.send({})
    expect(outcome._unsafeUnwrapErr()).toMatchObject({ kind: 'gave_up', status: 502, attempts: 3 })
    expect(r.seen).toHaveLength(3)
  })

  it('retries network errors (a closed port) and reports no status', async () => {
    const port = await closedPort()
    const sender = webhookSender({
      url: `http://127.0.0.1:${port}/`,
      secret: 's',
      clock: manualClock(at),
      retries: 1,
      sleep: noSleep,
    })
    expect((await sender.send({}))._unsafeUnwrapErr()).toMatchObject({
      kind: 'gave_up',
      status: null,
      attempts: 2,
    })
  })

  it('an attempt that gets no answer in time is retried, then given up', async () => {
    const r = await receiver(() => undefined)
    closers.push(r.close)
    const sender = webhookSender({
      url: r.url,
      secret: 's',
      clock: manualClock(at),
      retries: 1,
      timeoutMs: 100,
      sleep: noSleep,
    })
    expect((await sender.send({}))._unsafeUnwrapErr()).toMatchObject({
      kind: 'gave_up',
      status: null,
      attempts: 2,
    })
    expect(r.seen).toHaveLength(2)
  })

  it('a 4xx other than 429 is not retried', async () => {
    const r = await answering([400, 200])
    const sender = webhookSender({
      url: r.url,
      secret: 's',
      clock: manualClock(at),
      retries: 3,
      sleep: noSleep,
    })
    expect((await sender.send({}))._unsafeUnwrapErr()).toMatchObject({
      kind: 'rejected',
      status: 400,
      attempts: 1,
    })
    expect(r.seen).toHaveLength(1)
  })
})

describe('verifyWebhookSignature', () => {
  async function signed(body: unknown, secret: string): Promise<{ header: string; raw: string }> {
    const r = await answering([200])
    await webhookSender({ url: r.url, secret, clock: manualClock(at), random: seededRandom(3) }).send(body)
    return { header: String(r.seen[0]?.headers['patkit-signature']), raw: r.seen[0]?.body ?? '' }
  }

  it('refuses a tampered body, a wrong secret, a stale timestamp and a malformed header', async () => {
    const { header, raw } = await signed({ amount: 1 }, 'right')
    expect(verifyWebhookSignature('right', header, raw, at).isOk()).toBe(true)
    expect(verifyWebhookSignature('right', header, raw.replace('1', '2'), at)._unsafeUnwrapErr()).toBe(
      'mismatch',
    )
    expect(verifyWebhookSignature('wrong', header, raw, at)._unsafeUnwrapErr()).toBe('mismatch')
    const later = new Date(at.getTime() + 301_000)
    expect(verifyWebhookSignature('right', header, raw, later, 300)._unsafeUnwrapErr()).toBe('too_old')
    expect(verifyWebhookSignature('right', 'garbage', raw, at)._unsafeUnwrapErr()).toBe('malformed')
    const forgedTime = header.replace(/t=\d+/, `t=${at.getTime() / 1000 + 1}`)
    expect(verifyWebhookSignature('right', forgedTime, raw, at)._unsafeUnwrapErr()).toBe('mismatch')
  })

  it('any change to the body is refused (property)', async () => {
    const { header, raw } = await signed({ k: 'v' }, 'secret')
    fc.assert(
      fc.property(fc.string(), (other) => {
        fc.pre(other !== raw)
        expect(verifyWebhookSignature('secret', header, other, at).isErr()).toBe(true)
      }),
    )
  })
})
