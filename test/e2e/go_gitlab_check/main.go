// Drives go-gitlab (Debian's golang-github-xanzy-go-gitlab-dev, built in GOPATH mode) against a
// running `patkit serve` and prints what it saw as one JSON object; test/e2e/go-gitlab.test.ts
// asserts it.
//
// Usage: go run main.go URL ROOT_SECRET ALICE_SECRET ALICE_READ_API_SECRET BOB_SECRET
//
// Debian's go-gitlab is old: its PersonalAccessTokensService lists (with user_id) and revokes only.
// Get and rotate go through the client's own NewRequest/Do, which add its authentication header,
// decode into its PersonalAccessToken type and return its *ErrorResponse.
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

// listOptions adds the list filters Debian's go-gitlab lacks to its own options type; the client's
// query encoder (go-querystring) encodes both.
type listOptions struct {
	gitlab.ListPersonalAccessTokensOptions
	State  *string `url:"state,omitempty"`
	Search *string `url:"search,omitempty"`
}

func listAll(c *gitlab.Client, opt *listOptions) ([][]int, error) {
	var pages [][]int
	for {
		req, err := c.NewRequest(http.MethodGet, "personal_access_tokens", opt, nil)
		if err != nil {
			return nil, err
		}
		var tokens []*gitlab.PersonalAccessToken
		resp, err := c.Do(req, &tokens)
		if err != nil {
			return nil, err
		}
		ids := []int{}
		for _, t := range tokens {
			ids = append(ids, t.ID)
		}
		pages = append(pages, ids)
		if resp.NextPage == 0 {
			return pages, nil
		}
		opt.Page = resp.NextPage
	}
}

func getToken(c *gitlab.Client, ref string) (*gitlab.PersonalAccessToken, error) {
	req, err := c.NewRequest(http.MethodGet, "personal_access_tokens/"+ref, nil, nil)
	if err != nil {
		return nil, err
	}
	t := new(gitlab.PersonalAccessToken)
	_, err = c.Do(req, t)
	return t, err
}

type rotateOptions struct {
	ExpiresAt *string `json:"expires_at,omitempty"`
}

func rotate(c *gitlab.Client, ref string, opt *rotateOptions) (*gitlab.PersonalAccessToken, error) {
	req, err := c.NewRequest(http.MethodPost, "personal_access_tokens/"+ref+"/rotate", opt, nil)
	if err != nil {
		return nil, err
	}
	t := new(gitlab.PersonalAccessToken)
	_, err = c.Do(req, t)
	return t, err
}

func day(t *gitlab.ISOTime) string {
	if t == nil {
		return ""
	}
	return t.String()
}

func main() {
	url, rootSecret, aliceSecret, readAPISecret, bobSecret := os.Args[1], os.Args[2], os.Args[3], os.Args[4], os.Args[5]
	root, alice, bob := client(url, rootSecret), client(url, aliceSecret), client(url, bobSecret)
	report := map[string]interface{}{}

	me, _, err := root.Users.CurrentUser()
	must(err, "current user")
	report["user"] = map[string]interface{}{"id": me.ID, "username": me.Username, "is_admin": me.IsAdmin}

	// The client's typed list with its pagination (ListOptions and Response.NextPage).
	var typedIDs []int
	opt := &gitlab.ListPersonalAccessTokensOptions{ListOptions: gitlab.ListOptions{PerPage: 4}}
	pagesSeen := 0
	for {
		tokens, resp, err := root.PersonalAccessTokens.ListPersonalAccessTokens(opt)
		must(err, "list")
		pagesSeen++
		for _, t := range tokens {
			typedIDs = append(typedIDs, t.ID)
		}
		if resp.NextPage == 0 {
			break
		}
		opt.Page = resp.NextPage
	}
	report["typed_ids"] = typedIDs
	report["typed_pages"] = pagesSeen
	userID := 2
	bobsOpt := &gitlab.ListPersonalAccessTokensOptions{UserID: &userID}
	alices, _, err := root.PersonalAccessTokens.ListPersonalAccessTokens(bobsOpt)
	must(err, "list user_id")
	var aliceIDs []int
	for _, t := range alices {
		aliceIDs = append(aliceIDs, t.ID)
	}
	report["user_ids"] = aliceIDs
	active := "active"
	filtered, err := listAll(root, &listOptions{
		ListPersonalAccessTokensOptions: gitlab.ListPersonalAccessTokensOptions{
			ListOptions: gitlab.ListOptions{PerPage: 2},
			UserID:      &userID,
		},
		State: &active,
	})
	must(err, "filtered list")
	report["filtered_pages"] = filtered

	got, err := getToken(root, "10")
	must(err, "get")
	report["got"] = map[string]interface{}{
		"id": got.ID, "name": got.Name, "user_id": got.UserID, "active": got.Active, "scopes": got.Scopes,
		"expires_at": day(got.ExpiresAt), "created_at": got.CreatedAt.UTC().Format(time.RFC3339),
	}
	self, err := getToken(alice, "self")
	must(err, "get self")
	report["self"] = map[string]interface{}{"id": self.ID, "name": self.Name}

	expires := time.Now().UTC().AddDate(0, 0, 30).Format("2006-01-02")
	rotated, err := rotate(alice, "6", &rotateOptions{ExpiresAt: &expires})
	must(err, "rotate")
	report["rotated"] = map[string]interface{}{
		"id": rotated.ID, "name": rotated.Name, "active": rotated.Active, "expires_at": day(rotated.ExpiresAt),
		"expected_expiry": expires, "has_token": rotated.Token != "",
	}
	successor := client(url, rotated.Token)
	selfRotated, err := rotate(successor, "self", nil)
	must(err, "self rotate")
	report["self_rotated"] = map[string]interface{}{"id": selfRotated.ID, "name": selfRotated.Name}
	old, err := getToken(root, "6")
	must(err, "get old")
	report["old_after_rotate"] = old.Revoked

	_, err = root.PersonalAccessTokens.RevokePersonalAccessToken(9)
	must(err, "revoke")
	revoked, err := getToken(root, "9")
	must(err, "get revoked")
	report["revoked_9"] = revoked.Revoked

	// Impersonation tokens, which this go-gitlab supports in its UsersService.
	name := "support"
	scopes := []string{"api"}
	created, _, err := root.Users.CreateImpersonationToken(2, &gitlab.CreateImpersonationTokenOptions{
		Name: &name, Scopes: &scopes,
	})
	must(err, "create impersonation token")
	impersonating := client(url, created.Token)
	asAlice, _, err := impersonating.Users.CurrentUser()
	must(err, "current user through the impersonation token")
	all := "all"
	listed, _, err := root.Users.GetAllImpersonationTokens(2, &gitlab.GetAllImpersonationTokensOptions{State: &all})
	must(err, "list impersonation tokens")
	var listedIDs []int
	for _, t := range listed {
		listedIDs = append(listedIDs, t.ID)
	}
	_, err = root.Users.RevokeImpersonationToken(2, created.ID)
	must(err, "revoke impersonation token")
	afterRevoke, _, err := root.Users.GetImpersonationToken(2, created.ID)
	must(err, "get impersonation token")
	inactive := "inactive"
	inactiveList, _, err := root.Users.GetAllImpersonationTokens(2, &gitlab.GetAllImpersonationTokensOptions{State: &inactive})
	must(err, "list inactive impersonation tokens")
	var inactiveIDs []int
	for _, t := range inactiveList {
		inactiveIDs = append(inactiveIDs, t.ID)
	}
	// The personal access token list of alice herself leaves impersonation tokens out.
	ownList, _, err := alice.PersonalAccessTokens.ListPersonalAccessTokens(&gitlab.ListPersonalAccessTokensOptions{})
	must(err, "alice's own list")
	var ownIDs []int
	for _, t := range ownList {
		ownIDs = append(ownIDs, t.ID)
	}
	report["impersonation"] = map[string]interface{}{
		"id": created.ID, "name": created.Name, "active": created.Active, "has_token": created.Token != "",
		"scopes": created.Scopes, "current_user": asAlice.Username, "listed_ids": listedIDs,
		"revoked_after_delete": afterRevoke.Revoked, "inactive_ids": inactiveIDs, "alice_own_ids": ownIDs,
	}

	wrong := client(url, "glpat-not-a-token-at-all")
	_, _, errWrong := wrong.PersonalAccessTokens.ListPersonalAccessTokens(&gitlab.ListPersonalAccessTokensOptions{})
	_, errOther := getToken(bob, "2")
	_, errScope := rotate(client(url, readAPISecret), "3", nil)
	_, errMissing := getToken(root, "9999")
	bobID := 3
	_, _, errFilter := alice.PersonalAccessTokens.ListPersonalAccessTokens(&gitlab.ListPersonalAccessTokensOptions{UserID: &bobID})
	_, _, errImpersonation := alice.Users.GetAllImpersonationTokens(2, nil)
	_, _, errMissingImpersonation := root.Users.GetImpersonationToken(2, 10)
	report["errors"] = map[string]interface{}{
		"wrong_token":                outcome(errWrong),
		"other_users_token":          outcome(errOther),
		"read_api_rotate":            outcome(errScope),
		"admin_missing":              outcome(errMissing),
		"non_admin_user_filter":      outcome(errFilter),
		"non_admin_impersonation":    outcome(errImpersonation),
		"not_an_impersonation_token": outcome(errMissingImpersonation),
	}

	// sudo: the client's WithSudo request option (the Sudo header), with an administrator's token
	// that has the sudo scope, created last so the ids above stay as they are.
	sudoName := "sudo"
	sudoScopes := []string{"api", "sudo"}
	sudoToken, _, err := root.Users.CreatePersonalAccessToken(1, &gitlab.CreatePersonalAccessTokenOptions{
		Name: &sudoName, Scopes: &sudoScopes,
	})
	must(err, "create a sudo token")
	sudoer := client(url, sudoToken.Token)
	asAlice2, _, err := sudoer.Users.CurrentUser(gitlab.WithSudo("alice"))
	must(err, "sudo alice")
	asBob, _, err := sudoer.Users.CurrentUser(gitlab.WithSudo(3))
	must(err, "sudo 3")
	_, _, errNonAdmin := alice.Users.CurrentUser(gitlab.WithSudo("bob"))
	_, _, errNoScope := root.Users.CurrentUser(gitlab.WithSudo("alice"))
	_, _, errUnknown := sudoer.Users.CurrentUser(gitlab.WithSudo("nobody"))
	report["sudo"] = map[string]interface{}{
		"by_username": asAlice2.Username, "by_id": asBob.Username,
		"non_admin": outcome(errNonAdmin), "without_scope": outcome(errNoScope), "unknown_user": outcome(errUnknown),
	}

	out, err := json.Marshal(report)
	must(err, "json")
	fmt.Println(string(out))
}
