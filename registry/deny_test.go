package registry

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDeniedAddr keeps the table of refused addresses honest: each address
// is refused, or not, for the reason given.
func TestDeniedAddr(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		addr string
		want string // "" for allowed
	}{
		{"127.0.0.1", "loopback"},
		{"127.9.9.9", "loopback"},
		{"::1", "loopback"},
		{"::ffff:127.0.0.1", "loopback"},
		{"10.1.2.3", "private network"},
		{"172.31.255.255", "private network"},
		{"192.168.1.1", "private network"},
		{"169.254.169.254", "link-local (cloud metadata)"},
		{"fd00:ec2::254", "unique local (private network, cloud metadata)"},
		{"100.100.100.200", "carrier-grade NAT (cloud metadata on some providers)"},
		{"fe80::1", "link-local"},
		{"0.0.0.0", "this network"},
		{"::", "unspecified"},
		{"64:ff9b::a9fe:a9fe", "link-local (cloud metadata)"},
		{"2002:7f00:1::", "loopback"},
		{"224.0.0.1", "multicast"},
		{"8.8.8.8", ""},
		{"93.184.216.34", ""},
		{"2606:4700::1111", ""},
		{"172.32.0.1", ""},
	} {
		if got := deniedAddr(netip.MustParseAddr(tc.addr)); got != tc.want {
			t.Errorf("deniedAddr(%s) = %q, want %q", tc.addr, got, tc.want)
		}
	}
}

// postRegister posts body to the registry's registration endpoint and
// returns the status and error body.
func postRegister(t *testing.T, base, token, body string) (int, errorBody) {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, base+"/v1/agents", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var eb errorBody
	json.NewDecoder(resp.Body).Decode(&eb)
	return resp.StatusCode, eb
}

// TestRedirectToAnotherOriginRefused registers an agent whose card path
// redirects to another host that serves a valid card: the registry must not
// follow it, neither at registration nor when probing.
func TestRedirectToAnotherOriginRefused(t *testing.T) {
	t.Parallel()
	agents := newFakeAgents(t)
	agents.set(t, "reverser", reverserCard())
	elsewhere := agents.url("reverser") + WellKnownCardPath
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere, http.StatusFound)
	}))
	defer redirector.Close()
	reg := newTestRegistry(t)

	_, _, err := reg.client.Register(t.Context(), redirector.URL)
	var ae *APIError
	if !errors.As(err, &ae) || ae.Status != http.StatusUnprocessableEntity || !strings.Contains(err.Error(), "another origin") {
		t.Fatalf("Register(redirects to another host) = %v, want 422 naming the other origin", err)
	}
	if n := agents.fetches("reverser"); n != 0 {
		t.Errorf("the other host was fetched %d times", n)
	}

	// A record whose agent starts redirecting later goes down.
	agents.set(t, "mover", reverserCard())
	rec := mustRegister(t, reg.client, agents.url("mover"))
	agents.remove("mover")
	rec.URL = redirector.URL
	pr := reg.svc.Check(t.Context(), Target{ID: rec.ID, URL: redirector.URL, CardHash: rec.CardHash})
	if pr.Status != StatusDown || !strings.HasPrefix(pr.Error, CategoryRedirect+": ") {
		t.Errorf("Check(redirects to another host) = %+v, want down, %q", pr, CategoryRedirect)
	}
}

// TestDenyPrivateRefusesLoopback runs a registry with DenyPrivate (as
// `registry serve --deny-private` does) and registers an agent on
// loopback: refused before any request reaches it. Without the flag, the
// same agent registers (a fleet on one machine).
func TestDenyPrivateRefusesLoopback(t *testing.T) {
	t.Parallel()
	agents := newFakeAgents(t)
	agents.set(t, "reverser", reverserCard())
	for _, deny := range []bool{true, false} {
		srv, err := Start(t.Context(), ServerConfig{Addr: "127.0.0.1:0", DB: filepath.Join(t.TempDir(), "r.db"), Token: testToken, DenyPrivate: deny})
		if err != nil {
			t.Fatal(err)
		}
		c := NewClient(srv.URL, WithClientToken(testToken))
		_, _, err = c.Register(t.Context(), agents.url("reverser"))
		srv.Close()
		if !deny {
			if err != nil {
				t.Errorf("Register(loopback) without DenyPrivate = %v", err)
			}
			continue
		}
		var ae *APIError
		if !errors.As(err, &ae) || ae.Status != http.StatusUnprocessableEntity || !strings.Contains(err.Error(), "loopback") {
			t.Errorf("Register(loopback) with DenyPrivate = %v, want 422 naming loopback", err)
		}
		if n := agents.fetches("reverser"); n != 0 {
			t.Errorf("with DenyPrivate the loopback agent was fetched %d times", n)
		}
	}
}

// TestDenyPrivateAtConnect checks the fetcher's own transport: the address
// a connection goes to is refused as it connects, whatever resolved before.
func TestDenyPrivateAtConnect(t *testing.T) {
	t.Parallel()
	agents := newFakeAgents(t)
	agents.set(t, "reverser", reverserCard())
	client := &http.Client{Transport: newTransport(true)}
	_, err := client.Get(agents.url("reverser") + WellKnownCardPath)
	var de *DeniedError
	if !errors.As(err, &de) || de.Why != "loopback" {
		t.Errorf("GET loopback through the deny transport = %v, want a DeniedError", err)
	}
	if _, err := (&http.Client{Transport: newTransport(false)}).Get(agents.url("reverser") + WellKnownCardPath); err != nil {
		t.Errorf("GET loopback through the plain transport = %v", err)
	}
}

// TestHealthDetailNeedsToken takes an agent down (its port closed) and
// reads its record: anyone sees the category, only the token holder sees
// the connection error; the web page shows the category.
func TestHealthDetailNeedsToken(t *testing.T) {
	t.Parallel()
	testHealthDetailNeedsToken(t, newTestRegistry(t), newFakeAgents(t))
}

// testHealthDetailNeedsToken is TestHealthDetailNeedsToken on any store;
// TestPostgresService runs it on PostgreSQL.
func testHealthDetailNeedsToken(t *testing.T, reg *testRegistry, agents *fakeAgents) {
	agents.set(t, "reverser", reverserCard())
	rec := mustRegister(t, reg.client, agents.url("reverser"))
	agents.srv.Close() // the port now refuses connections
	if _, err := NewProber(reg.svc).Round(t.Context()); err != nil {
		t.Fatal(err)
	}

	full, err := reg.client.Get(t.Context(), rec.ID)
	if err != nil || !strings.Contains(full.Health.Error, "connection refused") {
		t.Errorf("Get with the token: health = %+v, %v; want the connection error", full.Health, err)
	}
	pub, err := reg.anon.Get(t.Context(), rec.ID)
	if err != nil || pub.Health.Error != CategoryUnreachable {
		t.Errorf("Get without the token: health error = %q, %v; want %q", pub.Health.Error, err, CategoryUnreachable)
	}
	page, err := reg.anon.List(t.Context(), Query{})
	if err != nil || len(page.Hits) != 1 || page.Hits[0].Health.Error != CategoryUnreachable {
		t.Errorf("List without the token = %+v, %v; want the category only", page.Hits, err)
	}
	page, err = reg.anon.Search(t.Context(), Query{Text: "reverse", Statuses: Statuses})
	if err != nil || len(page.Hits) != 1 || page.Hits[0].Health.Error != CategoryUnreachable {
		t.Errorf("Search without the token = %+v, %v; want the category only", page.Hits, err)
	}
	page, err = reg.client.List(t.Context(), Query{})
	if err != nil || len(page.Hits) != 1 || !strings.Contains(page.Hits[0].Health.Error, "connection refused") {
		t.Errorf("List with the token = %+v, %v; want the detail", page.Hits, err)
	}
	resp, err := http.Get(reg.srv.URL + "/agents/" + rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	html, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(html), "refused") || !strings.Contains(string(html), CategoryUnreachable) {
		t.Errorf("the agent page shows the fetch detail, or no category:\n%s", html)
	}
}

// TestRegistrationFailureDetailNeedsToken registers a closed port on a
// registry without a token (so writes are open): the answer names the
// category only, which no longer tells a closed port from an open one
// by its error text; the log has the detail.
func TestRegistrationFailureDetailNeedsToken(t *testing.T) {
	t.Parallel()
	store, err := OpenSQLite(t.Context(), ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	srv := httptest.NewServer(NewHandler(NewService(store, cardsValidator(), WithFetchTimeout(2*time.Second))))
	defer srv.Close()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()
	body, _ := json.Marshal(registerRequest{URL: closed})
	status, eb := postRegister(t, srv.URL, "", string(body))
	if status != http.StatusUnprocessableEntity || len(eb.Problems) != 1 || !strings.HasSuffix(eb.Problems[0], ": "+CategoryUnreachable) {
		t.Errorf("register a closed port = %d %+v, want 422 with the category only", status, eb)
	}
	if strings.Contains(eb.Error+strings.Join(eb.Problems, " "), "refused") {
		t.Errorf("the answer shows the connection error: %+v", eb)
	}
}

// TestRegisterBodyWithTrailingData posts a registration body with more
// after its JSON object: refused with 400, nothing registered.
func TestRegisterBodyWithTrailingData(t *testing.T) {
	t.Parallel()
	agents := newFakeAgents(t)
	agents.set(t, "reverser", reverserCard())
	reg := newTestRegistry(t)
	one, _ := json.Marshal(registerRequest{URL: agents.url("reverser")})
	for _, body := range []string{string(one) + `{"url":"http://127.0.0.1:9"}`, string(one) + "garbage", string(one) + "}"} {
		if status, eb := postRegister(t, reg.srv.URL, testToken, body); status != http.StatusBadRequest || !strings.Contains(eb.Error, "nothing after it") {
			t.Errorf("register %q = %d %+v, want 400", body, status, eb)
		}
	}
	if n := agents.fetches("reverser"); n != 0 {
		t.Errorf("a refused body still fetched the card %d times", n)
	}
	if status, _ := postRegister(t, reg.srv.URL, testToken, string(one)+"\n"); status != http.StatusCreated {
		t.Errorf("register with a trailing newline = %d, want 201", status)
	}
}

// TestServerTimeouts checks that every timeout of the registry's HTTP
// server is set, so that a slow client cannot hold a connection.
func TestServerTimeouts(t *testing.T) {
	t.Parallel()
	srv, err := Start(context.WithoutCancel(t.Context()), ServerConfig{Addr: "127.0.0.1:0", DB: filepath.Join(t.TempDir(), "r.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	h := srv.srv
	if h.ReadHeaderTimeout <= 0 || h.ReadTimeout <= 0 || h.WriteTimeout <= 0 || h.IdleTimeout <= 0 {
		t.Errorf("registry server timeouts: header %v, read %v, write %v, idle %v; want all set", h.ReadHeaderTimeout, h.ReadTimeout, h.WriteTimeout, h.IdleTimeout)
	}
}
