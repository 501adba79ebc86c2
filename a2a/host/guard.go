package host

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// The HTTP checks every request passes before any handler reads it, in
// order: the Host header names an address the host serves on (so that a
// web page whose name was rebound to this machine reaches nothing); a
// browser's Origin, when sent, is the host's own or the one allowed with
// WithCORS; a gRPC call (HTTP/2, application/grpc) then goes to the gRPC
// server, which bounds each message by WithMaxBody and its nesting by
// WithMaxDepth; any other POST with a body carries application/json (a
// page's form can send only text/plain or form data without a preflight);
// and its body is at most WithMaxBody bytes and nests JSON at most
// WithMaxDepth deep, both checked on the raw bytes before any JSON decoder
// sees them. Refusals take the form of the binding asked: JSON-RPC errors
// at "/" and /mcp, HTTP+JSON (AIP-193) errors on the REST paths.
type guard struct {
	hosts    map[string]bool // "host:port", lower case
	cors     string          // the one origin allowed from another site, or ""
	maxBody  int64
	maxDepth int
	next     http.Handler
	grpc     http.Handler // the gRPC binding, or nil
}

// bufferedBody is a request body the guard has already read; handlers
// downstream take its bytes without copying them again.
type bufferedBody struct {
	*bytes.Reader
	data []byte
}

func (bufferedBody) Close() error { return nil }

// bodyBytes returns the bytes of a request body the guard read, or reads it.
func bodyBytes(r *http.Request) ([]byte, error) {
	if b, ok := r.Body.(bufferedBody); ok {
		return b.data, nil
	}
	return io.ReadAll(r.Body)
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !g.hosts[canonicalHost(r.Host, r.TLS != nil)] {
		http.Error(w, fmt.Sprintf("Forbidden: this agent is not served as %q (see --allow-host)", r.Host), http.StatusForbidden)
		return
	}
	if o := r.Header.Get("Origin"); o != "" && !g.originAllowed(o) {
		http.Error(w, fmt.Sprintf("Forbidden: requests from %q are not allowed (see --cors)", o), http.StatusForbidden)
		return
	}
	if g.cors != "" && r.Header.Get("Origin") == g.cors {
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", g.cors)
		h.Add("Vary", "Origin")
		if r.Method == http.MethodOptions {
			h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS")
			h.Set("Access-Control-Allow-Headers", "Content-Type, Accept, A2A-Version, A2A-Extensions, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID")
			h.Set("Access-Control-Expose-Headers", "Mcp-Session-Id")
			w.WriteHeader(http.StatusNoContent)
			return
		}
	}
	if g.grpc != nil && isGRPC(r) {
		// Its messages are bounded by the gRPC server (WithMaxBody, and
		// their nesting by WithMaxDepth) as they are read.
		endReadDeadline(w)
		g.grpc.ServeHTTP(w, r)
		return
	}
	if r.Method != http.MethodPost || r.ContentLength == 0 && r.Header.Get("Content-Type") == "" {
		// A POST without a body (an HTTP+JSON cancel or subscribe) carries
		// nothing to check.
		endReadDeadline(w)
		g.next.ServeHTTP(w, r)
		return
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		w.Header().Set("Accept-Post", "application/json")
		refuse(w, r, http.StatusUnsupportedMediaType, http.StatusUnsupportedMediaType, -32600, fmt.Sprintf("Content-Type %q: requests must be application/json", r.Header.Get("Content-Type")))
		return
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, g.maxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			refuse(w, r, http.StatusOK, http.StatusRequestEntityTooLarge, -32600, fmt.Sprintf("request body larger than %d bytes", g.maxBody))
			return
		}
		refuse(w, r, http.StatusOK, http.StatusBadRequest, -32700, "the request body could not be read")
		return
	}
	if depth := jsonDepth(data, g.maxDepth); depth > g.maxDepth {
		refuse(w, r, http.StatusOK, http.StatusBadRequest, -32600, fmt.Sprintf("JSON nested deeper than %d levels", g.maxDepth))
		return
	}
	endReadDeadline(w)
	r.Body = bufferedBody{Reader: bytes.NewReader(data), data: data}
	g.next.ServeHTTP(w, r)
}

// originAllowed reports whether a browser page at origin o may call: it is
// the origin allowed with WithCORS, or the host's own.
func (g *guard) originAllowed(o string) bool {
	if g.cors != "" && o == g.cors {
		return true
	}
	u, err := url.Parse(o)
	if err != nil || u.Host == "" {
		return false // "null" (a sandboxed page, a file) and malformed origins
	}
	return g.hosts[canonicalHost(u.Host, u.Scheme == "https")]
}

// jsonDepth returns how deep data nests arrays and objects, counting no
// further than max+1: a linear scan of the raw bytes that skips strings
// (with bytes.IndexByte, so that a file's base64 costs little).
func jsonDepth(data []byte, max int) int {
	depth, deepest := 0, 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			i = stringEnd(data, i+1)
		case '[', '{':
			depth++
			if depth > deepest {
				deepest = depth
				if deepest > max {
					return deepest
				}
			}
		case ']', '}':
			depth--
		}
	}
	return deepest
}

// stringEnd returns the index of the quote that closes the string whose
// contents start at i (len(data) when none does): the first quote not
// escaped by an odd run of backslashes.
func stringEnd(data []byte, i int) int {
	for {
		q := bytes.IndexByte(data[i:], '"')
		if q < 0 {
			return len(data)
		}
		j := i + q
		n := 0
		for k := j - 1; k >= i && data[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return j
		}
		i = j + 1
	}
}

// canonicalHost lower-cases a Host header (or an origin's host) and gives it
// its port: "Example.com" → "example.com:80".
func canonicalHost(h string, tls bool) string {
	h = strings.ToLower(strings.TrimSpace(h))
	if _, _, err := net.SplitHostPort(h); err == nil {
		return h
	}
	if strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") || !strings.Contains(h, ":") {
		if tls {
			return net.JoinHostPort(strings.Trim(h, "[]"), "443")
		}
		return net.JoinHostPort(strings.Trim(h, "[]"), "80")
	}
	return h
}

// allowedHosts returns the Host headers a host reached at cardURL answers:
// the URL's host and port and each of extra ("host:port"; a bare name means
// port 80), with every loopback name at the same port for a loopback or
// unspecified address.
func allowedHosts(cardURL string, extra []string) map[string]bool {
	set := map[string]bool{}
	if u, err := url.Parse(cardURL); err == nil && u.Host != "" {
		addAddress(set, canonicalHost(u.Host, u.Scheme == "https"))
	}
	for _, e := range extra {
		addAddress(set, canonicalHost(e, false))
	}
	return set
}

// addAddress adds host:port, and for a loopback or unspecified address
// every loopback name at the same port.
func addAddress(set map[string]bool, hostport string) {
	set[hostport] = true
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return
	}
	ip := net.ParseIP(host)
	if host == "localhost" || ip != nil && (ip.IsLoopback() || ip.IsUnspecified()) {
		for _, name := range []string{"localhost", "127.0.0.1", "::1"} {
			set[net.JoinHostPort(name, port)] = true
		}
	}
}

// loopbackOnly reports whether every one of hosts is a loopback (or
// unspecified) address or localhost.
func loopbackOnly(hosts []string) bool {
	for _, h := range hosts {
		name, _, err := net.SplitHostPort(canonicalHost(h, false))
		if err != nil {
			return false
		}
		ip := net.ParseIP(name)
		if name != "localhost" && (ip == nil || !ip.IsLoopback() && !ip.IsUnspecified()) {
			return false
		}
	}
	return true
}

// refuse answers a request the guard refuses in its binding's form: an
// HTTP+JSON path gets an AIP-193 error with restStatus, anything else (the
// JSON-RPC endpoint, MCP) a JSON-RPC error with rpcStatus and code.
func refuse(w http.ResponseWriter, r *http.Request, rpcStatus, restStatus, code int, msg string) {
	if !isRESTPath(r.URL.Path) {
		writeRPCErrorStatus(w, rpcStatus, code, msg)
		return
	}
	status := "INVALID_ARGUMENT"
	if restStatus == http.StatusUnsupportedMediaType {
		status = "UNIMPLEMENTED"
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(restStatus)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"code": restStatus, "status": status, "message": msg}})
}

func writeRPCErrorStatus(w http.ResponseWriter, status, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": code, "message": msg}})
}
