import { useState } from 'preact/hooks'
import { call, failure } from '../api.js'
import { html } from '../html.js'
import { type Confirmation, ConfirmDialog } from './confirm-dialog.js'

interface Counts {
  readonly users: number
  readonly tokens: number
  readonly groups?: number
  readonly projects?: number
}

const countText = (c: Counts) =>
  `${c.users} users, ${c.tokens} tokens, ${c.groups ?? 0} groups, ${c.projects ?? 0} projects`

// A change waiting for its confirmation: what the dialog asks, and what runs on confirm.
interface Pending {
  readonly ask: Confirmation
  readonly run: () => Promise<void>
}

const RESET: Confirmation = {
  title: 'Reset the data?',
  detail:
    'The users, tokens, groups and projects go back to what the server held when it started; every change since is lost. The clock, the journal and the fault rules start over too.',
  action: 'Reset',
}

// How many tokens of a snapshot carry a plaintext `token` (the seed's secrets), for the download's warning.
function holdsPlaintext(snapshot: unknown): number {
  const tokens = (snapshot as { tokens?: unknown } | null)?.tokens
  if (!Array.isArray(tokens)) return 0
  return tokens.filter((token) => typeof (token as { token?: unknown } | null)?.token === 'string').length
}

/**
 * Reset to the start, download a snapshot (GET /state), restore one (PUT /state). Reset and restore
 * replace the data: each asks first.
 */
export function DataPanel(props: { changed: () => void }) {
  const [message, setMessage] = useState<string | null>(null)
  const [pending, setPending] = useState<Pending | null>(null)
  const runReset = async () => {
    const answer = await call<Counts>('POST', 'reset')
    setMessage(answer.ok ? `Reset to the start: ${countText(answer.body)}` : failure(answer))
    props.changed()
  }
  const reset = () => setPending({ ask: RESET, run: runReset })
  const confirm = () => {
    const run = pending?.run
    setPending(null)
    if (run !== undefined) void run()
  }
  const cancel = () => {
    setPending(null)
    setMessage('Nothing changed')
  }
  const download = async () => {
    const answer = await call<unknown>('GET', 'state')
    if (!answer.ok) {
      setMessage(failure(answer))
      return
    }
    const plaintext = holdsPlaintext(answer.body)
    const blob = new Blob([JSON.stringify(answer.body, null, 2)], { type: 'application/json' })
    const link = document.createElement('a')
    link.href = URL.createObjectURL(blob)
    link.download = 'patkit-state.json'
    link.click()
    URL.revokeObjectURL(link.href)
    setMessage(
      plaintext === 0
        ? 'Snapshot downloaded as patkit-state.json (no plaintext secret in it)'
        : `Snapshot downloaded as patkit-state.json: it holds ${plaintext} plaintext secret${plaintext === 1 ? '' : 's'} (the seed's), keep it as you keep the seed`,
    )
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
    // Cleared now: picking the same file again after a cancel is a change the input reports.
    input.value = ''
    setPending({
      ask: {
        title: `Restore ${file.name}?`,
        detail: `The users, tokens, groups and projects are replaced by those in ${file.name}; the data held now is lost unless you downloaded a snapshot of it.`,
        action: 'Restore',
      },
      run: async () => {
        const answer = await call<Counts>('PUT', 'state', body)
        setMessage(answer.ok ? `Restored ${file.name}: ${countText(answer.body)}` : failure(answer))
        props.changed()
      },
    })
  }
  return html`<section aria-labelledby="data-heading">
    <h2 id="data-heading">Data</h2>
    <p>A snapshot holds the users, tokens, groups and projects. <strong>A token the seed gave as a plaintext
    <code>token</code> is in the snapshot with that secret in plaintext</strong> (others only as digests): keep a
    snapshot as you keep the seed.</p>
    <div class="buttons">
      <button type="button" onClick=${reset}>Reset to the start</button>
      <button type="button" onClick=${download}>Download a snapshot</button>
    </div>
    <label class="file">Restore a snapshot (JSON file) <input type="file" accept="application/json,.json" onChange=${restore} /></label>
    <p role="status" aria-live="polite">${message ?? ''}</p>
    <${ConfirmDialog} ask=${pending?.ask ?? null} onConfirm=${confirm} onCancel=${cancel} />
  </section>`
}
