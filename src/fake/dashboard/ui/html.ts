// Tagged templates instead of JSX: the dashboard needs no JSX transform, only esbuild's bundling.
// htm/preact is htm bound to preact's h.
export { html } from 'htm/preact'
