package proxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/agentnet/agentnet/internal/httptimeout"
)

// Server is a Proxy listening on a port of its own.
type Server struct {
	// URL is the proxy's origin, e.g. "http://127.0.0.1:41234".
	URL  string
	p    *Proxy
	srv  *http.Server
	done chan struct{}
}

// Timeouts bound how long one client connection may hold the proxy (see
// httptimeout.Timeouts): a stream lasts as long as it is read.
type Timeouts = httptimeout.Timeouts

// DefaultTimeouts are a proxy server's timeouts unless WithTimeouts says
// otherwise.
var DefaultTimeouts = httptimeout.Default

// withDeadlines lifts the server's read deadline once a request's body is
// read (left in place it would cancel an exchange still being answered)
// and gives every write of the answer d to complete.
func withDeadlines(next http.Handler, d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if r.Body == nil || r.Body == http.NoBody {
			_ = rc.SetReadDeadline(time.Time{})
		} else {
			r.Body = &liftOnEOF{ReadCloser: r.Body, rc: rc}
		}
		if d > 0 {
			w = httptimeout.Writer(w, d)
		}
		next.ServeHTTP(w, r)
	})
}

// liftOnEOF lifts the connection's read deadline when the body ends.
type liftOnEOF struct {
	io.ReadCloser
	rc *http.ResponseController
}

func (b *liftOnEOF) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		_ = b.rc.SetReadDeadline(time.Time{})
	}
	return n, err
}

// ShutdownTimeout bounds how long Close waits for exchanges in flight
// before it cuts them.
const ShutdownTimeout = 2 * time.Second

// Listen serves the proxy on addr (such as "127.0.0.1:0") until Close.
func (p *Proxy) Listen(addr string) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("proxy %s: listen on %s: %w", p.agent, addr, err)
	}
	s := &Server{
		URL: "http://" + ln.Addr().String(),
		p:   p,
		srv: &http.Server{
			Handler:           withDeadlines(p, p.timeouts.Write),
			ReadHeaderTimeout: p.timeouts.Header,
			ReadTimeout:       p.timeouts.Read,
			IdleTimeout:       p.timeouts.Idle,
		},
		done: make(chan struct{}),
	}
	// gRPC reaches the proxy as cleartext HTTP/2 on the same port.
	s.srv.Protocols = new(http.Protocols)
	s.srv.Protocols.SetHTTP1(true)
	s.srv.Protocols.SetUnencryptedHTTP2(true)
	go func() {
		defer close(s.done)
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			p.log.Warn("proxy stopped", "agent", p.agent, "err", err)
		}
	}()
	return s, nil
}

// Proxy returns the served proxy.
func (s *Server) Proxy() *Proxy { return s.p }

// Close stops the server: it drains exchanges in flight for up to
// ShutdownTimeout, cuts the rest, and closes the proxy's own connections to
// the agent. It is safe to call more than once.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if err != nil {
		err = s.srv.Close()
	}
	<-s.done
	s.p.closeIdle()
	return err
}

// CloseNow stops the server at once, cutting exchanges in flight.
func (s *Server) CloseNow() error {
	err := s.srv.Close()
	<-s.done
	s.p.closeIdle()
	return err
}

// closeIdle closes the proxy's own idle connections to the agent.
func (p *Proxy) closeIdle() {
	if p.ownTransport != nil {
		p.ownTransport.CloseIdleConnections()
	}
	if p.ownGRPC != nil {
		p.ownGRPC.CloseIdleConnections()
	}
}
