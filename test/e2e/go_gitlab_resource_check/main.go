// Drives go-gitlab (Debian's golang-github-xanzy-go-gitlab-dev 0.73, built in GOPATH mode) on
// GitLab's project and group access tokens against the fake of
// test/e2e/go-gitlab-resource-tokens.test.ts and prints what it saw as one JSON object.
//
// Usage: go_gitlab_resource_check URL ALICE BOB CAROL PROJECT_BOT GROUP_BOT
//
// The client's ProjectAccessTokens and GroupAccessTokens services list, get, create and revoke.
// Debian's version has no rotation: it goes through the client's own NewRequest/Do, which add its
// authentication header, decode into its token types and return its *ErrorResponse.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"time"

	gitlab "github.com/xanzy/go-gitlab"
)

type errorOutcome struct {
	Type    string `json:"type"`
	Status  int    `json:"status"`
	Message string `json:"message"`
}

// outcome is the client's error for a call, or nil when it succeeded.
func outcome(err error) *errorOutcome {
	if err == nil {
		return nil
	}
	var e *gitlab.ErrorResponse
	if errors.As(err, &e) {
		return &errorOutcome{Type: "*gitlab.ErrorResponse", Status: e.Response.StatusCode, Message: e.Message}
	}
	return &errorOutcome{Type: fmt.Sprintf("%T", err), Message: err.Error()}
}

func must(err error, what string) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", what, err)
		os.Exit(1)
	}
}

func client(url, secret string) *gitlab.Client {
	c, err := gitlab.NewClient(secret, gitlab.WithBaseURL(url+"/api/v4"))
	must(err, "client")
	return c
}

// token is what both kinds share; the two client types have the same fields.
type token struct {
	ID          int
	UserID      int
	Name        string
	Scopes      []string
	CreatedAt   *time.Time
	ExpiresAt   *gitlab.ISOTime
	Active      bool
	Revoked     bool
	Token       string
	AccessLevel gitlab.AccessLevelValue
}

func fromProject(t *gitlab.ProjectAccessToken) token {
	return token{t.ID, t.UserID, t.Name, t.Scopes, t.CreatedAt, t.ExpiresAt, t.Active, t.Revoked, t.Token, t.AccessLevel}
}

func fromGroup(t *gitlab.GroupAccessToken) token {
	return token{t.ID, t.UserID, t.Name, t.Scopes, t.CreatedAt, t.ExpiresAt, t.Active, t.Revoked, t.Token, t.AccessLevel}
}

// fields is a token as the report shows it; the secret only as whether it came back.
func fields(t token) map[string]interface{} {
	expires := ""
	if t.ExpiresAt != nil {
		expires = t.ExpiresAt.String()
	}
	created := ""
	if t.CreatedAt != nil {
		created = t.CreatedAt.UTC().Format(time.RFC3339)
	}
	return map[string]interface{}{
		"id": t.ID, "user_id": t.UserID, "name": t.Name, "scopes": t.Scopes, "created_at": created,
		"expires_at": expires, "active": t.Active, "revoked": t.Revoked, "has_token": t.Token != "",
		"access_level": int(t.AccessLevel),
	}
}

// kind hides which of the two services a call goes to.
type kind struct {
	name   string
	list   func(c *gitlab.Client, id interface{}) ([]token, error)
	get    func(c *gitlab.Client, id interface{}, tokenID int) (token, error)
	create func(c *gitlab.Client, id interface{}, opt createOptions) (token, error)
	revoke func(c *gitlab.Client, id interface{}, tokenID int) error
}

type createOptions struct {
	name    string
	scopes  []string
	level   gitlab.AccessLevelValue
	expires gitlab.ISOTime
}

var project = kind{
	name: "projects",
	list: func(c *gitlab.Client, id interface{}) ([]token, error) {
		ts, _, err := c.ProjectAccessTokens.ListProjectAccessTokens(id, &gitlab.ListProjectAccessTokensOptions{})
		out := []token{}
		for _, t := range ts {
			out = append(out, fromProject(t))
		}
		return out, err
	},
	get: func(c *gitlab.Client, id interface{}, tokenID int) (token, error) {
		t, _, err := c.ProjectAccessTokens.GetProjectAccessToken(id, tokenID)
		if err != nil {
			return token{}, err
		}
		return fromProject(t), nil
	},
	create: func(c *gitlab.Client, id interface{}, o createOptions) (token, error) {
		t, _, err := c.ProjectAccessTokens.CreateProjectAccessToken(id, &gitlab.CreateProjectAccessTokenOptions{
			Name: &o.name, Scopes: &o.scopes, AccessLevel: &o.level, ExpiresAt: &o.expires,
		})
		if err != nil {
			return token{}, err
		}
		return fromProject(t), nil
	},
	revoke: func(c *gitlab.Client, id interface{}, tokenID int) error {
		_, err := c.ProjectAccessTokens.RevokeProjectAccessToken(id, tokenID)
		return err
	},
}

var group = kind{
	name: "groups",
	list: func(c *gitlab.Client, id interface{}) ([]token, error) {
		ts, _, err := c.GroupAccessTokens.ListGroupAccessTokens(id, &gitlab.ListGroupAccessTokensOptions{})
		out := []token{}
		for _, t := range ts {
			out = append(out, fromGroup(t))
		}
		return out, err
	},
	get: func(c *gitlab.Client, id interface{}, tokenID int) (token, error) {
		t, _, err := c.GroupAccessTokens.GetGroupAccessToken(id, tokenID)
		if err != nil {
			return token{}, err
		}
		return fromGroup(t), nil
	},
	create: func(c *gitlab.Client, id interface{}, o createOptions) (token, error) {
		t, _, err := c.GroupAccessTokens.CreateGroupAccessToken(id, &gitlab.CreateGroupAccessTokenOptions{
			Name: &o.name, Scopes: &o.scopes, AccessLevel: &o.level, ExpiresAt: &o.expires,
		})
		if err != nil {
			return token{}, err
		}
		return fromGroup(t), nil
	},
	revoke: func(c *gitlab.Client, id interface{}, tokenID int) error {
		_, err := c.GroupAccessTokens.RevokeGroupAccessToken(id, tokenID)
		return err
	},
}

type rotateOptions struct {
	ExpiresAt *string `json:"expires_at,omitempty"`
}

// rotate is POST .../access_tokens/:ref/rotate, which Debian's go-gitlab has no method for, through
// the client's generic NewRequest/Do (as its own methods do), decoded into its project token type
// (the group one has the same fields).
func rotate(c *gitlab.Client, k kind, id interface{}, ref string, opt *rotateOptions) (token, error) {
	path := fmt.Sprintf("%s/%s/access_tokens/%s/rotate", k.name, gitlab.PathEscape(fmt.Sprint(id)), ref)
	req, err := c.NewRequest(http.MethodPost, path, opt, nil)
	if err != nil {
		return token{}, err
	}
	t := new(gitlab.ProjectAccessToken)
	if _, err := c.Do(req, t); err != nil {
		return token{}, err
	}
	return fromProject(t), nil
}

func ids(ts []token) []int {
	out := []int{}
	for _, t := range ts {
		out = append(out, t.ID)
	}
	return out
}

// whoami is the user a secret authenticates as.
func whoami(url, secret string) map[string]interface{} {
	u, _, err := client(url, secret).Users.CurrentUser()
	if err != nil {
		return map[string]interface{}{"error": outcome(err)}
	}
	return map[string]interface{}{"id": u.ID, "username": u.Username, "bot": u.Bot}
}

func run(url string, k kind, id int, fullPath string, alice, outsider, botSecret *gitlab.Client) map[string]interface{} {
	seen := map[string]interface{}{}
	byID, err := k.list(alice, id)
	must(err, k.name+" list by id")
	byPath, err := k.list(alice, fullPath)
	must(err, k.name+" list by path")
	listed := []map[string]interface{}{}
	for _, t := range byID {
		listed = append(listed, fields(t))
	}
	seen["listed"] = listed
	seen["by_path_ids"] = ids(byPath)

	created, err := k.create(alice, id, createOptions{
		name: "ci", scopes: []string{"read_api"}, level: gitlab.DeveloperPermissions,
		expires: gitlab.ISOTime(time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)),
	})
	must(err, k.name+" create")
	seen["created"] = fields(created)
	seen["created_secret_user"] = whoami(url, created.Token)
	got, err := k.get(alice, fullPath, created.ID)
	must(err, k.name+" get")
	seen["got"] = fields(got)

	rotated, err := rotate(alice, k, id, fmt.Sprint(created.ID), nil)
	must(err, k.name+" rotate")
	seen["rotated"] = fields(rotated)
	seen["rotated_secret_user"] = whoami(url, rotated.Token)
	seen["old_secret_after_rotate"] = whoami(url, created.Token)
	expires := "2026-03-01"
	selfRotated, err := rotate(botSecret, k, fullPath, "self", &rotateOptions{ExpiresAt: &expires})
	must(err, k.name+" self rotate")
	seen["self_rotated"] = fields(selfRotated)

	must(k.revoke(alice, id, rotated.ID), k.name+" revoke")
	after, err := k.list(alice, id)
	must(err, k.name+" list after revoke")
	states := [][]interface{}{}
	for _, t := range after {
		states = append(states, []interface{}{t.ID, t.Active, t.Revoked})
	}
	seen["after"] = states
	seen["revoked_secret_user"] = whoami(url, rotated.Token)

	_, errUnknownToken := k.get(alice, id, 9999)
	_, errUnknownResource := k.list(alice, 9999)
	_, errUnknownPath := k.list(alice, fullPath+"-nope")
	_, errOutsiderList := k.list(outsider, id)
	_, errOutsiderCreate := k.create(outsider, id, createOptions{
		name: "nope", scopes: []string{"api"}, level: gitlab.DeveloperPermissions,
		expires: gitlab.ISOTime(time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)),
	})
	errRevokeAgain := k.revoke(alice, id, 9999)
	seen["errors"] = map[string]interface{}{
		"unknown_token":    outcome(errUnknownToken),
		"unknown_resource": outcome(errUnknownResource),
		"unknown_path":     outcome(errUnknownPath),
		"outsider_list":    outcome(errOutsiderList),
		"outsider_create":  outcome(errOutsiderCreate),
		"revoke_unknown":   outcome(errRevokeAgain),
	}
	return seen
}

func main() {
	url := os.Args[1]
	alice, bob, carol := client(url, os.Args[2]), client(url, os.Args[3]), client(url, os.Args[4])
	report := map[string]interface{}{
		"project": run(url, project, 1, "acme/api", alice, bob, client(url, os.Args[5])),
		"group":   run(url, group, 1, "acme", alice, carol, client(url, os.Args[6])),
	}
	out, err := json.Marshal(report)
	must(err, "json")
	fmt.Println(string(out))
}
