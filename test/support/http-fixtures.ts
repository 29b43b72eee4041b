import { createHandler, type HandlerOptions } from '../../src/http/index.js'
import { world } from './authority-fixtures.js'

export interface CallOptions {
  readonly token?: string
  readonly body?: unknown
  readonly rawBody?: string
  readonly headers?: Record<string, string>
}

/**
 * A world plus its HTTP handler. Paths starting with `/personal_access_tokens`, `/user/` or `/users/`
 * are relative to `/api/v4`; any other path is used as given. Called with `new Request(...)`: no port.
 */
export async function httpWorld(
  options: Parameters<typeof world>[0] = {},
  handlerOptions: HandlerOptions = {},
) {
  const w = await world(options)
  const handler = createHandler(w.authority, handlerOptions)
  async function call(method: string, path: string, opts: CallOptions = {}) {
    const headers: Record<string, string> = { ...opts.headers }
    if (opts.token !== undefined) headers['PRIVATE-TOKEN'] = opts.token
    let body: string | undefined = opts.rawBody
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body)
      headers['content-type'] ??= 'application/json'
    }
    const response = await handler(
      new Request(
        `http://gitlab.test${/^\/(personal_access_tokens|users?\/)/.test(path) ? `/api/v4${path}` : path}`,
        {
          method,
          headers,
          ...(body === undefined ? {} : { body }),
        },
      ),
    )
    const text = await response.text()
    return {
      status: response.status,
      headers: response.headers,
      text,
      json: text === '' ? undefined : (JSON.parse(text) as unknown),
    }
  }
  return { ...w, handler, call }
}
