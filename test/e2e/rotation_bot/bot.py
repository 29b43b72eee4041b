"""A small token-rotation bot: the kind of code patkit's fake GitLab is for.

It reads its personal access token from a file, asks GitLab about that token
(GET /personal_access_tokens/self), and when the token expires within 7 days it rotates it
(POST /personal_access_tokens/self/rotate) and stores the new secret in the file before doing
anything else.

A failed rotation is retried only while the old token is still active: then GitLab did not rotate,
and trying again is safe. When the old token is refused after a failed attempt, the rotation may have
happened with its answer lost; presenting the old token again would be reuse, which GitLab answers by
revoking the whole token family, so the bot stops and says so instead.

Usage: python3 bot.py GITLAB_URL SECRET_FILE [--today YYYY-MM-DD]
Prints one JSON line of what it did and exits 0, or prints one line to stderr and exits 1.

Works with python-gitlab 3.x as Debian ships it (no get or rotate on PersonalAccessTokenManager:
the client's http_get/http_post on the same paths) and with releases that have them (4.x:
manager.get('self'), manager.rotate('self', expires_at=...)), which request the same paths; only the
first path runs in this repository's tests.
"""

import argparse
import datetime as dt
import json
import os
import sys
import tempfile
import time
from dataclasses import asdict, dataclass

import gitlab
import requests
from gitlab.exceptions import GitlabAuthenticationError, GitlabError

ROTATE_WITHIN_DAYS = 7
NEW_LIFETIME_DAYS = 90
ATTEMPTS = 3


class RotationFailed(Exception):
    """The bot could not keep its token alive; the message says what a person has to do."""


@dataclass(frozen=True)
class Outcome:
    action: str  # "kept" or "rotated"
    token_id: int
    expires_at: str | None
    attempts: int  # rotate requests sent
    previous_id: int | None = None


class SecretFile:
    """The bot's only copy of its secret. Replaced atomically, so a crash never leaves half a secret."""

    def __init__(self, path):
        self.path = os.fspath(path)

    def read(self):
        with open(self.path, encoding="utf-8") as f:
            return f.read().strip()

    def write(self, secret):
        directory = os.path.dirname(os.path.abspath(self.path))
        fd, temporary = tempfile.mkstemp(dir=directory, prefix=".secret-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(secret + "\n")
                f.flush()
                os.fsync(f.fileno())
            os.replace(temporary, self.path)
        except BaseException:
            os.unlink(temporary)
            raise


def _utc_today():
    return dt.datetime.now(dt.timezone.utc).date()


def _exponential_backoff(attempt):
    time.sleep(0.5 * 2**attempt)


def _message(error):
    message = error.error_message
    return message.decode("utf-8", "replace") if isinstance(message, bytes) else str(message)


class RotationBot:
    def __init__(self, url, secret_file, today=_utc_today, backoff=_exponential_backoff, attempts=ATTEMPTS):
        """`today` and `backoff` are injected so a test can follow the fake GitLab's clock and not sleep."""
        self.url = url
        self.secrets = SecretFile(secret_file)
        self.today = today
        self.backoff = backoff
        self.attempts = attempts

    def _client(self, secret):
        # No retries inside python-gitlab: a blind retry of a rotation can present a revoked token.
        return gitlab.Gitlab(self.url, private_token=secret, timeout=10, retry_transient_errors=False)

    @staticmethod
    def _self(gl):
        manager = gl.personal_access_tokens
        if hasattr(manager, "get"):
            return manager.get("self").attributes
        return gl.http_get("/personal_access_tokens/self")

    @staticmethod
    def _rotate(gl, expires_at):
        manager = gl.personal_access_tokens
        if hasattr(manager, "rotate"):
            return manager.rotate("self", expires_at=expires_at)
        return gl.http_post("/personal_access_tokens/self/rotate", post_data={"expires_at": expires_at})

    def run(self):
        secret = self.secrets.read()
        gl = self._client(secret)
        try:
            token = self._self(gl)
        except GitlabAuthenticationError as error:
            raise RotationFailed(
                f"GitLab refuses the stored token ({_message(error)}): issue a new one by hand"
            ) from None
        today = self.today()
        expires_at = token.get("expires_at")
        if expires_at is None or dt.date.fromisoformat(expires_at) - today > dt.timedelta(days=ROTATE_WITHIN_DAYS):
            return Outcome("kept", token["id"], expires_at, attempts=0)

        new_expiry = (today + dt.timedelta(days=NEW_LIFETIME_DAYS)).isoformat()
        last_failure = None
        for attempt in range(1, self.attempts + 1):
            try:
                rotated = self._rotate(gl, new_expiry)
            except (GitlabError, requests.RequestException) as error:
                code = getattr(error, "response_code", None)
                last_failure = f"HTTP {code}: {_message(error)}" if code is not None else type(error).__name__
                if code is not None and code < 500:
                    raise RotationFailed(f"GitLab refused the rotation ({last_failure})") from None
                self._ensure_not_rotated(gl, token["id"], last_failure)
                if attempt < self.attempts:
                    self.backoff(attempt)
                continue
            # Stored first: from this moment the old secret is revoked and this is the only valid one.
            self.secrets.write(rotated["token"])
            return Outcome("rotated", rotated["id"], rotated["expires_at"], attempts=attempt, previous_id=token["id"])
        raise RotationFailed(
            f"rotation failed {self.attempts} times (last: {last_failure}); "
            f"token {token['id']} is unchanged and expires on {expires_at}"
        )

    def _ensure_not_rotated(self, gl, token_id, failure):
        """After a failed rotate: go on only if the old token is provably still active."""
        try:
            still = self._self(gl)
        except (GitlabError, requests.RequestException):
            still = None
        if still is None or still.get("id") != token_id or not still.get("active"):
            raise RotationFailed(
                f"the rotation failed ({failure}) and token {token_id} is no longer usable: the rotation "
                "may have happened with its answer lost; not retrying, since presenting the old token "
                "again would revoke the whole family"
            )


def main(argv=None):
    parser = argparse.ArgumentParser(description="Rotate a GitLab personal access token before it expires.")
    parser.add_argument("url")
    parser.add_argument("secret_file")
    parser.add_argument("--today", type=dt.date.fromisoformat, help="the date to decide by (default: today, UTC)")
    args = parser.parse_args(argv)
    today = (lambda: args.today) if args.today is not None else _utc_today
    try:
        outcome = RotationBot(args.url, args.secret_file, today=today).run()
    except RotationFailed as failure:
        print(f"rotation bot: {failure}", file=sys.stderr)
        return 1
    print(json.dumps(asdict(outcome)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
