"""python-gitlab creates and uses a fine-grained personal access token against a running patkit.

Usage: python3 python_gitlab_granular_check.py URL ROOT_TOKEN ALICE_TOKEN

Alice (a legacy `api` token) creates the fine-grained token for herself; root, an administrator,
reads the rotated one.

Prints one JSON object of what the client saw; test/e2e/python-gitlab-granular.test.ts asserts it.
python-gitlab (Debian's python3-gitlab, 3.x) has no way to send `granular_scopes` through a manager:
`gl.personal_access_tokens` has no create, and `gl.users.get(id).personal_access_tokens.create()`
requires `scopes`, which GitLab refuses together with `granular_scopes`. So the token is created with
the client's generic call, `gl.http_post`, which sends `post_data` as a JSON body; it is rotated the
same way (rotate() came in python-gitlab 4). Listing and authenticating go through the client's own
API (`personal_access_tokens.list()`, `auth()`).
"""

import json
import sys

import gitlab
from gitlab.exceptions import GitlabError

# The token's scopes: read the user and its own tokens, rotate them; nothing else.
GRANULAR_SCOPES = [
    {
        "access": "user",
        "permissions": ["read_user", "read_personal_access_token", "rotate_personal_access_token"],
    }
]


def failure(call):
    try:
        call()
    except GitlabError as error:
        body = error.response_body
        if isinstance(body, bytes):
            body = body.decode("utf-8", "replace")
        return {
            "type": type(error).__name__,
            "code": error.response_code,
            "body": json.loads(body) if body else None,
        }
    return None


def main():
    url, root_token, alice_token = sys.argv[1], sys.argv[2], sys.argv[3]
    root = gitlab.Gitlab(url, private_token=root_token, timeout=10)
    gl = gitlab.Gitlab(url, private_token=alice_token, timeout=10)
    managers_can_send = hasattr(gl.personal_access_tokens, "create")

    created = gl.http_post(
        "/user/personal_access_tokens",
        post_data={"name": "python-fine", "granular_scopes": GRANULAR_SCOPES},
    )

    fine = gitlab.Gitlab(url, private_token=created["token"], timeout=10)
    fine.auth()  # GET /user: read_user at the user boundary
    listed = [t.attributes for t in fine.personal_access_tokens.list(get_all=True)]

    refused = {
        # GET /users is read_user at the instance boundary: the token's scope is the user's only.
        "users_list": failure(lambda: fine.users.list(get_all=True)),
        # Creating a token needs create_personal_access_token, which the token does not hold.
        "create_token": failure(
            lambda: fine.http_post(
                "/user/personal_access_tokens",
                post_data={"name": "more", "granular_scopes": GRANULAR_SCOPES},
            )
        ),
    }

    rotated = fine.http_post("/personal_access_tokens/self/rotate")
    after = gitlab.Gitlab(url, private_token=rotated["token"], timeout=10)
    after.auth()
    seen_by_root = root.http_get(f"/personal_access_tokens/{rotated['id']}")

    print(
        json.dumps(
            {
                "python_gitlab": gitlab.__version__,
                "managers_can_send": managers_can_send,
                "created": {k: v for k, v in created.items() if k != "token"},
                "fine_user": {"id": fine.user.id, "username": fine.user.username},
                "listed": listed,
                "refused": refused,
                "rotated": {k: v for k, v in rotated.items() if k != "token"},
                "rotated_user": after.user.username,
                "old_token_after_rotation": failure(lambda: fine.auth()),
                "seen_by_root": seen_by_root,
            }
        )
    )


if __name__ == "__main__":
    main()
