/**
 * `patkit --help`.
 */
export const USAGE = `Usage: patkit <command> [options]

Commands:
  serve      Run a fake GitLab: its token APIs, a control API and a dashboard (patkit serve --help)
  help       Show this help
  version    Print the patkit version

Options:
  -h, --help     Show this help
  -v, --version  Print the patkit version
`

/**
 * `patkit serve --help`.
 */
export const SERVE_USAGE = `Usage: patkit serve [options]

Runs a fake GitLab until SIGINT or SIGTERM. Under /api/v4 it serves GitLab's token APIs: personal
access tokens (list, show, rotate, revoke, create), impersonation tokens, project and group access
tokens, service accounts and their tokens, /user, /users, /version and /metadata, as the emulated
release has them. Under /__patkit/ a control API for tests (clock, reset, state, users, groups,
projects, tokens, journal, faults; described at /__patkit/openapi.json; JSON bodies only, no requests
from web pages of other origins) and a dashboard in the browser (/__patkit/).
The first line on stdout is "patkit listening on http://HOST:PORT"; the data's lines follow (the demo
secrets, or what the seed loaded), then the dashboard's URL, a first curl and where the docs are.

Options:
  --host HOST        Interface to listen on (default 127.0.0.1)
  --port PORT        Port, 0 to 65535; 0 picks a free one (default 3000)
  --seed FILE        JSON file of users, groups, projects and tokens to load (default: demo data:
                     users root (admin) and alice, group demo with project demo/app and its bot,
                     each with a fresh api token printed after the listening line)
  --database URL     sqlite:./file.db | postgres://user:pass@host/db | mysql://user:pass@host/db
                     (default: in memory, gone at exit)
  --release X.Y      GitLab release to emulate, e.g. 16.9 (default: the newest)
  --admin-mode       GitLab's Admin Mode: administrators act as such only with an admin_mode token
  --no-require-expiry
                     Tokens need no expiry: created and rotated without expires_at, they never expire
  --public-url URL   Origin clients see, for absolute Link headers (default: the request's)
  --table-prefix P   Prefix of the SQL store's tables, with --database only (default: patkit_)
  --cache            A verification cache, invalidated across instances on the database (--database only)
  --cache-strict     --cache, and a revocation returns only once every instance refuses the token
  --pepper VALUE     Key of the stored secrets' HMAC (default: $PATKIT_PEPPER, else the fixed and
                     INSECURE development pepper; keep it stable for a persistent --database)
  --pepper-file FILE Read the pepper from FILE instead (not visible in the process list)
  --hook-secret-key KEY
                     32-byte key (64 hex digits or base64) webhook tokens are sealed under
                     (default: $PATKIT_HOOK_SECRET_KEY, else random per start: hook tokens a
                     --database kept then go out without X-Gitlab-Token)
  --shutdown-grace S Seconds a shutdown waits for requests in flight before closing every
                     connection (default 5)
  --daemon           Keep running when the parent process exits or a piped stdin closes
  --clock INSTANT    Start the clock at an ISO 8601 instant, e.g. 2026-01-01T00:00:00Z (default: now)
  --frozen           The clock stands still until moved over the control API
  --random-seed N    Deterministic secrets: the same ones on every start with the same N
  --control-token-file FILE
                     Require header X-Patkit-Control-Token with the token in FILE on the control
                     API (/__patkit/...); also --control-token T (visible in the process list) or
                     $PATKIT_CONTROL_TOKEN. Required with a --host other machines reach or --database
  --no-control       Serve no control API (/__patkit/... is then GitLab's 404)
  --control-body-limit SIZE
                     Largest body of PUT /__patkit/state and POST /__patkit/users, in bytes or with
                     KiB or MiB, 64KiB to 1024MiB (default 16MiB); other control routes take 64 KiB
  --allow-host HOST  The control API also answers for this Host name (any port; repeatable; * for
                     any, with a control token only). It always does for localhost, 127.0.0.1,
                     [::1], --host and --public-url's host
  --allow-webhook-network
                     Deliver webhooks (token expiry notices, hook tests) to any address; by default
                     only to loopback receivers (127.0.0.0/8, ::1, localhost)
  --allow-webhook-host HOST
                     Deliver webhooks to this host too (name or address; repeatable)
  -h, --help         Show this help

Exit codes: 0 after a clean shutdown, 1 when it cannot start (bad seed, database, port in use),
2 for a bad command line.
`
