import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import { call, controlToken, onUnauthorized, setControlToken } from './api.js'
import { html } from './html.js'
import { readStream } from './sse.js'
import type { ClockState } from './types.js'
import { ClockView } from './views/clock.js'
import { DataPanel } from './views/data.js'
import { DeliveriesView } from './views/deliveries.js'
import { FaultsView } from './views/faults.js'
import { JournalView } from './views/journal.js'
import { ResourcesView, UsersView } from './views/people.js'
import { shortTime } from './views/time.js'
import { type TokenFilters, TokensView } from './views/tokens.js'

const VIEWS = [
  ['tokens', 'Tokens'],
  ['users', 'Users'],
  ['groups', 'Groups'],
  ['projects', 'Projects'],
  ['journal', 'Journal'],
  ['deliveries', 'Deliveries'],
  ['clock', 'Clock'],
  ['faults', 'Faults'],
  ['data', 'Data'],
] as const
type View = (typeof VIEWS)[number][0]

function viewOfHash(): View {
  const name = location.hash.replace(/^#/, '')
  return VIEWS.find(([id]) => id === name)?.[0] ?? 'tokens'
}

// Asks for the control token and tries it (GET /clock) before the views load: a wrong one is said so
// here, and the views never load with it (no failed loads in the console).
function TokenPrompt(props: { done: () => void; refused: boolean }) {
  const [value, setValue] = useState('')
  const [error, setError] = useState<string | null>(
    props.refused
      ? 'The control token in this tab was refused (401): type the one the fake was started with.'
      : null,
  )
  return html`<form class="token-prompt" aria-labelledby="token-heading" onSubmit=${async (event: Event) => {
    event.preventDefault()
    setControlToken(value)
    const answer = await call<ClockState>('GET', 'clock')
    if (answer.status === 401) {
      setControlToken(null)
      setError(
        'That control token was refused (401): type the one the fake was started with (--control-token, its file, or PATKIT_CONTROL_TOKEN).',
      )
      return
    }
    props.done()
  }}>
    <h2 id="token-heading">Control token</h2>
    <p>This fake needs its control token (patkit serve --control-token). It stays in this tab's session storage.</p>
    ${error !== null && html`<p role="alert" class="error">${error}</p>`}
    <label>Control token <input type="password" autocomplete="off" value=${value} onInput=${(e: Event) => setValue((e.target as HTMLInputElement).value)} /></label>
    <button type="submit">Use this token</button>
  </form>`
}

export function App() {
  const [view, setView] = useState<View>(viewOfHash)
  const [refresh, setRefresh] = useState(0)
  const [clock, setClock] = useState<ClockState | null>(null)
  // Whether the fake answers: a stopped server is said in the header, not left "(running)".
  const [reachable, setReachable] = useState(true)
  // null until the first answer says whether the views can load (a control token may be needed).
  const [needToken, setNeedToken] = useState<boolean | null>(null)
  const [refused, setRefused] = useState(false)
  const [filters, setFilters] = useState<TokenFilters>({})
  const [selected, setSelected] = useState<number | null>(null)
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)

  const changed = useCallback(() => setRefresh((n) => n + 1), [])
  // Many events at once (a load test) make one refetch, not one each.
  const soon = useCallback(() => {
    if (pending.current !== null) return
    pending.current = setTimeout(() => {
      pending.current = null
      setRefresh((n) => n + 1)
    }, 150)
  }, [])

  useEffect(
    () =>
      onUnauthorized(() => {
        setRefused(controlToken() !== null)
        setControlToken(null)
        setNeedToken(true)
      }),
    [],
  )
  useEffect(() => {
    const onHash = () => setView(viewOfHash())
    addEventListener('hashchange', onHash)
    return () => removeEventListener('hashchange', onHash)
  }, [])
  // The fake time, read again every second (the page has no clock of its own) and after each change.
  // biome-ignore lint/correctness/useExhaustiveDependencies: refresh and needToken are triggers to read again
  useEffect(() => {
    if (needToken === true) return
    let live = true
    const read = () =>
      call<ClockState>('GET', 'clock').then((answer) => {
        if (!live) return
        setReachable(answer.status !== 0)
        if (answer.ok) {
          setClock(answer.body)
          setNeedToken(false)
        }
      })
    read()
    const timer = setInterval(read, 1000)
    return () => {
      live = false
      clearInterval(timer)
    }
  }, [refresh, needToken])
  // Every journal event (created, rotated, revoked, reuse_detected, used, ...) refreshes the views.
  useEffect(() => {
    if (needToken !== false) return
    const abort = new AbortController()
    readStream('journal/stream?kind=event', null, abort.signal, {
      onEvent: (event) => {
        if (event.event === 'entry') soon()
      },
      onStatus: () => {},
    })
    return () => abort.abort()
  }, [needToken, soon])

  const go = (next: View) => {
    location.hash = next
    setView(next)
    heading.current?.focus()
  }
  const showTokens = (next: TokenFilters) => {
    setFilters(next)
    setSelected(null)
    go('tokens')
  }
  // A delivery's token: its family, among its owner's tokens.
  const showFamily = (tokenId: number, userId: number | null) => {
    setFilters(userId === null ? {} : { user_id: String(userId) })
    setSelected(tokenId)
    go('tokens')
  }
  const tokenSet = controlToken() !== null
  return html`<div class="app">
    <header>
      <h1 ref=${heading} tabIndex="-1">patkit fake GitLab</h1>
      <p class="clock-line">${
        !reachable
          ? html`<strong class="error">The fake does not answer</strong> (stopped?)${clock === null ? '' : `; last fake time ${shortTime(clock.now)}`}`
          : clock === null
            ? needToken === true
              ? 'Fake time: needs the control token'
              : 'Fake time: loading'
            : html`Fake time <strong>${shortTime(clock.now)}</strong> ${clock.frozen ? '(frozen)' : '(running)'}`
      }</p>
      ${
        tokenSet &&
        html`<button type="button" onClick=${() => {
          setControlToken(null)
          setNeedToken(true)
        }}>Forget the control token</button>`
      }
    </header>
    <nav aria-label="Views">
      <ul>
        ${VIEWS.map(
          ([id, label]) =>
            html`<li key=${id}><a href=${`#${id}`} aria-current=${view === id ? 'page' : undefined} onClick=${(
              event: Event,
            ) => {
              event.preventDefault()
              go(id)
            }}>${label}</a></li>`,
        )}
      </ul>
    </nav>
    <main>
      ${
        needToken === null
          ? html`<p role="status">Connecting to the fake…</p>`
          : needToken
            ? html`<${TokenPrompt} refused=${refused} done=${() => {
                setRefused(false)
                setNeedToken(false)
                changed()
              }} />`
            : view === 'tokens'
              ? html`<${TokensView} filters=${filters} setFilters=${setFilters} refresh=${refresh} selected=${selected} select=${setSelected} now=${clock?.now ?? null} />`
              : view === 'users'
                ? html`<${UsersView} refresh=${refresh} showTokens=${(id: number) => showTokens({ user_id: String(id) })} />`
                : view === 'groups' || view === 'projects'
                  ? html`<${ResourcesView} key=${view} kind=${view} refresh=${refresh} showResourceTokens=${(kind: string, id: number) => showTokens({ resource_type: kind, resource_id: String(id) })} />`
                  : view === 'journal'
                    ? html`<${JournalView} />`
                    : view === 'deliveries'
                      ? html`<${DeliveriesView} refresh=${refresh} showFamily=${showFamily} />`
                      : view === 'clock'
                        ? html`<${ClockView} clock=${clock} changed=${changed} />`
                        : view === 'faults'
                          ? html`<${FaultsView} refresh=${refresh} />`
                          : html`<${DataPanel} changed=${changed} />`
      }
    </main>
  </div>`
}
