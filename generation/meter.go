package generation

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/agentnet/agentnet/internal/httptimeout"
)

// Meter is a metering reverse proxy for model APIs: requests to
// TOKEN/openai/... go to the OpenAI-compatible upstream,
// TOKEN/anthropic/... to the Anthropic-compatible one, and the usage every response reports (JSON or
// server-sent events) is summed. A coding agent is pointed at it through
// its usual base-URL variables, so its tokens are counted whatever it says.
type Meter struct {
	srv *http.Server
	ln  net.Listener
	url string

	mu        sync.Mutex
	in, out   int64
	responses int // responses that reported usage
	requests  int
}

// DefaultUpstreams are the real APIs.
var DefaultUpstreams = map[string]string{
	"openai":    "https://api.openai.com/v1",
	"anthropic": "https://api.anthropic.com",
}

// StartMeter starts a meter on a loopback port forwarding to upstreams
// (name → base URL, for "openai" and "anthropic"). Close stops it.
func StartMeter(upstreams map[string]string) (*Meter, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("metering proxy: %w", err)
	}
	return StartMeterOn(ln, upstreams)
}

// StartMeterOn starts a meter serving on ln, which it owns from then on:
// Close closes it. Its base URLs carry a random path prefix, so that only
// the agent they are handed to can use the proxy, whoever else reaches
// its address.
func StartMeterOn(ln net.Listener, upstreams map[string]string) (*Meter, error) {
	var tok [12]byte
	if _, err := rand.Read(tok[:]); err != nil {
		ln.Close()
		return nil, fmt.Errorf("metering proxy: %w", err)
	}
	token := "/" + hex.EncodeToString(tok[:])
	m := &Meter{ln: ln, url: "http://" + ln.Addr().String() + token}
	mux := http.NewServeMux()
	for _, name := range []string{"openai", "anthropic"} {
		base := upstreams[name]
		if base == "" {
			base = DefaultUpstreams[name]
		}
		target, err := url.Parse(strings.TrimRight(base, "/"))
		if err != nil {
			ln.Close()
			return nil, fmt.Errorf("metering proxy: upstream %s: %w", name, err)
		}
		prefix := token + "/" + name
		rp := &httputil.ReverseProxy{
			Rewrite: func(r *httputil.ProxyRequest) {
				r.SetURL(target)
				r.Out.URL.Path = target.Path + strings.TrimPrefix(r.In.URL.Path, prefix)
				r.Out.URL.RawPath = ""
				r.Out.Host = target.Host
				// Plain bodies, so that usage can be read.
				r.Out.Header.Del("Accept-Encoding")
			},
			ModifyResponse: func(resp *http.Response) error {
				resp.Body = &usageReader{rc: resp.Body, sse: strings.Contains(resp.Header.Get("Content-Type"), "event-stream"), done: m.add}
				return nil
			},
			FlushInterval: -1,
		}
		mux.Handle(prefix+"/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			m.mu.Lock()
			m.requests++
			m.mu.Unlock()
			rp.ServeHTTP(w, r)
		}))
	}
	// Every timeout a server has (header, body, each write, idle); a model's
	// answer may take minutes to start, so a write's deadline runs from
	// when it starts, not from the request.
	m.srv = httptimeout.Server(mux, httptimeout.Timeouts{Header: 30 * time.Second, Read: time.Minute, Write: time.Minute, Idle: 2 * time.Minute})
	go m.srv.Serve(ln)
	return m, nil
}

// OpenAIURL and AnthropicURL are the base URLs to hand to a client.
func (m *Meter) OpenAIURL() string    { return m.url + "/openai" }
func (m *Meter) AnthropicURL() string { return m.url + "/anthropic" }

// Usage returns the tokens counted so far and how many responses reported
// usage.
func (m *Meter) Usage() (in, out int64, responses int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.in, m.out, m.responses
}

func (m *Meter) add(in, out int64, ok bool) {
	if !ok {
		return
	}
	m.mu.Lock()
	m.in += in
	m.out += out
	m.responses++
	m.mu.Unlock()
}

// Close stops the proxy and closes its listener.
func (m *Meter) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := m.srv.Shutdown(ctx)
	// Shutdown closes the listener only once Serve has taken it up.
	m.ln.Close()
	return err
}

// usageReader passes a response body through and reads its usage when it
// ends.
type usageReader struct {
	rc   io.ReadCloser
	sse  bool
	buf  bytes.Buffer
	once sync.Once
	done func(in, out int64, ok bool)
}

const maxMetered = 32 << 20

func (u *usageReader) Read(p []byte) (int, error) {
	n, err := u.rc.Read(p)
	if n > 0 && u.buf.Len() < maxMetered {
		u.buf.Write(p[:n])
	}
	if err == io.EOF {
		u.finish()
	}
	return n, err
}

func (u *usageReader) Close() error {
	u.finish()
	return u.rc.Close()
}

func (u *usageReader) finish() {
	u.once.Do(func() {
		in, out, ok := parseUsage(u.buf.Bytes(), u.sse)
		u.done(in, out, ok)
	})
}

// parseUsage reads the token usage of a model API response: a JSON body
// (OpenAI chat completions or responses, Anthropic messages) or a stream
// of server-sent events, where the largest counts seen are the totals.
func parseUsage(body []byte, sse bool) (in, out int64, ok bool) {
	if !sse {
		var v any
		if json.Unmarshal(body, &v) != nil {
			return 0, 0, false
		}
		return usageOf(v)
	}
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 1<<20), maxMetered)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		data, found := strings.CutPrefix(line, "data:")
		if !found {
			continue
		}
		var v any
		if json.Unmarshal([]byte(strings.TrimSpace(data)), &v) != nil {
			continue
		}
		if i, o, k := usageOf(v); k {
			in, out, ok = max(in, i), max(out, o), true
		}
	}
	return in, out, ok
}

// usageOf finds a usage object in a response or event: at the top, or in
// its message or response.
func usageOf(v any) (in, out int64, ok bool) {
	obj, isObj := v.(map[string]any)
	if !isObj {
		return 0, 0, false
	}
	if u, has := obj["usage"].(map[string]any); has {
		num := func(k string) int64 {
			f, _ := u[k].(float64)
			return int64(f)
		}
		_, p := u["prompt_tokens"]
		_, i := u["input_tokens"]
		_, c := u["completion_tokens"]
		_, o := u["output_tokens"]
		if p || i || c || o {
			in = num("prompt_tokens") + num("input_tokens") + num("cache_creation_input_tokens") + num("cache_read_input_tokens")
			out = num("completion_tokens") + num("output_tokens")
			return in, out, true
		}
	}
	for _, k := range []string{"message", "response", "result"} {
		if in, out, ok = usageOf(obj[k]); ok {
			return in, out, ok
		}
	}
	return 0, 0, false
}

// agentOutputUsage reads the tokens a coding agent reports in its JSON
// output: one JSON document, or JSON lines (the final result line when
// there is one, else the sum of per-turn usage).
func agentOutputUsage(stdout []byte) (in, out int64, ok bool) {
	var v any
	if json.Unmarshal(bytes.TrimSpace(stdout), &v) == nil {
		return usageOf(v)
	}
	var sumIn, sumOut int64
	found := false
	for _, line := range bytes.Split(stdout, []byte("\n")) {
		var obj map[string]any
		if json.Unmarshal(bytes.TrimSpace(line), &obj) != nil {
			continue
		}
		i, o, k := usageOf(obj)
		if !k {
			continue
		}
		if t, _ := obj["type"].(string); t == "result" {
			return i, o, true
		}
		sumIn, sumOut, found = sumIn+i, sumOut+o, true
	}
	return sumIn, sumOut, found
}
