package proxy_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/agentnet/agentnet/a2a/proxy"
)

// start serves a proxy for upstream and returns its server and log.
func start(t *testing.T, upstream string, opts ...proxy.Option) (*proxy.Server, *proxy.Log) {
	t.Helper()
	log := proxy.NewLog(nil)
	p, err := proxy.New("agent-1", upstream, log, opts...)
	if err != nil {
		t.Fatalf("New() error = %v", err)
	}
	srv, err := p.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatalf("Listen() error = %v", err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv, log
}

func kinds(es []proxy.Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Kind)
	}
	return out
}

// TestBytesUnchanged sends odd but valid bytes both ways and checks that
// each side receives exactly what the other sent, and that the trace holds
// them too.
func TestBytesUnchanged(t *testing.T) {
	t.Parallel()
	const reqBody = "{ \"jsonrpc\":\"2.0\",  \"id\": 7,\n\"method\":\"SendMessage\", \"params\":{\"x\":\"\\u00e9\"} }"
	const respBody = "{\"jsonrpc\":\"2.0\",\"id\":7,   \"result\":{\"task\":{\"id\":\"t\"}}}\n"
	const malformed = "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"task\":"
	const stream = "data: {\"a\":1}\r\n\r\n: a comment\n\ndata: {\"b\":\ndata: 2}\n\nevent: x\ndata: not json\n\n"
	got := make(chan []byte, 4)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- b
		switch r.URL.Path {
		case "/rpc":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, respBody)
		case "/bad":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, malformed)
		case "/stream":
			w.Header().Set("Content-Type", "text/event-stream")
			for _, chunk := range strings.SplitAfter(stream, "\n") {
				io.WriteString(w, chunk)
				w.(http.Flusher).Flush()
			}
		}
	}))
	defer up.Close()
	srv, log := start(t, up.URL)

	tests := []struct {
		path, want string
		kinds      []string
		events     []string // Body or Text of the event entries
	}{
		{"/rpc", respBody, []string{"request", "response"}, nil},
		{"/bad", malformed, []string{"request", "response"}, nil},
		{"/stream", stream, []string{"request", "stream", "event", "event", "event", "end"}, []string{`{"a":1}`, "{\"b\":\n2}", "not json"}},
	}
	for _, tc := range tests {
		before := len(log.Entries())
		resp, err := http.Post(srv.URL+tc.path, "application/json", strings.NewReader(reqBody))
		if err != nil {
			t.Fatalf("POST %s: %v", tc.path, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(body) != tc.want {
			t.Errorf("POST %s answer = %q, want %q", tc.path, body, tc.want)
		}
		if b := <-got; string(b) != reqBody {
			t.Errorf("POST %s: the agent received %q, want %q", tc.path, b, reqBody)
		}
		// The last entry is written when the client has read the body.
		var es []proxy.Entry
		for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			if es = log.Entries()[before:]; len(es) >= len(tc.kinds) {
				break
			}
		}
		if g := strings.Join(kinds(es), ","); g != strings.Join(tc.kinds, ",") {
			t.Fatalf("POST %s trace kinds = %s, want %s", tc.path, g, strings.Join(tc.kinds, ","))
		}
		if string(es[0].Body) != reqBody || es[0].RPCMethod != "SendMessage" || string(es[0].RPCID) != "7" {
			t.Errorf("POST %s request entry = %+v, want the body as sent, method SendMessage, id 7", tc.path, es[0])
		}
		var evs []string
		for _, e := range es {
			if e.Kind == proxy.KindEvent {
				evs = append(evs, string(e.Body)+e.Text)
			}
			if e.Exchange != es[0].Exchange || e.Agent != "agent-1" {
				t.Errorf("entry %+v: want exchange %d of agent-1", e, es[0].Exchange)
			}
		}
		if fmt.Sprint(evs) != fmt.Sprint(tc.events) {
			t.Errorf("POST %s events = %q, want %q", tc.path, evs, tc.events)
		}
		last := es[len(es)-1]
		switch tc.path {
		case "/rpc":
			if string(last.Body) != respBody || last.Status != 200 || last.Bytes != int64(len(respBody)) {
				t.Errorf("response entry = %+v, want the answer as sent", last)
			}
		case "/bad":
			if last.Text != malformed || last.Body != nil {
				t.Errorf("malformed answer entry = %+v, want it as text", last)
			}
		case "/stream":
			if last.Error != "" || last.Bytes != int64(len(stream)) {
				t.Errorf("end entry = %+v, want a clean end after %d bytes", last, len(stream))
			}
		}
		for i := 1; i < len(es); i++ {
			if es[i].ElapsedMS < es[i-1].ElapsedMS {
				t.Errorf("elapsed times go back: %v then %v", es[i-1].ElapsedMS, es[i].ElapsedMS)
			}
		}
	}
}

// TestLargeBody records the head of a body larger than the record limit
// and forwards all of it.
func TestLargeBody(t *testing.T) {
	t.Parallel()
	got := make(chan int, 1)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- len(b)
		w.Write(bytes.Repeat([]byte("y"), 3000))
	}))
	defer up.Close()
	srv, log := start(t, up.URL, proxy.WithMaxRecord(1000))
	resp, err := http.Post(srv.URL+"/", "text/plain", bytes.NewReader(bytes.Repeat([]byte("x"), 5000)))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if n := <-got; n != 5000 || len(b) != 3000 {
		t.Fatalf("forwarded %d request bytes and %d answer bytes, want 5000 and 3000", n, len(b))
	}
	es := log.Entries()
	digest := func(b byte, n int) string {
		return fmt.Sprintf("sha256:%x", sha256.Sum256(bytes.Repeat([]byte{b}, n)))
	}
	if len(es) != 2 || es[0].Kind != proxy.KindRequest || !es[0].Truncated || es[0].Text != "" || es[0].Bytes != 5000 || es[0].Digest != digest('x', 5000) ||
		!es[1].Truncated || es[1].Text != "" || es[1].Bytes != 3000 || es[1].Digest != digest('y', 3000) {
		t.Errorf("entries = %+v, want the request and the answer recorded by size and digest, no bytes", es)
	}
}

// TestLargeRPCRequest: a JSON-RPC request too large to keep is still
// known by its method and id, which come before its params.
func TestLargeRPCRequest(t *testing.T) {
	t.Parallel()
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":7,"result":{}}`)
	}))
	defer up.Close()
	srv, log := start(t, up.URL, proxy.WithMaxRecord(1000))
	body := `{"jsonrpc":"2.0","id":7,"method":"SendMessage","params":{"text":"` + strings.Repeat("z", 5000) + `"}}`
	resp, err := http.Post(srv.URL+"/", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	es := log.Entries()
	if len(es) != 2 || es[0].RPCMethod != "SendMessage" || string(es[0].RPCID) != "7" || es[0].Bytes != int64(len(body)) || es[0].Body != nil ||
		es[0].Digest != fmt.Sprintf("sha256:%x", sha256.Sum256([]byte(body))) || es[1].Body == nil {
		t.Errorf("entries = %+v, want the request known by method, id, size and digest, and the small answer kept", es)
	}
}

// TestUnreachable answers 502 and records why.
func TestUnreachable(t *testing.T) {
	t.Parallel()
	up := httptest.NewServer(http.NotFoundHandler())
	url := up.URL
	up.Close()
	srv, log := start(t, url)
	resp, err := http.Post(srv.URL+"/", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadGateway {
		t.Errorf("status = %d, want 502", resp.StatusCode)
	}
	es := log.Entries()
	if len(es) != 2 || es[1].Kind != proxy.KindError || !strings.Contains(es[1].Error, "connection refused") {
		t.Errorf("entries = %+v, want a request and an error naming the refused connection", es)
	}
}

// echo is an a2asrv agent that streams two artifacts and completes.
type echo struct{}

func (echo) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		if !yield(a2a.NewSubmittedTask(ec, ec.Message), nil) {
			return
		}
		for _, s := range []string{"one ", "two"} {
			if !yield(a2a.NewArtifactEvent(ec, a2a.NewTextPart(s)), nil) {
				return
			}
		}
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
	}
}

func (echo) Cancel(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, nil), nil)
	}
}

// TestA2AThroughProxy resolves a real agent's card through the proxy (its
// URL rewritten to the proxy's), streams a message and checks that every
// event the client saw is in the trace.
func TestA2AThroughProxy(t *testing.T) {
	t.Parallel()
	up := httptest.NewUnstartedServer(nil)
	agentURL := "http://" + up.Listener.Addr().String() + "/a2a/"
	card := &a2a.AgentCard{
		Name: "echo", Description: "Echoes.", Version: "1.0.0",
		SupportedInterfaces: []*a2a.AgentInterface{a2a.NewAgentInterface(agentURL, a2a.TransportProtocolJSONRPC)},
		Capabilities:        a2a.AgentCapabilities{Streaming: true},
		DefaultInputModes:   []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []a2a.AgentSkill{{ID: "echo", Name: "echo", Description: "Echoes.", Tags: []string{"echo"}}},
	}
	mux := http.NewServeMux()
	mux.Handle("/a2a/", a2asrv.NewJSONRPCHandler(a2asrv.NewHandler(echo{})))
	mux.Handle(a2asrv.WellKnownAgentCardPath, a2asrv.NewStaticAgentCardHandler(card))
	up.Config.Handler = mux
	up.Start()
	defer up.Close()
	srv, log := start(t, up.URL)

	ctx := t.Context()
	got, err := agentcard.DefaultResolver.Resolve(ctx, srv.URL)
	if err != nil {
		t.Fatalf("Resolve() error = %v", err)
	}
	if u := got.SupportedInterfaces[0].URL; u != srv.URL+"/a2a/" {
		t.Fatalf("card URL through the proxy = %s, want %s", u, srv.URL+"/a2a/")
	}
	c, err := a2aclient.NewFromCard(ctx, got)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Destroy()
	seen := 0
	for _, err := range c.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("hi"))}) {
		if err != nil {
			t.Fatalf("stream error = %v", err)
		}
		seen++
	}
	var events, rewritten int
	var method string
	for _, e := range log.Entries() {
		switch e.Kind {
		case proxy.KindEvent:
			events++
		case proxy.KindRequest:
			if e.RPCMethod != "" {
				method = e.RPCMethod
			}
		case proxy.KindResponse:
			if e.Rewritten {
				rewritten++
			}
		}
	}
	if seen != 4 || events != seen {
		t.Errorf("client saw %d events, trace has %d; want 4 each", seen, events)
	}
	if method != "SendStreamingMessage" || rewritten != 1 {
		t.Errorf("method = %q, rewritten cards = %d; want SendStreamingMessage and 1", method, rewritten)
	}
}

func TestReplaceOrigin(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{`{"url":"http://h:1/"}`, `{"url":"http://p:9/"}`},
		{`{"url":"http://h:1"}`, `{"url":"http://p:9"}`},
		{`{"url":"http://h:12/"}`, `{"url":"http://h:12/"}`},
		{`http://h:1/a http://h:1?x http://h:10`, `http://p:9/a http://p:9?x http://h:10`},
		{`nothing`, `nothing`},
	}
	for _, tc := range tests {
		if got := string(proxy.ReplaceOrigin([]byte(tc.in), "http://h:1", "http://p:9/")); got != tc.want {
			t.Errorf("ReplaceOrigin(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestReadLog reads back what a Log wrote.
func TestReadLog(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	l := proxy.NewLog(&buf)
	l.Record(proxy.Entry{Kind: proxy.KindRequest, Agent: "a", Body: []byte(`{"x":1}`)})
	l.Record(proxy.Entry{Kind: proxy.KindResponse, Agent: "a", Text: "oops"})
	es, err := proxy.ReadLog(&buf)
	if err != nil || len(es) != 2 || es[0].Seq != 1 || string(es[0].Body) != `{"x":1}` || es[1].Text != "oops" {
		t.Errorf("ReadLog() = %+v, %v", es, err)
	}
}
