// Package binding names the three A2A 1.0 protocol bindings — JSON-RPC,
// HTTP+JSON (REST) and gRPC — and makes a2a-go/v2 clients that speak the
// one chosen:
//
//	b, err := binding.Parse("grpc")
//	client, err := a2aclient.NewFromCard(ctx, card, binding.ClientOptions(b, httpClient)...)
//
// A card lists each binding in supportedInterfaces with an http(s) URL; for
// gRPC the URL's host and port are dialled (cleartext HTTP/2 for http,
// TLS for https), as the agents agentnet hosts serve all three bindings
// on one port. a2a-go's own gRPC transport dials the URL string as a gRPC
// target, which fails for an http URL; Target converts it.
package binding

import (
	"context"
	"crypto/tls"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	a2agrpc "github.com/a2aproject/a2a-go/v2/a2agrpc/v1"
	a2apb "github.com/a2aproject/a2a-go/v2/a2apb/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
)

// Binding is an A2A protocol binding as commands and results name it.
type Binding string

// The bindings.
const (
	JSONRPC Binding = "jsonrpc"
	REST    Binding = "rest"
	GRPC    Binding = "grpc"
)

// All are the bindings in the order commands list them.
var All = []Binding{JSONRPC, REST, GRPC}

// Parse reads a binding's name; "" is JSONRPC.
func Parse(s string) (Binding, error) {
	switch b := Binding(strings.ToLower(strings.TrimSpace(s))); b {
	case "":
		return JSONRPC, nil
	case JSONRPC, REST, GRPC:
		return b, nil
	}
	return "", fmt.Errorf("binding %q: want jsonrpc, rest or grpc", s)
}

// Protocol is the binding's protocolBinding on a card.
func (b Binding) Protocol() a2a.TransportProtocol {
	switch b {
	case REST:
		return a2a.TransportProtocolHTTPJSON
	case GRPC:
		return a2a.TransportProtocolGRPC
	}
	return a2a.TransportProtocolJSONRPC
}

// MaxMessage bounds a gRPC message a client takes (gRPC's default is 4 MiB,
// less than the files an answer may carry).
const MaxMessage = 256 << 20

// ClientOptions are the a2aclient factory options of a client that speaks b
// only: JSON-RPC in A2A 1.0 and 0.3, HTTP+JSON, or gRPC. hc carries the
// HTTP requests of JSON-RPC and HTTP+JSON (nil: a2a-go's default). A gRPC
// client takes its connection from conns, which keeps it for the next
// client to the same target; with conns nil it dials its own, closed by
// the client's Destroy.
func ClientOptions(b Binding, hc *http.Client, conns *Conns) []a2aclient.FactoryOption {
	opts := []a2aclient.FactoryOption{a2aclient.WithDefaultsDisabled()}
	switch b {
	case REST:
		return append(opts, a2aclient.WithRESTTransport(hc))
	case GRPC:
		return append(opts, a2aclient.WithTransport(a2a.TransportProtocolGRPC, a2aclient.TransportFactoryFn(
			func(ctx context.Context, _ *a2a.AgentCard, iface *a2a.AgentInterface) (a2aclient.Transport, error) {
				if conns != nil {
					conn, err := conns.Get(iface.URL)
					if err != nil {
						return nil, err
					}
					return a2agrpc.NewGRPCTransportFromClient(a2apb.NewA2AServiceClient(conn)), nil
				}
				conn, err := Dial(iface.URL)
				if err != nil {
					return nil, err
				}
				return a2agrpc.NewGRPCTransport(conn), nil
			})))
	}
	return append(opts, a2aclient.WithJSONRPCTransport(hc),
		a2aclient.WithCompatTransport(a2av0.Version, a2a.TransportProtocolJSONRPC, a2av0.NewJSONRPCTransportFactory(a2av0.JSONRPCTransportConfig{Client: hc})))
}

// Dial returns a gRPC client connection to the interface at rawURL: an
// http(s) URL (its host and port; cleartext HTTP/2 for http, TLS for
// https) or a bare gRPC target ("host:port", "dns:///host:port") as
// a2a-go's examples write them. opts come after the defaults.
func Dial(rawURL string, opts ...grpc.DialOption) (*grpc.ClientConn, error) {
	target, secure, err := Target(rawURL)
	if err != nil {
		return nil, err
	}
	creds := insecure.NewCredentials()
	if secure {
		creds = credentials.NewTLS(&tls.Config{MinVersion: tls.VersionTLS12})
	}
	all := append([]grpc.DialOption{
		grpc.WithTransportCredentials(creds),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(MaxMessage), grpc.MaxCallSendMsgSize(math.MaxInt32)),
	}, opts...)
	return grpc.NewClient(target, all...)
}

// Target returns the gRPC target of an interface URL and whether it is
// reached over TLS: "http://127.0.0.1:8080/" → "127.0.0.1:8080", false. A
// URL's path is dropped (gRPC's paths are its methods'); a string that is
// no http(s) URL is taken as a gRPC target as it is.
func Target(rawURL string) (target string, secure bool, err error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" {
		if strings.TrimSpace(rawURL) == "" {
			return "", false, fmt.Errorf("empty gRPC interface URL")
		}
		return rawURL, false, nil
	}
	if u.Host == "" {
		return "", false, fmt.Errorf("gRPC interface URL %q has no host", rawURL)
	}
	port := u.Port()
	if port == "" {
		port = map[bool]string{false: "80", true: "443"}[u.Scheme == "https"]
	}
	return net.JoinHostPort(u.Hostname(), port), u.Scheme == "https", nil
}

// Conns keeps one gRPC client connection per target, for the clients of
// many calls; Close closes them. The zero Conns dials with Dial's defaults;
// Opts are added to them. It is safe for concurrent use.
type Conns struct {
	Opts []grpc.DialOption

	mu sync.Mutex
	m  map[string]*grpc.ClientConn
}

// Get returns the connection to the interface at rawURL, dialling it on
// first use.
func (c *Conns) Get(rawURL string) (*grpc.ClientConn, error) {
	target, secure, err := Target(rawURL)
	if err != nil {
		return nil, err
	}
	key := fmt.Sprint(secure, " ", target)
	c.mu.Lock()
	defer c.mu.Unlock()
	if conn, ok := c.m[key]; ok {
		return conn, nil
	}
	conn, err := Dial(rawURL, c.Opts...)
	if err != nil {
		return nil, err
	}
	if c.m == nil {
		c.m = map[string]*grpc.ClientConn{}
	}
	c.m[key] = conn
	return conn, nil
}

// Close closes every connection.
func (c *Conns) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, conn := range c.m {
		conn.Close()
		delete(c.m, k)
	}
	return nil
}
