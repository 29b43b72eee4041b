import { useState } from 'preact/hooks'
import { curlCommand, tokenRoutes } from '../curl.js'
import { html } from '../html.js'

// "Copy as curl" for every GitLab route of a token: a placeholder stands for the secret.
export function CurlMenu(props: { tokenId: number }) {
  const [copied, setCopied] = useState<string | null>(null)
  const origin = location.origin
  const copy = async (label: string, command: string) => {
    try {
      await navigator.clipboard.writeText(command)
      setCopied(`Copied "${label}" as curl`)
    } catch {
      setCopied('The browser refused the clipboard: select the command and copy it')
    }
  }
  return html`<section aria-labelledby=${`curl-${props.tokenId}`} class="curl">
    <h3 id=${`curl-${props.tokenId}`}>Copy as curl (token ${props.tokenId})</h3>
    <p class="muted">Replace <code>${'<your-token>'}</code> with the token's secret; the dashboard never shows one.</p>
    <ul>
      ${tokenRoutes(props.tokenId).map((route) => {
        const command = curlCommand(origin, route)
        return html`<li key=${route.label}>
          <button type="button" onClick=${() => copy(route.label, command)}>Copy ${route.label}</button>
          <code class="command">${command}</code>
        </li>`
      })}
    </ul>
    <p role="status" aria-live="polite">${copied ?? ''}</p>
  </section>`
}
