"""python-gitlab through an outage the fake's fault rules imitate: prints one JSON object of what it saw.

Usage: python3 python_gitlab_faults_check.py URL TOKEN self
       python3 python_gitlab_faults_check.py URL TOKEN rotate [IDEMPOTENCY_KEY]

Run by test/e2e/python-gitlab-faults.test.ts, which sets the rules and asserts the JSON and the
journal. python-gitlab (Debian's python3-gitlab) obeys a 429 by default, waiting Retry-After seconds
(else RateLimit-Reset minus now, else 0.1 * 2^retry), and with retry_transient_errors=True retries
500, 502, 503, 504 and a failed connection the same way. "self" reads the token; "rotate" rotates it
with retry_transient_errors=True (the key, if given, sent as Idempotency-Key on every try), then reads
the successor with its new secret.
"""

import json
import sys
import time

import gitlab
from gitlab.exceptions import GitlabError


def failure(error):
    return {"error": type(error).__name__, "code": error.response_code}


def main():
    url, token, what = sys.argv[1], sys.argv[2], sys.argv[3]
    gl = gitlab.Gitlab(url, private_token=token, timeout=10)
    # What python-gitlab waits before each retry, as it asks time.sleep (then sleeps for real): the
    # test reads the wait it chose, not the clock.
    sleeps = []
    real_sleep = time.sleep

    def recording_sleep(seconds):
        sleeps.append(seconds)
        real_sleep(seconds)

    gitlab.client.time.sleep = recording_sleep
    try:
        if what == "self":
            got = gl.http_get("/personal_access_tokens/self")
            result = {"id": got["id"]}
        else:
            if len(sys.argv) > 4:
                gl.headers["Idempotency-Key"] = sys.argv[4]
            rotated = gl.http_post("/personal_access_tokens/self/rotate", retry_transient_errors=True)
            successor = gitlab.Gitlab(url, private_token=rotated["token"], timeout=10)
            result = {"id": rotated["id"], "self_id": successor.http_get("/personal_access_tokens/self")["id"]}
    except GitlabError as error:
        result = failure(error)
    gitlab.client.time.sleep = real_sleep
    result["sleeps"] = sleeps
    print(json.dumps(result))


if __name__ == "__main__":
    main()
