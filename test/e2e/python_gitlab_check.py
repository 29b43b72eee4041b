"""python-gitlab against a running patkit: prints one JSON object of what the client saw.

Usage: python3 python_gitlab_check.py URL ROOT_TOKEN BOB_TOKEN

Run by test/e2e/python-gitlab.test.ts, which asserts the JSON. Uses python-gitlab as Debian ships it
(python3-gitlab); in its 3.x the PersonalAccessTokenManager has list and delete but no get, so get by
id falls back to the client's own http_get, which is what newer releases' get() requests.
"""

import json
import sys
import warnings

import gitlab
from gitlab.exceptions import GitlabError


def failure(call):
    try:
        call()
    except GitlabError as error:
        message = error.error_message
        if isinstance(message, bytes):
            message = message.decode("utf-8", "replace")
        return {"type": type(error).__name__, "code": error.response_code, "message": message}
    return None


def main():
    url, root_token, bob_token = sys.argv[1], sys.argv[2], sys.argv[3]
    gl = gitlab.Gitlab(url, private_token=root_token, timeout=10)
    bob = gitlab.Gitlab(url, private_token=bob_token, timeout=10)
    # Every URL the root client requests, to show the pages it walked through the Link headers.
    requested = []
    gl.session.hooks["response"].append(lambda response, *args, **kwargs: requested.append(response.url))

    manager = gl.personal_access_tokens
    listed = manager.list(get_all=True, per_page=2)
    list_pages = list(requested)
    # auth() reads GET /user and warns when the user's web_url does not start with the client's URL.
    with warnings.catch_warnings(record=True) as auth_warnings:
        warnings.simplefilter("always")
        gl.auth()
    auth = {
        "id": gl.user.id,
        "username": gl.user.username,
        "is_admin": gl.user.is_admin,
        "web_url": gl.user.web_url,
        "warnings": [str(w.message) for w in auth_warnings],
    }
    version = list(gl.version())
    found = [u.id for u in bob.users.list(username="alice")]
    alice_user = bob.users.get(2).attributes
    alice = manager.list(user_id=2, get_all=True, per_page=2)

    if hasattr(manager, "get"):
        get_method = "manager.get"
        got = manager.get(10).attributes
    else:
        get_method = "http_get"
        got = gl.http_get("/personal_access_tokens/10")
    me = gl.http_get("/personal_access_tokens/self")

    # Delete through an object from the list, through the manager by id, and the caller's own token.
    by_object = next(t for t in alice if t.id == 6)
    by_object.delete()
    manager.delete(9)
    bob.personal_access_tokens.delete("self")
    after = {str(i): gl.http_get(f"/personal_access_tokens/{i}")["revoked"] for i in (6, 9, 8)}
    active_after = [t.id for t in manager.list(state="active", get_all=True, per_page=100)]

    errors = {
        "wrong_token_list": failure(
            lambda: gitlab.Gitlab(url, private_token="glpat-wrong-secret-0000").personal_access_tokens.list(
                get_all=True
            )
        ),
        "revoked_token_list": failure(lambda: bob.personal_access_tokens.list(get_all=True)),
        "missing_get": failure(lambda: gl.http_get("/personal_access_tokens/999")),
        "missing_delete": failure(lambda: manager.delete(999)),
        "missing_user": failure(lambda: gl.users.get(999)),
        "bad_filter": failure(lambda: manager.list(state="sleeping", get_all=True)),
    }

    print(
        json.dumps(
            {
                "python_gitlab": gitlab.__version__,
                "auth": auth,
                "version": version,
                "users_by_username": found,
                "user_by_id": {k: alice_user[k] for k in ("id", "username", "state", "web_url")},
                "list_ids": [t.id for t in listed],
                "list_pages": list_pages,
                "alice_ids": [t.id for t in alice],
                "get_method": get_method,
                "got": got,
                "self": me,
                "revoked_after_delete": after,
                "active_after_delete": active_after,
                "errors": errors,
            }
        )
    )


if __name__ == "__main__":
    main()
