package swarm

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestGatewayRoutes checks what the swarm gateway refuses before it
// proxies: paths whose first segment is no agent service name, and its own
// health path.
func TestGatewayRoutes(t *testing.T) {
	h := GatewayHandler()
	for _, c := range []struct {
		path string
		want int
	}{
		{GatewayHealthPath, http.StatusOK},
		{"/", http.StatusNotFound},
		{"/Upper/", http.StatusNotFound},
		{"/..%2f/", http.StatusNotFound},
		{"/a%20b/", http.StatusNotFound},
		{"/-x/", http.StatusNotFound},
		// A well-formed name no service answers to: the proxy's error.
		{"/nosuchagent-here/.well-known/agent-card.json", http.StatusBadGateway},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, c.path, nil))
		if rec.Code != c.want {
			t.Errorf("GET %s = %d, want %d (%s)", c.path, rec.Code, c.want, rec.Body)
		}
	}
	if name, rest := splitAgentPath("/textkit/a/b"); name != "textkit" || rest != "/a/b" {
		t.Errorf("splitAgentPath = %q %q", name, rest)
	}
}
