import { useState } from 'preact/hooks'
import { call, failure } from '../api.js'
import { html } from '../html.js'
import type { ClockState } from '../types.js'
import { shortTime } from './time.js'

/** The fake's clock: set, advance, freeze, resume (POST /__patkit/clock/...). */
export function ClockView(props: { clock: ClockState | null; changed: () => void }) {
  const [at, setAt] = useState('')
  const [amount, setAmount] = useState('1')
  const [unit, setUnit] = useState('days')
  const [message, setMessage] = useState<string | null>(null)
  const act = async (route: string, body?: unknown) => {
    const answer = await call<ClockState>('POST', route, body)
    setMessage(answer.ok ? `The clock is at ${shortTime(answer.body.now)}` : failure(answer))
    props.changed()
  }
  const frozen = props.clock?.frozen === true
  return html`<section aria-labelledby="clock-heading">
    <h2 id="clock-heading">Clock</h2>
    <p>Fake time: <strong data-testid="clock-now">${props.clock === null ? 'unknown' : shortTime(props.clock.now)}</strong> (${frozen ? 'frozen' : 'running'})</p>
    <form class="inline-form" aria-label="Advance the clock" onSubmit=${(event: Event) => {
      event.preventDefault()
      act('clock/advance', { [unit]: Number(amount) })
    }}>
      <label>Amount <input name="amount" type="number" step="any" value=${amount} onInput=${(e: Event) => setAmount((e.target as HTMLInputElement).value)} /></label>
      <label>Unit
        <select name="unit" value=${unit} onChange=${(e: Event) => setUnit((e.target as HTMLSelectElement).value)}>
          ${['minutes', 'hours', 'days'].map((u) => html`<option key=${u} value=${u}>${u}</option>`)}
        </select>
      </label>
      <button type="submit">Advance the clock</button>
    </form>
    <form class="inline-form" aria-label="Set the clock" onSubmit=${(event: Event) => {
      event.preventDefault()
      act('clock/set', { at })
    }}>
      <label>Instant (ISO 8601, with Z or an offset) <input name="at" type="text" value=${at} placeholder="2026-01-10T00:00:00Z" onInput=${(e: Event) => setAt((e.target as HTMLInputElement).value)} /></label>
      <button type="submit">Set the clock</button>
    </form>
    <div class="buttons">
      <button type="button" disabled=${frozen} onClick=${() => act('clock/freeze')}>Freeze the clock</button>
      <button type="button" disabled=${!frozen} onClick=${() => act('clock/resume')}>Resume the clock</button>
    </div>
    <p role="status" aria-live="polite">${message ?? ''}</p>
  </section>`
}
