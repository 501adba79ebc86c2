package registry

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// cardsValidator is the real card validation, as the CLI wires it.
func cardsValidator() CardValidator { return CardsValidator }

// testCard returns a valid card.
func testCard(name, desc string, skills ...a2a.AgentSkill) *a2a.AgentCard {
	if skills == nil {
		skills = []a2a.AgentSkill{}
	}
	for i := range skills {
		if skills[i].Tags == nil {
			skills[i].Tags = []string{}
		}
	}
	return &a2a.AgentCard{
		Name:        name,
		Description: desc,
		Version:     "1.0.0",
		SupportedInterfaces: []*a2a.AgentInterface{
			{URL: "http://127.0.0.1:9/", ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: a2a.Version},
		},
		DefaultInputModes:  []string{"text/plain"},
		DefaultOutputModes: []string{"text/plain"},
		Skills:             skills,
	}
}

func skill(id, desc string, tags ...string) a2a.AgentSkill {
	return a2a.AgentSkill{ID: id, Name: strings.ReplaceAll(id, "-", " "), Description: desc, Tags: tags}
}

// fakeAgents serves cards at /a/NAME/.well-known/agent-card.json, plus a
// few misbehaving agents for the bad-input cases.
type fakeAgents struct {
	srv      *httptest.Server
	mu       sync.Mutex
	cards    map[string][]byte
	fetched  map[string]int // card requests by agent name
	delay    time.Duration
	inflight atomic.Int32
	peak     atomic.Int32
	hits     atomic.Int32
}

func newFakeAgents(t *testing.T) *fakeAgents {
	t.Helper()
	f := &fakeAgents{cards: map[string][]byte{}, fetched: map[string]int{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAgents) url(name string) string { return f.srv.URL + "/a/" + name }

func (f *fakeAgents) set(t *testing.T, name string, card any) {
	t.Helper()
	data, ok := card.([]byte)
	if !ok {
		var err error
		if data, err = json.Marshal(card); err != nil {
			t.Fatal(err)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cards[name] = data
}

// fetches returns how many times the card of agent name was requested,
// served or not.
func (f *fakeAgents) fetches(name string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.fetched[name]
}

func (f *fakeAgents) remove(name string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.cards, name)
}

func (f *fakeAgents) serve(w http.ResponseWriter, r *http.Request) {
	f.hits.Add(1)
	n := f.inflight.Add(1)
	defer f.inflight.Add(-1)
	for {
		p := f.peak.Load()
		if n <= p || f.peak.CompareAndSwap(p, n) {
			break
		}
	}
	f.mu.Lock()
	delay := f.delay
	f.mu.Unlock()
	if delay > 0 {
		time.Sleep(delay)
	}
	name, ok := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, "/a/"), WellKnownCardPath)
	if !ok {
		http.NotFound(w, r)
		return
	}
	f.mu.Lock()
	f.fetched[name]++
	f.mu.Unlock()
	switch name {
	case "html":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<!doctype html><html><body>Welcome to nginx!</body></html>")
		return
	case "html-as-json":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, "<html><body>oops</body></html>")
		return
	case "huge", "huge-chunked":
		// 50 MiB of JSON, announced or streamed.
		const size = 50 << 20
		if name == "huge" {
			w.Header().Set("Content-Length", fmt.Sprint(size))
		}
		w.Header().Set("Content-Type", "application/json")
		chunk := []byte(`{"name":"` + strings.Repeat("x", 64<<10-9))
		for sent := 0; sent < size; sent += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
		return
	case "hang":
		<-r.Context().Done()
		return
	case "loop":
		http.Redirect(w, r, r.URL.Path, http.StatusFound)
		return
	case "to-file":
		http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
		return
	case "moved":
		http.Redirect(w, r, "/a/reverser"+WellKnownCardPath, http.StatusMovedPermanently)
		return
	case "boom":
		http.Error(w, "internal", http.StatusInternalServerError)
		return
	}
	f.mu.Lock()
	data, ok := f.cards[name]
	f.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(data)
}

// testRegistry is a registry on httptest over a store.
type testRegistry struct {
	store  Store
	svc    *Service
	srv    *httptest.Server
	client *Client // with the token
	anon   *Client // without it
}

const testToken = "s3cret-token"

// newTestRegistry returns a registry over an in-memory SQLite store.
func newTestRegistry(t *testing.T, opts ...Option) *testRegistry {
	t.Helper()
	store, err := OpenSQLite(t.Context(), ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return newTestRegistryOn(t, store, opts...)
}

// newTestRegistryOn returns a registry over store, which the caller closes.
func newTestRegistryOn(t *testing.T, store Store, opts ...Option) *testRegistry {
	t.Helper()
	svc := NewService(store, cardsValidator(), append([]Option{WithFetchTimeout(2 * time.Second)}, opts...)...)
	srv := httptest.NewServer(NewHandler(svc, WithToken(testToken)))
	t.Cleanup(srv.Close)
	return &testRegistry{
		store:  store,
		svc:    svc,
		srv:    srv,
		client: NewClient(srv.URL, WithClientToken(testToken)),
		anon:   NewClient(srv.URL),
	}
}

func mustRegister(t *testing.T, c *Client, url string) Record {
	t.Helper()
	rec, _, err := c.Register(context.WithoutCancel(t.Context()), url)
	if err != nil {
		t.Fatalf("Register(%s) = %v", url, err)
	}
	return rec
}
