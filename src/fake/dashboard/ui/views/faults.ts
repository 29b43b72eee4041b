import { useEffect, useState } from 'preact/hooks'
import { call, failure } from '../api.js'
import { html } from '../html.js'
import type { FaultRule } from '../types.js'

function ruleText(rule: FaultRule): string {
  const match = `${rule.method ?? 'any method'} ${rule.path ?? 'any path'}${rule.tokenId === undefined ? '' : ` token ${rule.tokenId}`}`
  const action = [
    rule.status === undefined ? null : `answer ${rule.status}`,
    rule.delayMs === undefined ? null : `delay ${rule.delayMs} ms`,
    rule.drop === true ? 'drop the connection' : null,
  ].filter((part) => part !== null)
  const left = rule.remaining === null ? '' : `, ${rule.remaining} left`
  return `${match}: ${action.join(', ')} (${rule.hits} hits${left})`
}

/** Fault rules: list, add, remove (GET/POST/DELETE /__patkit/faults). */
export function FaultsView(props: { refresh: number }) {
  const [rules, setRules] = useState<readonly FaultRule[]>([])
  const [draft, setDraft] = useState<Record<string, string>>({ method: '', path: '/api/v4/*', status: '503' })
  const [message, setMessage] = useState<string | null>(null)
  const [version, setVersion] = useState(0)
  // biome-ignore lint/correctness/useExhaustiveDependencies: version and refresh are triggers to fetch again
  useEffect(() => {
    // Read again every second: a rule added or removed over the API, and its hits, show within one.
    let live = true
    const read = () =>
      call<FaultRule[]>('GET', 'faults').then((answer) => {
        if (!live) return
        if (answer.ok) setRules(answer.body)
        else setMessage(failure(answer))
      })
    read()
    const timer = setInterval(read, 1000)
    return () => {
      live = false
      clearInterval(timer)
    }
  }, [version, props.refresh])
  const set = (name: string) => (event: Event) => {
    const value = (event.target as HTMLInputElement).value
    setDraft((old) => ({ ...old, [name]: value }))
  }
  const add = async (event: Event) => {
    event.preventDefault()
    const rule: Record<string, unknown> = {}
    const text = (name: string) => (draft[name] ?? '').trim()
    if (text('method') !== '') rule['method'] = text('method')
    if (text('path') !== '') rule['path'] = text('path')
    for (const name of ['tokenId', 'times', 'status', 'delayMs'])
      if (text(name) !== '') rule[name] = Number(text(name))
    if (text('probability') !== '') rule['probability'] = Number(text('probability'))
    if (draft['drop'] === 'true') rule['drop'] = true
    const answer = await call<FaultRule>('POST', 'faults', rule)
    setMessage(answer.ok ? `Added fault rule ${answer.body.id}` : failure(answer))
    setVersion((v) => v + 1)
  }
  const remove = async (id: string) => {
    const answer = await call('DELETE', `faults/${encodeURIComponent(id)}`)
    setMessage(answer.ok ? `Removed fault rule ${id}` : failure(answer))
    setVersion((v) => v + 1)
  }
  return html`<section aria-labelledby="faults-heading">
    <h2 id="faults-heading">Fault rules</h2>
    <form class="filters" aria-label="Add a fault rule" onSubmit=${add}>
      <label>Method <input name="method" type="text" value=${draft['method'] ?? ''} placeholder="any" onInput=${set('method')} /></label>
      <label>Path (exact, or a prefix ending in *) <input name="path" type="text" value=${draft['path'] ?? ''} onInput=${set('path')} /></label>
      <label>Token ID <input name="tokenId" type="number" value=${draft['tokenId'] ?? ''} onInput=${set('tokenId')} /></label>
      <label>Answer status <input name="status" type="number" value=${draft['status'] ?? ''} onInput=${set('status')} /></label>
      <label>Delay (ms) <input name="delayMs" type="number" value=${draft['delayMs'] ?? ''} onInput=${set('delayMs')} /></label>
      <label>Times <input name="times" type="number" value=${draft['times'] ?? ''} placeholder="every match" onInput=${set('times')} /></label>
      <label>Probability <input name="probability" type="number" step="any" value=${draft['probability'] ?? ''} placeholder="1" onInput=${set('probability')} /></label>
      <label>Drop the connection
        <select name="drop" value=${draft['drop'] ?? 'false'} onChange=${set('drop')}>
          <option value="false">no</option><option value="true">yes</option>
        </select>
      </label>
      <div class="buttons"><button type="submit">Add fault rule</button></div>
    </form>
    <p role="status" aria-live="polite">${message ?? ''}</p>
    ${
      rules.length === 0
        ? html`<p>No fault rule: the fake answers normally.</p>`
        : html`<ul class="rules">
      ${rules.map(
        (rule) => html`<li key=${rule.id}>
        <code>${rule.id}</code> ${ruleText(rule)}
        <button type="button" onClick=${() => remove(rule.id)}>Remove fault rule ${rule.id}</button>
      </li>`,
      )}
    </ul>`
    }
  </section>`
}
