import { useEffect, useRef } from 'preact/hooks'
import { html } from '../html.js'

/** What a confirmation asks: a title, what will happen, and the confirming button's label. */
export interface Confirmation {
  readonly title: string
  readonly detail: string
  readonly action: string
}

/**
 * A modal `<dialog>` that asks before a change that replaces the data: focus moves into it (onto
 * Cancel, the safe choice), Escape and Cancel close it without doing anything, and only the
 * confirming button calls `onConfirm`. Open while `ask` is not null.
 */
export function ConfirmDialog(props: {
  ask: Confirmation | null
  onConfirm: () => void
  onCancel: () => void
}) {
  const dialog = useRef<HTMLDialogElement>(null)
  const cancel = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    const element = dialog.current
    if (element === null) return
    if (props.ask !== null && !element.open) {
      element.showModal()
      cancel.current?.focus()
    }
    if (props.ask === null && element.open) element.close()
  }, [props.ask])
  // Escape closes a modal dialog by itself: it is a cancel as the button is.
  const onCancelEvent = (event: Event) => {
    event.preventDefault()
    props.onCancel()
  }
  return html`<dialog
    ref=${dialog}
    class="confirm"
    aria-labelledby="confirm-heading"
    aria-describedby="confirm-detail"
    onCancel=${onCancelEvent}
  >
    <h3 id="confirm-heading">${props.ask?.title ?? ''}</h3>
    <p id="confirm-detail">${props.ask?.detail ?? ''}</p>
    <div class="buttons">
      <button type="button" ref=${cancel} onClick=${props.onCancel}>Cancel</button>
      <button type="button" class="danger" onClick=${props.onConfirm}>${props.ask?.action ?? ''}</button>
    </div>
  </dialog>`
}
