package docker

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/docker/docker/client"

	"github.com/agentnet/agentnet/deploy"
)

// TestEnsureNetworkDuplicates runs against a fake Docker Engine that speaks
// the Engine API's wire format and lists two agentnet networks, as runtimes
// of two processes creating it at once can leave: the runtime attaches to
// the older one, removes the newer, and leaves alone a network whose name
// merely contains agentnet.
func TestEnsureNetworkDuplicates(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var deleted []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Api-Version", "1.41")
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/_ping"):
			io.WriteString(w, "OK")
		case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/networks"):
			io.WriteString(w, `[
{"Name":"agentnet","Id":"newer","Created":"2026-01-02T10:00:00.000000002Z","Labels":{"agentnet.managed":"true"}},
{"Name":"agentnet-job-1","Id":"job","Created":"2026-01-01T00:00:00Z","Labels":{}},
{"Name":"agentnet","Id":"older","Created":"2026-01-02T10:00:00.000000001Z","Labels":{"agentnet.managed":"true"}}]`)
		case r.Method == http.MethodDelete:
			mu.Lock()
			deleted = append(deleted, r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:])
			mu.Unlock()
			w.WriteHeader(http.StatusNoContent)
		default:
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"message":"unexpected request"}`)
			t.Errorf("unexpected request %s %s", r.Method, r.URL.Path)
		}
	}))
	t.Cleanup(srv.Close)
	c, err := client.NewClientWithOpts(client.WithHost("tcp://"+strings.TrimPrefix(srv.URL, "http://")), client.WithAPIVersionNegotiation())
	if err != nil {
		t.Fatal(err)
	}
	d := NewWith(deploy.Config{}, c)
	id, err := d.ensureNetwork(t.Context())
	if err != nil {
		t.Fatalf("ensureNetwork() error = %v", err)
	}
	if id != "older" {
		t.Errorf("ensureNetwork() = %s, want the older network", id)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(deleted) != 1 || deleted[0] != "newer" {
		t.Errorf("deleted networks = %v, want [newer]", deleted)
	}
}
