// The control API's own answers: JSON, and `{"error": "..."}` for a refusal.

const jsonHeaders = { 'content-type': 'application/json' }

/** A JSON answer (no body for a 204). */
export function reply(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { ...jsonHeaders, ...headers },
  })
}

/** A refusal: `{"error": message}`. */
export function problem(status: number, message: string): Response {
  return reply(status, { error: message })
}
