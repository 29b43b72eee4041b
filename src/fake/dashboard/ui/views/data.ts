import { useState } from 'preact/hooks'
import { call, failure } from '../api.js'
import { html } from '../html.js'

interface Counts {
  readonly users: number
  readonly tokens: number
  readonly groups?: number
  readonly projects?: number
}

const countText = (c: Counts) =>
  `${c.users} users, ${c.tokens} tokens, ${c.groups ?? 0} groups, ${c.projects ?? 0} projects`

/** Reset to the seed, download a snapshot (GET /state), restore one (PUT /state). */
export function DataPanel(props: { changed: () => void }) {
  const [message, setMessage] = useState<string | null>(null)
  const reset = async () => {
    const answer = await call<Counts>('POST', 'reset')
    setMessage(answer.ok ? `Reset to the seed: ${countText(answer.body)}` : failure(answer))
    props.changed()
  }
  const download = async () => {
    const answer = await call<unknown>('GET', 'state')
    if (!answer.ok) {
      setMessage(failure(answer))
      return
    }
    const blob = new Blob([JSON.stringify(answer.body, null, 2)], { type: 'application/json' })
    const link = document.createElement('a')
    link.href = URL.createObjectURL(blob)
    link.download = 'patkit-state.json'
    link.click()
    URL.revokeObjectURL(link.href)
    setMessage('Snapshot downloaded as patkit-state.json')
  }
  const restore = async (event: Event) => {
    const input = event.target as HTMLInputElement
    const file = input.files?.[0]
    if (file === undefined) return
    let body: unknown
    try {
      body = JSON.parse(await file.text())
    } catch {
      setMessage(`${file.name} is not JSON`)
      return
    }
    const answer = await call<Counts>('PUT', 'state', body)
    setMessage(answer.ok ? `Restored ${file.name}: ${countText(answer.body)}` : failure(answer))
    input.value = ''
    props.changed()
  }
  return html`<section aria-labelledby="data-heading">
    <h2 id="data-heading">Data</h2>
    <p>A snapshot holds the users, tokens (secrets only as digests, or as the seed gave them), groups and projects.</p>
    <div class="buttons">
      <button type="button" onClick=${reset}>Reset to the seed</button>
      <button type="button" onClick=${download}>Download a snapshot</button>
    </div>
    <label class="file">Restore a snapshot (JSON file) <input type="file" accept="application/json,.json" onChange=${restore} /></label>
    <p role="status" aria-live="polite">${message ?? ''}</p>
  </section>`
}
