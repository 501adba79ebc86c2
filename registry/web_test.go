package registry

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// xssCard carries markup in every text field the web page shows.
func xssCard() *a2a.AgentCard {
	sk := skill("inject", `<img src=x onerror="window.__xss=2">Injects.`, "<b>tag</b>")
	sk.Name = `<script>window.__xss=3</script>`
	sk.Examples = []string{`"><script>window.__xss=4</script>`}
	return testCard(`xss<script>window.__xss=5</script>`, `<script>window.__xss=1</script> A card with script tags.`, sk)
}

func TestWebPage(t *testing.T) {
	t.Parallel()
	agents := newFakeAgents(t)
	reg := newTestRegistry(t)
	agents.set(t, "reverser", reverserCard())
	agents.set(t, "xss", xssCard())
	rev := mustRegister(t, reg.client, agents.url("reverser"))
	xss := mustRegister(t, reg.client, agents.url("xss"))

	get := func(path string) (*http.Response, string) {
		resp, err := http.Get(reg.srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	tests := []struct {
		path    string
		status  int
		want    []string
		notWant []string
	}{
		{"/", 200, []string{"<html", `id="q"`, "reverser", "2 agents registered: 2 up", "&lt;script&gt;window.__xss=1&lt;/script&gt;", `href="/agents/` + rev.ID + `"`},
			[]string{"<script>", "<b>tag</b>"}},
		{"/?q=palindrome", 200, []string{"reverser", `Showing matches for “palindrome”`, "<th>Score</th>"}, []string{"/agents/" + xss.ID}},
		{"/?q=%3Cscript%3E", 200, []string{"script"}, []string{"<script>"}},
		{"/?q=%21%21", 200, []string{`id="error"`, "no letters or digits"}, nil},
		{"/?tag=palindrome", 200, []string{"reverser"}, []string{"/agents/" + xss.ID}},
		{"/agents/" + rev.ID, 200, []string{`id="card"`, "reverse-text", "Reverse the word stressed", "first seen", "(new card)"}, nil},
		{"/agents/" + xss.ID, 200, []string{"&lt;script&gt;window.__xss=1", "&lt;img src=x onerror="}, []string{"<script>", "<img src=x"}},
		{"/agents/nope", 404, []string{"No such agent"}, nil},
	}
	for _, tt := range tests {
		resp, body := get(tt.path)
		if resp.StatusCode != tt.status {
			t.Errorf("GET %s = %d, want %d", tt.path, resp.StatusCode, tt.status)
		}
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Errorf("GET %s Content-Type = %q, want text/html", tt.path, ct)
		}
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
			t.Errorf("GET %s CSP = %q, want default-src 'none'", tt.path, csp)
		}
		for _, w := range tt.want {
			if !strings.Contains(strings.ToLower(body), strings.ToLower(w)) {
				t.Errorf("GET %s lacks %q", tt.path, w)
			}
		}
		for _, w := range tt.notWant {
			if strings.Contains(body, w) {
				t.Errorf("GET %s contains %q", tt.path, w)
			}
		}
	}
}
