import { render } from 'preact'
import { App } from './app.js'
import { html } from './html.js'

const root = document.getElementById('app')
if (root !== null) render(html`<${App} />`, root)
