import type { PatkitError } from '../domain/errors.js'

/**
 * A response before it becomes a web `Response`: what the handler decides, in a form
 * `createNodeListener` writes directly and {@link toResponse} turns into a `Response`.
 * Header names are lower case, as a `Headers` object gives them.
 */
export interface Reply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  /** The body text; `null` for none (204, and every answer to HEAD). */
  readonly body: string | null
  /**
   * The typed error this answer refuses the request for, when one did (`errorReply`): handed to
   * `HandlerOptions.onRefusal`, never written to the client.
   */
  readonly refusal?: PatkitError
}

const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json' })

/** JSON with GitLab's content type. */
export function json(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return jsonText(status, JSON.stringify(body), headers)
}

/** {@link json} of a body already written as JSON text. */
export function jsonText(status: number, body: string, headers?: Record<string, string>): Reply {
  // Without further headers, every answer shares one frozen header object.
  const all = headers === undefined ? JSON_HEADERS : { 'content-type': 'application/json', ...headers }
  return { status, headers: all, body }
}

/** 204 with an empty body, as GitLab's `no_content!`. */
export function noContent(): Reply {
  return { status: 204, headers: {}, body: null }
}

/** GitLab's `render_api_error!` shape: `{"message": "..."}`. */
export function message(status: number, text: string, headers?: Record<string, string>): Reply {
  return json(status, { message: text }, headers)
}

/** Grape's validation and routing error shape: `{"error": "..."}`. */
export function error(status: number, text: string, headers?: Record<string, string>): Reply {
  return json(status, { error: text }, headers)
}

/** The web `Response` of a reply. */
export function toResponse(reply: Reply): Response {
  return new Response(reply.body, { status: reply.status, headers: reply.headers })
}
