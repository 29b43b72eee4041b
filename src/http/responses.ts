/** JSON with GitLab's content type. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })
}

/** 204 with an empty body, as GitLab's `no_content!`. */
export function noContent(): Response {
  return new Response(null, { status: 204 })
}

/** GitLab's `render_api_error!` shape: `{"message": "..."}`. */
export function message(status: number, text: string, headers: Record<string, string> = {}): Response {
  return json(status, { message: text }, headers)
}

/** Grape's validation and routing error shape: `{"error": "..."}`. */
export function error(status: number, text: string, headers: Record<string, string> = {}): Response {
  return json(status, { error: text }, headers)
}
