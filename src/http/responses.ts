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
}

/** JSON with GitLab's content type. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }
}

/** 204 with an empty body, as GitLab's `no_content!`. */
export function noContent(): Reply {
  return { status: 204, headers: {}, body: null }
}

/** GitLab's `render_api_error!` shape: `{"message": "..."}`. */
export function message(status: number, text: string, headers: Record<string, string> = {}): Reply {
  return json(status, { message: text }, headers)
}

/** Grape's validation and routing error shape: `{"error": "..."}`. */
export function error(status: number, text: string, headers: Record<string, string> = {}): Reply {
  return json(status, { error: text }, headers)
}

/** The web `Response` of a reply. */
export function toResponse(reply: Reply): Response {
  return new Response(reply.body, { status: reply.status, headers: reply.headers })
}
