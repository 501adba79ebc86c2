package proxy

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// Server is a Proxy listening on a port of its own.
type Server struct {
	// URL is the proxy's origin, e.g. "http://127.0.0.1:41234".
	URL  string
	p    *Proxy
	srv  *http.Server
	done chan struct{}
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
		URL:  "http://" + ln.Addr().String(),
		p:    p,
		srv:  &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second},
		done: make(chan struct{}),
	}
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
	if s.p.ownTransport != nil {
		s.p.ownTransport.CloseIdleConnections()
	}
	return err
}

// CloseNow stops the server at once, cutting exchanges in flight.
func (s *Server) CloseNow() error {
	err := s.srv.Close()
	<-s.done
	if s.p.ownTransport != nil {
		s.p.ownTransport.CloseIdleConnections()
	}
	return err
}
