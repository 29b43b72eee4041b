import { SEED } from './support/seed.js'

/**
 * The curl session the README shows, with what each command prints. test/e2e/curl.test.ts runs these
 * exact commands against `patkit serve --seed` of {@link README_SEED} (on a free port, which it puts
 * in place of {@link README_ORIGIN}'s) and checks the output, so the README can be pasted from here.
 */

/** How the README starts the server; the seed file is {@link README_SEED} as JSON. */
export const README_SERVE_COMMAND = 'npx patkit serve --port 3000 --seed seed.json'

/** The users and tokens of the README's seed.json: root (admin), alice and bob, known secrets. */
export const README_SEED = SEED

/** The origin the commands name; tests replace its host:port with the served one. */
export const README_ORIGIN = 'http://127.0.0.1:3000'

export interface ReadmeCommand {
  /** A line saying what the command shows. */
  readonly title: string
  /** The shell command, exactly as the README prints it. */
  readonly command: string
  /** What it prints, as the README shows it (`curl -i`'s CRLF line ends shown as LF). */
  readonly output: string
  /**
   * Values that differ on every run (today's dates, a fresh secret, the Date header): each match, in
   * the expected and the actual output alike, is compared as a placeholder.
   */
  readonly varying?: readonly RegExp[]
}

const TIMESTAMP = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g

/** Run in this order: the later ones change what the earlier ones would show. */
export const README_COMMANDS: readonly ReadmeCommand[] = [
  {
    title: 'Who am I? The token that authenticates the request',
    command:
      'curl -s -H "PRIVATE-TOKEN: glpat-bob-e2e-secret-0008" http://127.0.0.1:3000/api/v4/personal_access_tokens/self',
    output:
      '{"id":8,"name":"bob-ci","active":true,"revoked":false,"expired":false,"granular":false,"created_at":"2025-01-08T00:00:00.000Z","description":null,"scopes":["api"],"user_id":3,"last_used_at":"2026-03-10T12:00:00.000Z","expires_at":"2099-12-31","last_used_ips":["127.0.0.1"]}',
    // This very request is a use of the token, from 127.0.0.1.
    varying: [/(?<="last_used_at":")[^"]+/g],
  },
  {
    title: 'Verify a token as python-gitlab (`auth()`), glab and secret scanners do: GET /user',
    command: 'curl -s -H "PRIVATE-TOKEN: glpat-bob-e2e-secret-0008" http://127.0.0.1:3000/api/v4/user',
    output:
      '{"id":3,"username":"bob","public_email":null,"name":"bob","state":"active","locked":false,"avatar_url":null,"web_url":"http://127.0.0.1:3000/bob","created_at":null,"bio":"","location":"","linkedin":"","twitter":"","discord":"","website_url":"","github":"","job_title":"","pronouns":null,"organization":"","bot":false,"work_information":null,"followers":0,"following":0,"is_followed":false,"local_time":null,"last_sign_in_at":null,"confirmed_at":null,"last_activity_on":null,"email":null,"theme_id":null,"color_scheme_id":null,"projects_limit":null,"current_sign_in_at":null,"identities":[],"can_create_group":null,"can_create_project":null,"two_factor_enabled":false,"external":false,"private_profile":false,"commit_email":null,"preferred_language":null}',
  },
  {
    title: "An admin lists alice's tokens, two per page: X-Total and Link tell the rest",
    command:
      'curl -s -i -H "PRIVATE-TOKEN: glpat-root-e2e-secret-0001" "http://127.0.0.1:3000/api/v4/personal_access_tokens?user_id=2&per_page=2"',
    output: [
      'HTTP/1.1 200 OK',
      'content-type: application/json',
      'link: <http://127.0.0.1:3000/api/v4/personal_access_tokens?page=2&per_page=2&user_id=2>; rel="next", <http://127.0.0.1:3000/api/v4/personal_access_tokens?page=1&per_page=2&user_id=2>; rel="first", <http://127.0.0.1:3000/api/v4/personal_access_tokens?page=3&per_page=2&user_id=2>; rel="last"',
      'x-next-page: 2',
      'x-page: 1',
      'x-per-page: 2',
      'x-prev-page: ',
      'x-total: 6',
      'x-total-pages: 3',
      'content-length: 540',
      'Date: Tue, 10 Mar 2026 12:00:00 GMT',
      'Connection: keep-alive',
      'Keep-Alive: timeout=5',
      '',
      '[{"id":2,"name":"alice-laptop","active":true,"revoked":false,"expired":false,"granular":false,"created_at":"2025-01-02T00:00:00.000Z","description":null,"scopes":["api"],"user_id":2,"last_used_at":"2025-02-01T10:00:00.000Z","expires_at":"2099-12-31","last_used_ips":[]},{"id":3,"name":"alice-ci","active":true,"revoked":false,"expired":false,"granular":false,"created_at":"2025-01-03T00:00:00.000Z","description":null,"scopes":["read_api"],"user_id":2,"last_used_at":"2025-03-01T00:00:00.000Z","expires_at":"2099-12-31","last_used_ips":[]}]',
    ].join('\n'),
    varying: [/(?<=^Date: ).*$/gm],
  },
  {
    title: "Rotate bob's token 9: it is revoked, and its successor comes back with the new secret",
    command:
      'curl -s -X POST -H "PRIVATE-TOKEN: glpat-root-e2e-secret-0001" http://127.0.0.1:3000/api/v4/personal_access_tokens/9/rotate',
    output:
      '{"id":11,"name":"bob-cron","active":true,"revoked":false,"expired":false,"granular":false,"created_at":"2026-03-10T12:00:00.000Z","description":null,"scopes":["api"],"user_id":3,"last_used_at":null,"expires_at":"2026-03-17","token":"glpat-6TqYy3zdLbVGuJ2nRqpSLxEtE1W"}',
    // Created now, expiring a week from today, with a fresh random secret.
    varying: [TIMESTAMP, /(?<="expires_at":")\d{4}-\d{2}-\d{2}/g, /(?<="token":")glpat-[A-Za-z0-9_.-]+/g],
  },
  {
    title: 'Revoke token 6: 204 No Content',
    command:
      'curl -s -X DELETE -H "PRIVATE-TOKEN: glpat-root-e2e-secret-0001" -w \'%{http_code}\' http://127.0.0.1:3000/api/v4/personal_access_tokens/6',
    output: '204',
  },
  {
    title: "A secret patkit doesn't know gets GitLab's 401",
    command:
      'curl -s -H "PRIVATE-TOKEN: glpat-not-a-real-secret" http://127.0.0.1:3000/api/v4/personal_access_tokens/self',
    output: '{"message":"401 Unauthorized"}',
  },
]
