"""End-to-end tests of bot.py (python-gitlab) against `patkit serve`, driven through its control API.

One server for the session, started with a frozen clock and a random seed; before every test the
`fresh` fixture resets it (POST /__patkit/reset: data, clock, journal and faults back to the start)
and sets the clock to the start again (a no-op since a reset restores the clock; kept as a check), so
each test starts from the same state without a restart. Run by test/e2e/rotation-bot.test.ts; by hand:

    npx tsup && /usr/bin/python3 -m pytest -q test/e2e/rotation_bot
"""

import datetime as dt
import json
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from bot import RotationBot, RotationFailed
from patkit_server import start_patkit

START = "2026-01-01T00:00:00Z"
BOT_SECRET = "glpat-rotation-bot-secret-0001"
ROOT_SECRET = "glpat-rotation-root-secret-0001"
BOT_TOKEN_ID = 2
READ_ONLY_SECRET = "glpat-rotation-read-only-0001"
OLD_EXPIRY = "2026-01-20"
ROTATE_PATH = "/api/v4/personal_access_tokens/self/rotate"
SELF_PATH = "/api/v4/personal_access_tokens/self"
SEED = {
    "users": [{"id": 1, "username": "root", "admin": True}, {"id": 2, "username": "rotation-bot"}],
    "tokens": [
        {"id": 1, "user_id": 1, "name": "root", "scopes": ["api"], "token": ROOT_SECRET, "expires_at": "2027-01-01"},
        {
            "id": BOT_TOKEN_ID,
            "user_id": 2,
            "name": "rotation-bot",
            "scopes": ["api"],
            "token": BOT_SECRET,
            "created_at": "2025-12-01T00:00:00.000Z",
            "expires_at": OLD_EXPIRY,
        },
        # Can read its own token but not rotate it (rotation needs the api or self_rotate scope).
        {
            "id": 3,
            "user_id": 2,
            "name": "read-only",
            "scopes": ["read_api"],
            "token": READ_ONLY_SECRET,
            "expires_at": OLD_EXPIRY,
        },
    ],
}
NEW_TOKEN_ID = 4  # ids are deterministic after a reset: the seed has 1 to 3


@pytest.fixture(scope="session")
def patkit(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("patkit")
    seed = workdir / "seed.json"
    seed.write_text(json.dumps(SEED), encoding="utf-8")
    server = start_patkit(seed, "--clock", START, "--frozen", "--random-seed", "1", workdir=workdir)
    yield server
    # Closing stdin is a clean shutdown: exit code 0.
    assert server.stop() == 0, server.stderr()


@pytest.fixture(autouse=True)
def fresh(patkit):
    patkit.control("POST", "/reset")
    patkit.control("POST", "/clock/set", {"at": START})
    patkit.control("POST", "/clock/freeze")


@pytest.fixture
def secret_file(tmp_path):
    path = tmp_path / "bot-token"
    path.write_text(BOT_SECRET + "\n", encoding="utf-8")
    return path


@pytest.fixture
def sleeps():
    return []


@pytest.fixture
def bot(patkit, secret_file, sleeps):
    # The bot decides by the fake's clock, and records its back-off instead of sleeping.
    def today():
        return dt.date.fromisoformat(patkit.control("GET", "/clock")["now"][:10])

    return RotationBot(patkit.url, secret_file, today=today, backoff=sleeps.append)


def set_clock(patkit, at):
    return patkit.control("POST", "/clock/set", {"at": at})


def get_self(patkit, secret):
    request = urllib.request.Request(f"{patkit.url}{SELF_PATH}", headers={"PRIVATE-TOKEN": secret})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def rotate_requests(patkit):
    entries = patkit.journal(kind="request", method="POST", path="/rotate")["entries"]
    return [(e["path"], e["status"], e["tokenId"], e["fault"]) for e in entries]


def stored(secret_file):
    return secret_file.read_text(encoding="utf-8").strip()


def test_keeps_a_token_with_more_than_7_days_left(patkit, bot, secret_file):
    set_clock(patkit, "2026-01-12T23:59:59Z")  # 8 days before 2026-01-20
    outcome = bot.run()
    assert (outcome.action, outcome.token_id, outcome.expires_at, outcome.attempts) == (
        "kept",
        BOT_TOKEN_ID,
        OLD_EXPIRY,
        0,
    )
    assert stored(secret_file) == BOT_SECRET
    assert rotate_requests(patkit) == []
    assert patkit.journal(kind="request")["count"] == 1  # the one GET /self


def test_rotates_inside_the_7_day_window_and_the_old_token_is_refused(patkit, bot, secret_file):
    patkit.control("POST", "/clock/advance", {"days": 12})  # 2026-01-13: 7 days left
    # The notices GitLab mails: 30 days ahead (given at the reset, 19 days out), then 7.
    notices = patkit.journal(kind="event", type="token_expiring", token_id=BOT_TOKEN_ID)["entries"]
    assert [(e["at"], e["event"]["days"]) for e in notices] == [
        ("2026-01-01T00:00:00.000Z", 30),
        ("2026-01-13T00:00:00.000Z", 7),
    ]
    outcome = bot.run()
    new_secret = stored(secret_file)
    assert new_secret != BOT_SECRET and new_secret.startswith("glpat-")
    assert (outcome.action, outcome.previous_id, outcome.token_id, outcome.expires_at, outcome.attempts) == (
        "rotated",
        BOT_TOKEN_ID,
        NEW_TOKEN_ID,
        "2026-04-13",
        1,
    )

    status, body = get_self(patkit, new_secret)
    assert (status, body["id"], body["active"], body["expires_at"]) == (200, NEW_TOKEN_ID, True, "2026-04-13")
    assert get_self(patkit, BOT_SECRET)[0] == 401

    # The journal: exactly one rotate request, answered 200 for the bot's old token, and one rotated event.
    assert rotate_requests(patkit) == [(ROTATE_PATH, 200, BOT_TOKEN_ID, None)]
    rotated = patkit.journal(kind="event", type="rotated")
    assert rotated["count"] == 1
    event = rotated["entries"][0]["event"]
    assert (event["previous"]["id"], event["token"]["id"], event["actorUserId"]) == (BOT_TOKEN_ID, NEW_TOKEN_ID, 2)
    everything = json.dumps(patkit.journal())
    assert BOT_SECRET not in everything and new_secret not in everything

    # Past the old expiry date the new token still works and the bot has nothing to do.
    set_clock(patkit, "2026-01-21T00:00:00Z")
    assert get_self(patkit, new_secret)[0] == 200
    assert bot.run().action == "kept"
    assert len(rotate_requests(patkit)) == 1


def test_an_expired_token_is_refused_and_the_bot_says_what_to_do(patkit, bot, secret_file):
    set_clock(patkit, "2026-01-19T23:59:59.999Z")
    assert get_self(patkit, BOT_SECRET)[0] == 200
    patkit.control("POST", "/clock/advance", {"ms": 1})  # 00:00 UTC of expires_at: expired
    status, body = get_self(patkit, BOT_SECRET)
    assert (status, body["error"]) == (401, "invalid_token")
    assert "expired" in body["error_description"]

    with pytest.raises(RotationFailed, match=r"refuses the stored token .*issue a new one by hand"):
        bot.run()
    assert stored(secret_file) == BOT_SECRET
    assert rotate_requests(patkit) == []


def test_retries_a_rotation_that_failed_with_a_server_error(patkit, bot, secret_file, sleeps):
    rule = patkit.control("POST", "/faults", {"method": "POST", "path": ROTATE_PATH, "status": 500, "times": 1})
    patkit.control("POST", "/clock/advance", {"days": 14})
    outcome = bot.run()
    assert (outcome.action, outcome.attempts, outcome.token_id) == ("rotated", 2, NEW_TOKEN_ID)
    assert sleeps == [1]  # backed off once, between the attempts
    assert get_self(patkit, stored(secret_file))[0] == 200

    # The fault answered the first attempt (the authority never saw it); the second one rotated.
    assert rotate_requests(patkit) == [
        (ROTATE_PATH, 500, BOT_TOKEN_ID, rule["id"]),
        (ROTATE_PATH, 200, BOT_TOKEN_ID, None),
    ]
    assert patkit.journal(kind="event", type="rotated")["count"] == 1
    assert patkit.control("GET", "/faults") == [{**rule, "hits": 1, "remaining": 0}]


def test_gives_up_on_a_persistent_failure_and_keeps_its_token(patkit, bot, secret_file, sleeps):
    patkit.control("POST", "/faults", {"method": "POST", "path": ROTATE_PATH, "status": 503})
    patkit.control("POST", "/clock/advance", {"days": 14})
    with pytest.raises(RotationFailed, match=r"rotation failed 3 times \(last: HTTP 503: 503 Service Unavailable\)"):
        bot.run()
    assert sleeps == [1, 2]
    assert stored(secret_file) == BOT_SECRET
    assert get_self(patkit, BOT_SECRET)[0] == 200  # still the bot's working token
    assert [status for _, status, _, _ in rotate_requests(patkit)] == [503, 503, 503]
    assert patkit.journal(kind="event", type="rotated")["count"] == 0


def test_does_not_retry_when_the_rotation_may_have_happened(patkit, bot, secret_file, sleeps):
    # What the bot sees when a rotation went through but its answer was lost: the rotate request fails,
    # and then its old token is refused. Fault rules act on the next N matches in the order added: the
    # bot's first GET /self passes (a 0 ms delay), its second one, after the failed rotate, gets a 401.
    patkit.control("POST", "/faults", {"method": "GET", "path": SELF_PATH, "delayMs": 0, "times": 1})
    refused = {"error": "invalid_token", "error_description": "Token was revoked."}
    patkit.control(
        "POST", "/faults", {"method": "GET", "path": SELF_PATH, "status": 401, "body": refused, "times": 1}
    )
    patkit.control("POST", "/faults", {"method": "POST", "path": ROTATE_PATH, "status": 502, "times": 1})
    patkit.control("POST", "/clock/advance", {"days": 14})

    with pytest.raises(RotationFailed, match=r"may have happened .* not retrying"):
        bot.run()
    assert sleeps == []
    assert [status for _, status, _, _ in rotate_requests(patkit)] == [502]  # no second attempt
    # A second attempt with the old token would have been reuse: nothing of the kind was detected.
    assert patkit.journal(kind="event", type="reuse_detected")["count"] == 0
    assert stored(secret_file) == BOT_SECRET


def test_a_refusal_is_not_retried(patkit, secret_file, bot, sleeps):
    secret_file.write_text(READ_ONLY_SECRET + "\n", encoding="utf-8")
    patkit.control("POST", "/clock/advance", {"days": 14})
    with pytest.raises(RotationFailed, match=r"GitLab refused the rotation \(HTTP 403: insufficient_scope\)"):
        bot.run()
    assert (sleeps, stored(secret_file)) == ([], READ_ONLY_SECRET)
    assert [status for _, status, _, _ in rotate_requests(patkit)] == [403]


def test_reset_brings_back_the_seed_and_clears_journal_and_faults(patkit, bot, secret_file):
    patkit.control("POST", "/clock/advance", {"days": 14})
    rotated = bot.run()
    assert rotated.action == "rotated"
    new_secret = stored(secret_file)
    patkit.control("POST", "/faults", {"path": "/api/v4/*", "status": 503})

    assert patkit.control("POST", "/reset") == {"users": 2, "tokens": 3, "groups": 0, "projects": 0}
    # Only the start data's expiry notices (19 days left at the start): the 30-day one of each bot token.
    journal = patkit.journal()
    assert [(e["type"], e["event"]["token"]["id"], e["event"]["days"]) for e in journal["entries"]] == [
        ("token_expiring", BOT_TOKEN_ID, 30),
        ("token_expiring", 3, 30),
    ]
    assert patkit.control("GET", "/faults") == []
    status, body = get_self(patkit, BOT_SECRET)
    assert (status, body["id"], body["active"], body["revoked"]) == (200, BOT_TOKEN_ID, True, False)
    assert get_self(patkit, new_secret)[0] == 401  # the rotated token is gone with the data
    # A reset sets the clock back to its start (--clock, --frozen) too.
    assert patkit.control("GET", "/clock") == {"now": "2026-01-01T00:00:00.000Z", "frozen": True}


def test_the_command_line_prints_what_it_did_or_one_line_of_failure(patkit, secret_file):
    def bot_cli(today):
        return subprocess.run(
            [sys.executable, str(Path(__file__).with_name("bot.py")), patkit.url, str(secret_file), "--today", today],
            capture_output=True,
            text=True,
            timeout=60,
        )

    set_clock(patkit, "2026-01-15T08:00:00Z")
    done = bot_cli("2026-01-15")
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout) == {
        "action": "rotated",
        "token_id": NEW_TOKEN_ID,
        "expires_at": "2026-04-15",
        "attempts": 1,
        "previous_id": BOT_TOKEN_ID,
    }

    set_clock(patkit, "2026-04-15T00:00:00Z")  # the new token's expiry day
    failed = bot_cli("2026-04-15")
    assert (failed.returncode, failed.stdout) == (1, "")
    assert failed.stderr == "rotation bot: GitLab refuses the stored token (invalid_token): issue a new one by hand\n"
