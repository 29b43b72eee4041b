"""Drives python-gitlab's project and group access tokens (Debian's python3-gitlab) against the fake
GitLab of test/e2e/python-gitlab-resource-tokens.test.ts and prints what it saw as one JSON object.

Usage: python3 python_gitlab_resource_check.py URL ALICE BOB CAROL PROJECT_BOT GROUP_BOT

`gl.projects.get(1)` and `gl.groups.get(1)` are not lazy: they read the project or group first.
python-gitlab 3.12's ProjectAccessTokenManager and GroupAccessTokenManager have list, create and
delete only: get and rotate (by id and self) go through the client's own http_get/http_post, which
add its authentication header and raise its error classes.
"""

import json
import sys

import gitlab

url, alice, bob, carol, project_bot, group_bot = sys.argv[1:7]


def client(token):
    return gitlab.Gitlab(url, private_token=token)


def error(call):
    try:
        call()
    except gitlab.exceptions.GitlabError as e:
        return {"type": type(e).__name__, "code": e.response_code, "message": str(e.error_message)}
    return None


def fields(token):
    keys = ["id", "name", "scopes", "user_id", "active", "revoked", "expires_at", "access_level",
            "resource_type", "resource_id"]
    data = token if isinstance(token, dict) else token.attributes
    return {k: data.get(k) for k in keys}


report = {"python_gitlab": gitlab.__version__}
for kind, bot_secret, outsider in (("project", project_bot, bob), ("group", group_bot, carol)):
    gl = client(alice)
    # Not lazy: python-gitlab reads GET /projects/1 (or /groups/1) first, as its docs show.
    resource = (gl.projects if kind == "project" else gl.groups).get(1)
    seen = {}
    seen["resource"] = {k: resource.attributes.get(k) for k in ("id", "name", "web_url", "visibility")}
    seen["listed"] = [fields(t) for t in resource.access_tokens.list()]
    created = resource.access_tokens.create(
        {"name": "ci", "scopes": ["read_api"], "expires_at": "2026-02-01", "access_level": 30}
    )
    seen["created"] = fields(created)
    seen["created_has_token"] = created.token.startswith("glpat-")
    seen["got"] = fields(gl.http_get(f"/{kind}s/1/access_tokens/{created.id}"))
    rotated = gl.http_post(f"/{kind}s/1/access_tokens/{created.id}/rotate")
    seen["rotated"] = fields(rotated)
    first = seen["listed"][0]["id"]
    self_rotated = client(bot_secret).http_post(
        f"/{kind}s/1/access_tokens/self/rotate", post_data={"expires_at": "2026-03-01"}
    )
    seen["self_rotated"] = fields(self_rotated)
    resource.access_tokens.delete(rotated["id"])
    seen["after"] = [[t.id, t.revoked] for t in resource.access_tokens.list()]
    seen["first"] = first
    seen["errors"] = {
        "outsider_list": error(lambda: (client(outsider).projects if kind == "project" else client(outsider).groups)
                               .get(1).access_tokens.list()),
        "unknown_delete": error(lambda: resource.access_tokens.delete(9999)),
        "human_self_rotate": error(lambda: gl.http_post(f"/{kind}s/1/access_tokens/self/rotate")),
    }
    report[kind] = seen

print(json.dumps(report))
