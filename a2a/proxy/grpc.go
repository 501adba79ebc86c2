package proxy

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "github.com/a2aproject/a2a-go/v2/a2apb/v1" // registers the A2A service, so that its messages decode
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"
)

// gRPC passes through the proxy as HTTP/2 (cleartext to an http agent):
// frames and trailers unchanged. Its messages are recorded as JSON (the
// protobuf JSON mapping, through the descriptors of the services linked
// into the program, A2A's among them): the request's one message on the
// request entry, each answer message as an event, and the call's
// grpc-status on the end entry.

// Bindings as trace entries name them.
const (
	BindingJSONRPC = "jsonrpc"
	BindingREST    = "rest"
	BindingGRPC    = "grpc"
)

// isGRPC reports whether r is a gRPC call.
func isGRPC(r *http.Request) bool {
	return r.ProtoMajor == 2 && isGRPCType(r.Header.Get("Content-Type"))
}

func isGRPCType(ct string) bool {
	mt, _, _ := mime.ParseMediaType(ct)
	return mt == "application/grpc" || strings.HasPrefix(mt, "application/grpc+")
}

// h2cTransport returns a transport that speaks cleartext HTTP/2 to http
// agents (and HTTP/2 over TLS to https ones), for gRPC.
func h2cTransport() *http.Transport {
	t := &http.Transport{
		Proxy:               nil,
		DialContext:         (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:   true,
		MaxIdleConnsPerHost: 64,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
		Protocols:           new(http.Protocols),
	}
	t.Protocols.SetUnencryptedHTTP2(true)
	t.Protocols.SetHTTP2(true)
	return t
}

// byProtocol sends gRPC calls through grpc and everything else through
// rest.
type byProtocol struct{ rest, grpc http.RoundTripper }

func (b byProtocol) RoundTrip(r *http.Request) (*http.Response, error) {
	if isGRPC(r) {
		return b.grpc.RoundTrip(r)
	}
	return b.rest.RoundTrip(r)
}

// grpcMethod returns the descriptor of the method a gRPC path names
// ("/a2a.v1.A2AService/SendMessage"), or nil for a service the program
// does not know.
func grpcMethod(path string) protoreflect.MethodDescriptor {
	svc, method, ok := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	if !ok {
		return nil
	}
	d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(svc))
	if err != nil {
		return nil
	}
	sd, ok := d.(protoreflect.ServiceDescriptor)
	if !ok {
		return nil
	}
	return sd.Methods().ByName(protoreflect.Name(method))
}

// grpcJSON returns a gRPC message as JSON when md describes it and it is
// not compressed; ok is false otherwise.
func grpcJSON(md protoreflect.MessageDescriptor, compressed bool, data []byte) ([]byte, bool) {
	if md == nil || compressed {
		return nil, false
	}
	m := dynamicpb.NewMessage(md)
	if proto.Unmarshal(data, m) != nil {
		return nil, false
	}
	out, err := protojson.Marshal(m)
	return out, err == nil
}

// setGRPCBody records one gRPC message on e: as JSON when it decodes, else
// as a note of its size.
func (p *Proxy) setGRPCBody(e *Entry, md protoreflect.MessageDescriptor, compressed bool, data []byte, size int) {
	e.Bytes = int64(size)
	if !e.Truncated {
		if js, ok := grpcJSON(md, compressed, data); ok {
			p.setBody(e, js)
			return
		}
	}
	how := "protobuf"
	if compressed {
		how = "compressed"
	}
	e.Text = fmt.Sprintf("[gRPC message, %d bytes, %s]", size, how)
}

// readGRPCRequest reads the request's first gRPC message (the only one of
// an A2A call) to record it, and returns the body to forward: those bytes
// and the rest, unchanged.
func (p *Proxy) readGRPCRequest(e *Entry, md protoreflect.MethodDescriptor, body io.ReadCloser) (io.ReadCloser, error) {
	var hdr [5]byte
	n, err := io.ReadFull(body, hdr[:])
	if err == io.EOF {
		return body, nil // no message
	}
	if err != nil {
		return nil, err
	}
	size := int(binary.BigEndian.Uint32(hdr[1:]))
	keep := min(size, p.maxRecord)
	// Read as it comes rather than sized by the header, which the client
	// wrote: a false length costs nothing.
	msg, err := io.ReadAll(io.LimitReader(body, int64(keep)))
	if err != nil {
		return nil, err
	}
	e.Truncated = keep < size
	var in protoreflect.MessageDescriptor
	if md != nil {
		in = md.Input()
	}
	p.setGRPCBody(e, in, hdr[0]&1 == 1, msg, size)
	head := append(hdr[:n:n], msg...)
	return struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), body), body}, nil
}

// grpcRecorder records each gRPC message of an answer as it passes, and the
// call's status when it ends.
type grpcRecorder struct {
	p    *Proxy
	ex   *exchange
	resp *http.Response
	out  protoreflect.MessageDescriptor
	body io.ReadCloser

	hdr  []byte // the current message's header, while incomplete
	msg  []byte // the kept bytes of the current message
	left int    // bytes of the current message still to come
	size int    // the current message's size
	n    int64
	once sync.Once
}

func (g *grpcRecorder) Read(q []byte) (int, error) {
	n, err := g.body.Read(q)
	if n > 0 {
		g.n += int64(n)
		g.scan(q[:n])
	}
	if err == io.EOF {
		g.done("")
	} else if err != nil {
		g.done("the call broke: " + err.Error())
	}
	return n, err
}

func (g *grpcRecorder) Close() error {
	g.done("closed by the client before the call ended")
	return g.body.Close()
}

// scan splits the passing bytes into length-prefixed messages.
func (g *grpcRecorder) scan(b []byte) {
	for len(b) > 0 {
		if g.left == 0 && len(g.hdr) < 5 {
			k := min(5-len(g.hdr), len(b))
			g.hdr, b = append(g.hdr, b[:k]...), b[k:]
			if len(g.hdr) < 5 {
				return
			}
			g.size = int(binary.BigEndian.Uint32(g.hdr[1:]))
			g.left, g.msg = g.size, g.msg[:0]
			if g.left == 0 {
				g.message()
			}
			continue
		}
		k := min(g.left, len(b))
		if room := g.p.maxRecord - len(g.msg); room > 0 {
			g.msg = append(g.msg, b[:min(k, room)]...)
		}
		g.left -= k
		b = b[k:]
		if g.left == 0 {
			g.message()
		}
	}
}

func (g *grpcRecorder) message() {
	e := g.p.entry(g.ex, KindEvent)
	e.Binding = BindingGRPC
	e.Truncated = g.size > len(g.msg)
	g.p.setGRPCBody(&e, g.out, g.hdr[0]&1 == 1, g.msg, g.size)
	g.p.rec.Record(e)
	g.hdr = g.hdr[:0]
}

func (g *grpcRecorder) done(why string) {
	g.once.Do(func() {
		e := g.p.entry(g.ex, KindEnd)
		e.Binding, e.Bytes, e.Error = BindingGRPC, g.n, why
		// A call's status comes in its trailers, or in the headers of an
		// answer that has no message.
		st, msg := g.resp.Trailer.Get("Grpc-Status"), g.resp.Trailer.Get("Grpc-Message")
		if st == "" {
			st, msg = g.resp.Header.Get("Grpc-Status"), g.resp.Header.Get("Grpc-Message")
		}
		if code, err := strconv.Atoi(st); err == nil && why == "" {
			e.GRPCStatus = &code
			if code != 0 {
				e.Error = fmt.Sprintf("gRPC %s: %s", codes.Code(code), decodeGRPCMessage(msg))
			}
		} else if why == "" {
			e.Error = "the call ended without a grpc-status"
		}
		g.p.rec.Record(e)
	})
}

// decodeGRPCMessage undoes the percent-encoding of grpc-message.
func decodeGRPCMessage(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(v))
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// restMethods name the A2A operation of an HTTP+JSON request by its method
// and the end of its path, so that a trace reads alike for every binding.
func restMethod(method, path string) string {
	i := strings.LastIndex(path, "/message:")
	if i >= 0 && method == http.MethodPost {
		switch path[i:] {
		case "/message:send":
			return "SendMessage"
		case "/message:stream":
			return "SendStreamingMessage"
		}
	}
	if strings.HasSuffix(path, "/extendedAgentCard") {
		return "GetExtendedAgentCard"
	}
	i = strings.LastIndex(path, "/tasks")
	if i < 0 {
		return ""
	}
	rest := path[i+len("/tasks"):]
	switch {
	case rest == "" || rest == "/":
		return "ListTasks"
	case strings.Contains(rest, "/pushNotificationConfigs"):
		return map[string]string{http.MethodPost: "CreateTaskPushNotificationConfig", http.MethodGet: "GetTaskPushNotificationConfig",
			http.MethodDelete: "DeleteTaskPushNotificationConfig"}[method]
	case strings.HasSuffix(rest, ":cancel"):
		return "CancelTask"
	case strings.HasSuffix(rest, ":subscribe"):
		return "SubscribeToTask"
	case method == http.MethodGet:
		return "GetTask"
	}
	return ""
}
