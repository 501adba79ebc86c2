package registry

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/agentnet/agentnet/cards"
)

// CardsValidator is the registry's card check: the cards package's strict
// schema and lint, and its parser (which reads 1.0 and 0.3 cards).
var CardsValidator = CardValidatorFunc(func(data []byte) (*a2a.AgentCard, []string) {
	var probs []string
	for _, p := range cards.Validate(data) {
		probs = append(probs, p.String())
	}
	card, err := cards.Parse(data)
	if err != nil {
		if len(probs) == 0 {
			probs = append(probs, err.Error())
		}
		return nil, probs
	}
	return card, probs
})

// ServerConfig configures Start.
type ServerConfig struct {
	Addr  string // listen address; port 0 picks a free port
	DB    string // the SQLite file (created, its directory too), or a postgres:// URL
	Token string // bearer token for writes and for fetch-error detail; "" for none
	// DenyPrivate refuses card fetches from non-public addresses
	// (WithDenyPrivate).
	DenyPrivate bool
	// TrustedKeys, when set, are the only keys card signatures verify
	// against (WithTrustedKeys); RequireSigned refuses unsigned cards.
	TrustedKeys   *cards.TrustedKeys
	RequireSigned bool
	Logger        *slog.Logger
	Prober        []ProberOption
}

// Server is a running registry: store, service, health prober and HTTP
// server, started in that order by Start and stopped in reverse by Close.
type Server struct {
	// URL is the registry's base URL, without a trailing slash.
	URL string

	store      Store
	srv        *http.Server
	stopProber context.CancelFunc
	proberDone chan struct{}
	served     chan error
}

// Start opens the store (Open: SQLite, or PostgreSQL for a postgres:// URL)
// and starts serving. The registry runs until Close;
// ctx bounds only the start.
func Start(ctx context.Context, cfg ServerConfig) (*Server, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if dir := filepath.Dir(cfg.DB); dir != "" && !IsPostgresURL(cfg.DB) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("registry: %w", err)
		}
	}
	store, err := Open(ctx, cfg.DB)
	if err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		store.Close()
		return nil, &ListenError{Addr: cfg.Addr, Err: err}
	}
	svc := NewService(store, CardsValidator, WithLogger(cfg.Logger), WithDenyPrivate(cfg.DenyPrivate),
		WithTrustedKeys(cfg.TrustedKeys), WithRequireSigned(cfg.RequireSigned))
	s := &Server{
		URL:   advertisedURL(ln.Addr().(*net.TCPAddr)),
		store: store,
		srv: &http.Server{
			Handler:           NewHandler(svc, WithToken(cfg.Token)),
			ReadHeaderTimeout: 10 * time.Second,
			ReadTimeout:       30 * time.Second,
			WriteTimeout:      60 * time.Second,
			IdleTimeout:       2 * time.Minute,
			MaxHeaderBytes:    64 << 10,
		},
		proberDone: make(chan struct{}),
		served:     make(chan error, 1),
	}
	pctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	s.stopProber = stop
	go func() {
		defer close(s.proberDone)
		NewProber(svc, cfg.Prober...).Run(pctx)
	}()
	go func() { s.served <- s.srv.Serve(ln) }()
	cfg.Logger.Info("registry serving", "url", s.URL, "db", RedactDB(cfg.DB), "auth", cfg.Token != "", "deny_private", cfg.DenyPrivate,
		"require_signed", cfg.RequireSigned, "trusted_keys", cfg.TrustedKeys.Len())
	return s, nil
}

// Done delivers the error that stopped the HTTP server, should it stop
// before Close.
func (s *Server) Done() <-chan error { return s.served }

// Close stops the prober, drains the HTTP server (5 s at most) and closes
// the store.
func (s *Server) Close() error {
	s.stopProber()
	<-s.proberDone
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = nil
	}
	if cerr := s.store.Close(); err == nil {
		err = cerr
	}
	return err
}

// ListenError is returned when the registry cannot listen on its address.
type ListenError struct {
	Addr string
	Err  error
}

func (e *ListenError) Error() string { return fmt.Sprintf("listen on %s: %v", e.Addr, e.Err) }
func (e *ListenError) Unwrap() error { return e.Err }

// advertisedURL is the URL a caller can reach a listener at: never the
// unspecified address.
func advertisedURL(a *net.TCPAddr) string {
	ip := a.IP
	if ip == nil || ip.IsUnspecified() {
		ip = net.IPv4(127, 0, 0, 1)
	}
	return "http://" + net.JoinHostPort(ip.String(), fmt.Sprint(a.Port))
}
