package proxy

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// Defaults of the options.
const (
	// DefaultMaxRecord bounds the bytes of one body or event kept in a
	// trace entry; a larger one is recorded by its size and SHA-256
	// digest alone, and what passes through is never cut.
	DefaultMaxRecord = 16 << 20
	maxCard          = 1 << 20
)

// CardPaths are the paths whose answers are agent cards.
var CardPaths = []string{"/.well-known/agent-card.json", "/.well-known/agent.json"}

// exchanges numbers exchanges process-wide, so that the entries of several
// proxies writing to one Log never share an exchange number.
var exchanges atomic.Int64

// Option configures a Proxy.
type Option func(*Proxy)

// WithTransport sets the transport to the agent (default: a transport of
// the proxy's own, closed by Server.Close).
func WithTransport(rt http.RoundTripper) Option { return func(p *Proxy) { p.transport = rt } }

// WithGRPCTransport sets the transport of gRPC calls to the agent, one
// that speaks HTTP/2 (default: a cleartext HTTP/2 transport of the
// proxy's own, closed by Server.Close).
func WithGRPCTransport(rt http.RoundTripper) Option { return func(p *Proxy) { p.grpcTransport = rt } }

// WithMaxRecord bounds the bytes of one body kept in a trace entry.
func WithMaxRecord(n int) Option { return func(p *Proxy) { p.maxRecord = n } }

// WithoutCardRewrite passes agent cards through unchanged too.
func WithoutCardRewrite() Option { return func(p *Proxy) { p.rewriteCards = false } }

// WithLogger sets the logger (default: discard).
func WithLogger(l *slog.Logger) Option { return func(p *Proxy) { p.log = l } }

// WithTagHeader names a request header whose value tags every entry of the
// exchange (Entry.Tag), so that one proxy can serve several recorders — a
// runner's chains, each sending its own tag. The header is the client's
// note to the proxy and is not passed on to the agent.
func WithTagHeader(name string) Option { return func(p *Proxy) { p.tagHeader = name } }

// WithTimeouts sets the timeouts of the server Listen starts (default
// DefaultTimeouts).
func WithTimeouts(t Timeouts) Option { return func(p *Proxy) { p.timeouts = t } }

// Proxy forwards requests to one agent and records them. It is an
// http.Handler; Listen serves it on a port of its own.
type Proxy struct {
	agent        string
	upstream     *url.URL
	rec          Recorder
	transport    http.RoundTripper
	ownTransport *http.Transport
	// gRPC calls go over HTTP/2 (cleartext to an http agent).
	grpcTransport http.RoundTripper
	ownGRPC       *http.Transport
	maxRecord     int
	rewriteCards  bool
	tagHeader     string
	timeouts      Timeouts
	log           *slog.Logger
	rp            *httputil.ReverseProxy
}

// New returns a proxy for the agent at upstream, labelled agent in the
// trace, recording to rec. Only upstream's scheme and host are used:
// requests keep their path.
func New(agent, upstream string, rec Recorder, opts ...Option) (*Proxy, error) {
	u, err := url.Parse(upstream)
	if err != nil {
		return nil, fmt.Errorf("proxy %s: upstream %q: %w", agent, upstream, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("proxy %s: upstream %q is not an http(s) URL", agent, upstream)
	}
	if rec == nil {
		return nil, fmt.Errorf("proxy %s: no recorder", agent)
	}
	p := &Proxy{
		agent:        agent,
		upstream:     &url.URL{Scheme: u.Scheme, Host: u.Host},
		rec:          rec,
		maxRecord:    DefaultMaxRecord,
		rewriteCards: true,
		timeouts:     DefaultTimeouts,
	}
	for _, o := range opts {
		o(p)
	}
	if p.log == nil {
		p.log = slog.New(slog.DiscardHandler)
	}
	if p.transport == nil {
		p.ownTransport = &http.Transport{
			Proxy:                 nil, // never through an environment proxy: agents are local or named
			DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			MaxIdleConnsPerHost:   64,
			IdleConnTimeout:       90 * time.Second,
			ResponseHeaderTimeout: 0, // a skill may run long before its answer starts
			DisableCompression:    true,
		}
		p.transport = p.ownTransport
	}
	if p.grpcTransport == nil {
		p.ownGRPC = h2cTransport()
		p.grpcTransport = p.ownGRPC
	}
	p.rp = &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(p.upstream)
			pr.Out.Host = p.upstream.Host
			if p.tagHeader != "" {
				pr.Out.Header.Del(p.tagHeader)
			}
		},
		Transport:      byProtocol{rest: p.transport, grpc: p.grpcTransport},
		FlushInterval:  -1, // streamed events pass at once
		ModifyResponse: p.modifyResponse,
		ErrorHandler:   p.errorHandler,
		ErrorLog:       slog.NewLogLogger(p.log.Handler(), slog.LevelDebug),
	}
	return p, nil
}

// Agent returns the proxy's label for its agent.
func (p *Proxy) Agent() string { return p.agent }

// Upstream returns the agent's origin.
func (p *Proxy) Upstream() string { return p.upstream.String() }

// exchange is the state of one request passing through.
type exchange struct {
	id     int64
	start  time.Time
	card   bool
	origin string // the proxy's origin as the client named it
	tag    string
	grpc   protoreflect.MethodDescriptor // a gRPC call's method, when known
	// request is a large request body whose entry is recorded once it
	// has passed; the answer's entries wait for it.
	request *digestBody
}

type exchangeKey struct{}

// ServeHTTP forwards r to the agent and records the exchange.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ex := &exchange{id: exchanges.Add(1), start: time.Now()}
	ex.card = r.Method == http.MethodGet && isCardPath(r.URL.Path)
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	ex.origin = scheme + "://" + r.Host
	if p.tagHeader != "" {
		ex.tag = r.Header.Get(p.tagHeader)
	}
	e := p.entry(ex, KindRequest)
	e.HTTPMethod, e.Path = r.Method, r.URL.Path
	e.ContentType = mediaType(r.Header.Get("Content-Type"))
	if isGRPC(r) {
		p.serveGRPC(w, r, ex, e)
		return
	}
	if m := restMethod(r.Method, r.URL.Path); m != "" {
		e.Binding, e.RPCMethod = BindingREST, m
	}
	if r.Body != nil && r.Body != http.NoBody {
		// The head of the body is read to record it, then sent on ahead of
		// the rest, unchanged.
		head, err := io.ReadAll(io.LimitReader(r.Body, int64(p.maxRecord)+1))
		if err != nil {
			e.Error = "reading the request body: " + err.Error()
			p.rec.Record(e)
			http.Error(w, "bad request body", http.StatusBadRequest)
			return
		}
		e.Bytes = int64(len(head))
		if len(head) > p.maxRecord {
			// Too large to keep: the entry is recorded once the whole body
			// has passed, with its size and digest (or when the answer
			// begins, whichever comes first).
			e.Truncated = true
			if e.Binding == "" {
				e.RPCMethod, e.RPCID = peekRPCHead(head)
				if e.RPCMethod != "" {
					e.Binding = BindingJSONRPC
				}
			}
			d := &digestBody{rest: r.Body, hash: sha256.New(), n: int64(len(head))}
			d.hash.Write(head)
			d.head = bytes.NewReader(head)
			d.record = func(n int64, sum string, complete bool) {
				e.Bytes, e.Digest = n, sum
				if !complete {
					e.Bytes, e.Digest = -1, "" // the client stopped sending; the size is not known
				}
				p.rec.Record(e)
			}
			ex.request = d
			r.Body = d
			p.rp.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), exchangeKey{}, ex)))
			d.finish(false)
			return
		}
		p.setBody(&e, head)
		if e.Binding == "" {
			e.RPCMethod, e.RPCID = peekRPC(head)
			if e.RPCMethod != "" {
				e.Binding = BindingJSONRPC
			}
		}
		r.Body = struct {
			io.Reader
			io.Closer
		}{bytes.NewReader(head), r.Body}
	}
	p.rec.Record(e)
	p.rp.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), exchangeKey{}, ex)))
}

// serveGRPC forwards a gRPC call, its request message recorded on e.
func (p *Proxy) serveGRPC(w http.ResponseWriter, r *http.Request, ex *exchange, e Entry) {
	e.Binding = BindingGRPC
	_, e.RPCMethod, _ = strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	ex.grpc = grpcMethod(r.URL.Path)
	body, err := p.readGRPCRequest(&e, ex.grpc, r.Body)
	if err != nil {
		e.Error = "reading the request body: " + err.Error()
		p.rec.Record(e)
		http.Error(w, "bad request body", http.StatusBadRequest)
		return
	}
	r.Body = body
	p.rec.Record(e)
	p.rp.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), exchangeKey{}, ex)))
}

// digestBody passes a large request body on and records its entry, with
// its size and digest, once it has passed.
type digestBody struct {
	head   *bytes.Reader
	rest   io.ReadCloser
	record func(n int64, digest string, complete bool)
	once   sync.Once

	mu   sync.Mutex // the transport reads while the answer may begin
	hash hash.Hash
	n    int64
	eof  bool
}

func (d *digestBody) Read(q []byte) (int, error) {
	if d.head.Len() > 0 {
		return d.head.Read(q)
	}
	n, err := d.rest.Read(q)
	d.mu.Lock()
	if n > 0 {
		d.n += int64(n)
		d.hash.Write(q[:n])
	}
	d.eof = err == io.EOF
	d.mu.Unlock()
	if err == io.EOF {
		d.finish(true)
	}
	return n, err
}

func (d *digestBody) Close() error { return d.rest.Close() }

// finish records the request entry, once.
func (d *digestBody) finish(complete bool) {
	d.once.Do(func() {
		d.mu.Lock()
		n, sum, eof := d.n, digestOf(d.hash), d.eof
		d.mu.Unlock()
		d.record(n, sum, complete && eof)
	})
}

func digestOf(h hash.Hash) string { return "sha256:" + hex.EncodeToString(h.Sum(nil)) }

func (p *Proxy) entry(ex *exchange, kind string) Entry {
	now := time.Now()
	return Entry{
		Exchange:  ex.id,
		Tag:       ex.tag,
		Kind:      kind,
		Agent:     p.agent,
		Upstream:  p.upstream.String(),
		Time:      now.UTC(),
		ElapsedMS: float64(now.Sub(ex.start).Microseconds()) / 1000,
	}
}

// setBody stores data as Body when it is JSON, else as Text.
func (p *Proxy) setBody(e *Entry, data []byte) {
	if len(bytes.TrimSpace(data)) == 0 {
		return
	}
	if !e.Truncated && json.Valid(data) {
		e.Body = json.RawMessage(bytes.Clone(data))
		return
	}
	if utf8.Valid(data) {
		e.Text = string(data)
		return
	}
	e.Text = strings.ToValidUTF8(string(data), "\uFFFD")
}

func (p *Proxy) modifyResponse(resp *http.Response) error {
	ex, _ := resp.Request.Context().Value(exchangeKey{}).(*exchange)
	if ex == nil {
		return nil
	}
	if ex.request != nil {
		ex.request.finish(false)
	}
	ct := mediaType(resp.Header.Get("Content-Type"))
	if ex.card && p.rewriteCards && resp.StatusCode == http.StatusOK && resp.Header.Get("Content-Encoding") == "" {
		return p.rewriteCard(ex, resp, ct)
	}
	if isGRPCType(ct) {
		e := p.entry(ex, KindStream)
		e.Binding, e.Status, e.ContentType = BindingGRPC, resp.StatusCode, ct
		p.rec.Record(e)
		var out protoreflect.MessageDescriptor
		if ex.grpc != nil {
			out = ex.grpc.Output()
		}
		resp.Body = &grpcRecorder{p: p, ex: ex, resp: resp, out: out, body: resp.Body}
		return nil
	}
	if ct == "text/event-stream" {
		e := p.entry(ex, KindStream)
		e.Status, e.ContentType = resp.StatusCode, ct
		p.rec.Record(e)
		resp.Body = &sseRecorder{p: p, ex: ex, body: resp.Body}
		return nil
	}
	resp.Body = &bodyRecorder{p: p, ex: ex, body: resp.Body, status: resp.StatusCode, ct: ct, encoded: resp.Header.Get("Content-Encoding")}
	return nil
}

// rewriteCard replaces the agent's origin in a card by the proxy's.
func (p *Proxy) rewriteCard(ex *exchange, resp *http.Response, ct string) error {
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxCard+1))
	resp.Body.Close()
	e := p.entry(ex, KindResponse)
	e.Status, e.ContentType, e.Bytes = resp.StatusCode, ct, int64(len(data))
	if err != nil {
		e.Error = "reading the card: " + err.Error()
		p.rec.Record(e)
		return err
	}
	out := data
	if len(data) <= maxCard {
		out = ReplaceOrigin(data, p.upstream.String(), ex.origin)
		e.Rewritten = !bytes.Equal(out, data)
	}
	p.setBody(&e, out)
	p.rec.Record(e)
	resp.Body = io.NopCloser(bytes.NewReader(out))
	resp.ContentLength = int64(len(out))
	resp.Header.Set("Content-Length", strconv.Itoa(len(out)))
	return nil
}

func (p *Proxy) errorHandler(w http.ResponseWriter, r *http.Request, err error) {
	ex, _ := r.Context().Value(exchangeKey{}).(*exchange)
	if ex != nil && ex.request != nil {
		ex.request.finish(false)
	}
	if ex != nil {
		e := p.entry(ex, KindError)
		e.Status = http.StatusBadGateway
		e.Error = err.Error()
		if errors.Is(err, context.Canceled) {
			e.Error = "the client went away: " + err.Error()
		}
		p.rec.Record(e)
	}
	p.log.Debug("agent unreachable", "agent", p.agent, "err", err)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusBadGateway)
	fmt.Fprintf(w, "agentnet proxy: agent %s unreachable: %v\n", p.agent, err)
}

// bodyRecorder records a non-streamed answer once its body has passed.
type bodyRecorder struct {
	p       *Proxy
	ex      *exchange
	body    io.ReadCloser
	status  int
	ct      string
	encoded string
	buf     bytes.Buffer
	hash    hash.Hash // of a body larger than maxRecord, whose bytes are not kept
	n       int64
	once    sync.Once
}

func (b *bodyRecorder) Read(q []byte) (int, error) {
	n, err := b.body.Read(q)
	if n > 0 {
		b.n += int64(n)
		switch {
		case b.hash != nil:
			b.hash.Write(q[:n])
		case b.n > int64(b.p.maxRecord):
			b.hash = sha256.New()
			b.hash.Write(b.buf.Bytes())
			b.hash.Write(q[:n])
			b.buf = bytes.Buffer{}
		default:
			b.buf.Write(q[:n])
		}
	}
	if err == io.EOF {
		b.done("")
	} else if err != nil {
		b.done("reading the answer: " + err.Error())
	}
	return n, err
}

func (b *bodyRecorder) Close() error {
	b.done("closed before the end of the answer")
	return b.body.Close()
}

func (b *bodyRecorder) done(why string) {
	b.once.Do(func() {
		e := b.p.entry(b.ex, KindResponse)
		e.Status, e.ContentType, e.Bytes, e.Truncated, e.Error = b.status, b.ct, b.n, b.hash != nil, why
		switch {
		case b.hash != nil:
			e.Digest = digestOf(b.hash)
		case b.encoded != "":
			e.Text = fmt.Sprintf("[%d bytes, content-encoding %s]", b.n, b.encoded)
		default:
			b.p.setBody(&e, b.buf.Bytes())
		}
		b.p.rec.Record(e)
	})
}

// sseRecorder records each server-sent event of a stream as it passes.
type sseRecorder struct {
	p    *Proxy
	ex   *exchange
	body io.ReadCloser
	line []byte    // the current, unfinished line
	data []byte    // the data lines of the current event, while it fits maxRecord
	hash hash.Hash // of the current event's data, once it does not
	size int64     // bytes of the current event
	n    int64
	once sync.Once
}

func (s *sseRecorder) Read(q []byte) (int, error) {
	n, err := s.body.Read(q)
	if n > 0 {
		s.n += int64(n)
		s.scan(q[:n])
	}
	if err == io.EOF {
		s.done("")
	} else if err != nil {
		s.done("the stream broke: " + err.Error())
	}
	return n, err
}

func (s *sseRecorder) Close() error {
	s.done("closed by the client before the stream ended")
	return s.body.Close()
}

// scan splits the passing bytes into lines and events (the SSE format:
// "data:" lines, an empty line ends an event).
func (s *sseRecorder) scan(b []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			s.line = append(s.line, b...)
			s.size += int64(len(b))
			return
		}
		s.line = append(s.line, b[:i]...)
		s.size += int64(i + 1)
		b = b[i+1:]
		line := bytes.TrimSuffix(s.line, []byte("\r"))
		switch {
		case len(line) == 0:
			s.event()
		case bytes.HasPrefix(line, []byte("data:")):
			d := bytes.TrimPrefix(line[5:], []byte(" "))
			s.addData(d)
		}
		s.line = s.line[:0]
	}
}

// addData adds a data line to the current event: kept while the event's
// data fits maxRecord, else only hashed.
func (s *sseRecorder) addData(d []byte) {
	sep := len(s.data) > 0 || s.hash != nil
	switch {
	case s.hash != nil:
	case len(s.data)+len(d)+1 > s.p.maxRecord:
		s.hash = sha256.New()
		s.hash.Write(s.data)
		s.data = nil
	default:
		if sep {
			s.data = append(s.data, '\n')
		}
		s.data = append(s.data, d...)
		return
	}
	if sep {
		s.hash.Write([]byte{'\n'})
	}
	s.hash.Write(d)
}

func (s *sseRecorder) event() {
	if len(s.data) == 0 && s.hash == nil {
		s.size = 0
		return
	}
	e := s.p.entry(s.ex, KindEvent)
	e.Bytes = s.size
	if s.hash != nil {
		e.Truncated, e.Digest = true, digestOf(s.hash)
	} else {
		s.p.setBody(&e, s.data)
	}
	s.p.rec.Record(e)
	s.data, s.hash, s.size = s.data[:0], nil, 0
}

func (s *sseRecorder) done(why string) {
	s.once.Do(func() {
		if len(s.data) > 0 || s.hash != nil {
			s.event()
		}
		e := s.p.entry(s.ex, KindEnd)
		e.Bytes, e.Error = s.n, why
		s.p.rec.Record(e)
	})
}

// peekRPCHead reads the method and id of a JSON-RPC request from the head
// of a body too large to keep, as far as they come before its params (as
// JSON-RPC clients write them).
func peekRPCHead(head []byte) (method string, id json.RawMessage) {
	dec := json.NewDecoder(bytes.NewReader(head))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", nil
	}
	for dec.More() && (method == "" || id == nil) {
		k, err := dec.Token()
		key, ok := k.(string)
		if err != nil || !ok {
			break
		}
		switch key {
		case "method":
			if dec.Decode(&method) != nil {
				return "", nil
			}
		case "id":
			var raw json.RawMessage
			if dec.Decode(&raw) != nil {
				return "", nil
			}
			id = raw
		case "jsonrpc":
			var v string
			if dec.Decode(&v) != nil {
				return "", nil
			}
		default:
			// Anything else (the params) ends the peek: reading past it
			// would hold the body.
			return method, id
		}
	}
	return method, id
}

// peekRPC reads the method and id of a JSON-RPC request body.
func peekRPC(body []byte) (string, json.RawMessage) {
	var req struct {
		Method string          `json:"method"`
		ID     json.RawMessage `json:"id"`
	}
	if json.Unmarshal(body, &req) != nil {
		return "", nil
	}
	return req.Method, req.ID
}

func mediaType(ct string) string {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return strings.TrimSpace(ct)
	}
	return mt
}

func isCardPath(p string) bool {
	for _, c := range CardPaths {
		if strings.HasSuffix(p, c) {
			return true
		}
	}
	return false
}

// ReplaceOrigin replaces every occurrence of the origin from (such as
// "http://127.0.0.1:9001") in data by to, where it stands as a whole origin:
// followed by a slash, a quote, a backslash or the end, never by more
// digits of a longer port.
func ReplaceOrigin(data []byte, from, to string) []byte {
	f := []byte(strings.TrimSuffix(from, "/"))
	t := []byte(strings.TrimSuffix(to, "/"))
	if len(f) == 0 || bytes.Equal(f, t) {
		return data
	}
	var out []byte
	rest := data
	for {
		i := bytes.Index(rest, f)
		if i < 0 {
			break
		}
		end := i + len(f)
		if end < len(rest) {
			switch rest[end] {
			case '/', '"', '\\', '?', '#':
			default:
				out = append(out, rest[:end]...)
				rest = rest[end:]
				continue
			}
		}
		out = append(out, rest[:i]...)
		out = append(out, t...)
		rest = rest[end:]
	}
	if out == nil {
		return data
	}
	return append(out, rest...)
}
