package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/cards"
	"github.com/agentnet/agentnet/internal/proc"
)

// DefaultReadyTimeout bounds the wait for the card of a bundle's own server.
const DefaultReadyTimeout = 60 * time.Second

// maxCard bounds the size of a card read from a bundle's own server.
const maxCard = 4 << 20

// ownServer is the A2A server a bundle with serve brings: a child process
// in a process group of its own, listening on a loopback port, behind the
// host's card handler and reverse proxy.
type ownServer struct {
	h        *Host
	argv     []string
	origin   string // "http://127.0.0.1:PORT", where the server listens
	port     int
	cardPath string // the path the server answers its card at
	client   *http.Client
	proxy    *httputil.ReverseProxy
	output   *syncTail // the tail of the server's standard error and output

	pid     int
	group   *proc.Group   // every process the server starts, daemonised ones too
	done    chan struct{} // closed once the server has exited
	exitErr error         // why it exited; set before done is closed

	mu      sync.Mutex
	closing bool
}

// startOwn starts the bundle's server and waits, bounded by ctx and the
// ready timeout, until it answers its card. On error nothing is left
// running.
func (h *Host) startOwn(ctx context.Context) (*ownServer, error) {
	port, err := FreePort()
	if err != nil {
		return nil, err
	}
	repo := h.b.RepoDir()
	argv, err := bundle.Expand(h.b.Serve, bundle.Vars{Repo: repo, Bundle: h.b.AbsDir(), Port: port}, nil)
	if err != nil {
		return nil, fmt.Errorf("serve command: %w", err)
	}
	o := &ownServer{
		h: h, argv: argv, port: port,
		origin: "http://127.0.0.1:" + strconv.Itoa(port),
		output: &syncTail{buf: tailBuffer{max: stderrTail}},
		done:   make(chan struct{}),
	}
	tr := &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		MaxIdleConns:        64,
		MaxIdleConnsPerHost: 64,
		IdleConnTimeout:     90 * time.Second,
	}
	o.client = &http.Client{Transport: tr, Timeout: 10 * time.Second}
	target, _ := url.Parse(o.origin)
	o.proxy = &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.SetXForwarded()
		},
		Transport: tr,
		// Every write reaches the caller at once: message/stream answers
		// with server-sent events.
		FlushInterval: -1,
		ErrorHandler:  o.proxyError,
	}

	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = repo
	cmd.Env = h.skillEnv()
	var out io.Writer = o.output
	if h.cfg.serverOutput != nil {
		out = io.MultiWriter(o.output, h.cfg.serverOutput)
	}
	cmd.Stdout, cmd.Stderr = out, out
	// Grandchildren may hold the output pipes open after the server exits;
	// the wait for them is short, so that a crash shows at once, and they
	// are killed with the group right after.
	cmd.WaitDelay = 250 * time.Millisecond
	o.group = proc.NewGroup()
	if err := o.group.Start(cmd); err != nil {
		_ = o.group.Kill()
		return nil, fmt.Errorf("start server %q: %w", argv[0], err)
	}
	o.pid = cmd.Process.Pid
	h.log.Info("server started", "argv", argv, "pid", o.pid, "port", port)
	go o.wait(cmd)

	if err := o.awaitCard(ctx); err != nil {
		o.stop()
		return nil, err
	}
	return o, nil
}

// wait reaps the server and reports an exit that nobody asked for.
func (o *ownServer) wait(cmd *exec.Cmd) {
	err := cmd.Wait()
	// Whatever the server left running in its group goes with it.
	_ = o.group.Kill()
	if err == nil {
		err = errors.New("exited with status 0")
	}
	o.exitErr = err
	close(o.done)
	o.mu.Lock()
	closing := o.closing
	o.mu.Unlock()
	if !closing {
		o.h.log.Error("the agent's server exited; the card and JSON-RPC now fail", "argv", o.argv, "err", err, "output", o.output.String())
	}
}

// exited reports why the server has exited, or nil while it runs.
func (o *ownServer) exited() error {
	select {
	case <-o.done:
		return fmt.Errorf("the agent's server is down: %s%s", o.exitReason(), tail(o.output.Bytes()))
	default:
		return nil
	}
}

// exitReason says how the server ended; call it only once done is closed.
func (o *ownServer) exitReason() string {
	return fmt.Sprintf("%s stopped (%v)", o.argv[0], o.exitErr)
}

// awaitCard polls the server's card paths until one answers.
func (o *ownServer) awaitCard(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, o.h.cfg.readyTimeout)
	defer cancel()
	delay := 10 * time.Millisecond
	var last error
	for {
		for _, p := range []string{CardPath, LegacyCardPath} {
			data, err := o.getCard(ctx, p)
			if err == nil {
				card, err := cards.Parse(data)
				if err != nil {
					return fmt.Errorf("the server's card at %s: %w", p, err)
				}
				o.cardPath = p
				o.h.card = card
				if ps := cards.Validate(data); ps != nil {
					o.h.log.Warn("the server's card has problems", "problems", ps.Error())
				}
				return nil
			}
			last = err
		}
		select {
		case <-o.done:
			return fmt.Errorf("the server %q exited before its card answered: %s%s", strings.Join(o.argv, " "), o.exitReason(), tail(o.output.Bytes()))
		case <-ctx.Done():
			if ctx.Err() == context.DeadlineExceeded {
				return fmt.Errorf("the server %q did not answer its card within %s (last: %v)%s",
					strings.Join(o.argv, " "), o.h.cfg.readyTimeout, last, tail(o.output.Bytes()))
			}
			return ctx.Err()
		case <-time.After(delay):
		}
		delay = min(2*delay, 200*time.Millisecond)
	}
}

// getCard fetches the card at path from the server with its URLs rewritten
// to the host's.
func (o *ownServer) getCard(ctx context.Context, path string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, o.origin+path, nil)
	if err != nil {
		return nil, err
	}
	resp, err := o.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxCard))
	if err != nil {
		return nil, fmt.Errorf("read card: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", path, resp.Status)
	}
	return o.rewrite(data)
}

// rewrite replaces, in every string of the card, the server's own origin
// (on any loopback or unspecified address, at its port) with the host's
// URL, so that callers reach the server's endpoints through the host.
func (o *ownServer) rewrite(data []byte) ([]byte, error) {
	var v any
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("the card is not JSON: %w", err)
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, errors.New("the card is not a JSON object")
	}
	base := strings.TrimSuffix(o.h.url, "/")
	var origins []string
	for _, host := range []string{"127.0.0.1", "localhost", "0.0.0.0", "[::1]", "[::]"} {
		origins = append(origins, "http://"+host+":"+strconv.Itoa(o.port))
	}
	var walk func(any) any
	walk = func(v any) any {
		switch t := v.(type) {
		case map[string]any:
			for k, x := range t {
				t[k] = walk(x)
			}
		case []any:
			for i, x := range t {
				t[i] = walk(x)
			}
		case string:
			for _, origin := range origins {
				rest, ok := strings.CutPrefix(t, origin)
				if !ok || (rest != "" && rest[0] != '/' && rest[0] != '?') {
					continue
				}
				if rest == "" || rest == "/" {
					return o.h.url
				}
				return base + rest
			}
		}
		return v
	}
	var sb strings.Builder
	enc := json.NewEncoder(&sb)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(walk(v)); err != nil {
		return nil, err
	}
	return []byte(sb.String()), nil
}

// serveCard answers the card paths with the server's card, rewritten; it
// fails once the server is gone, so that health checks see the agent down.
func (o *ownServer) serveCard(w http.ResponseWriter, r *http.Request) {
	if err := o.exited(); err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	data, err := o.getCard(r.Context(), o.cardPath)
	if err != nil {
		o.h.log.Warn("card fetch from the agent's server failed", "err", err)
		http.Error(w, "the agent's server did not answer its card", http.StatusBadGateway)
		return
	}
	if data, err = o.h.signOwnCard(data); err != nil {
		o.h.log.Warn("signing the agent's card failed", "err", err)
		http.Error(w, "the agent's card could not be signed", http.StatusBadGateway)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(data)
}

// serveHealth answers the health path: ok while the server runs.
func (o *ownServer) serveHealth(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if err := o.exited(); err != nil {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintf(w, "down: %v\n", err)
		return
	}
	io.WriteString(w, "ok\n")
}

// serveProxy passes every other request, JSON-RPC included, to the server.
func (o *ownServer) serveProxy(w http.ResponseWriter, r *http.Request) {
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, o.h.cfg.maxBody)
	}
	o.proxy.ServeHTTP(w, r)
}

func (o *ownServer) proxyError(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil {
		return // the caller left
	}
	msg := "the agent's server did not answer"
	if down := o.exited(); down != nil {
		// The output's tail stays in the host's log.
		msg = "the agent's server is down: " + o.exitReason()
		err = down
	}
	code := -32603 // internal error
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		msg, code = fmt.Sprintf("request body larger than %d bytes", o.h.cfg.maxBody), -32600
	}
	o.h.log.Warn("proxy to the agent's server failed", "method", r.Method, "path", r.URL.Path, "err", err)
	if r.Method != http.MethodPost {
		http.Error(w, msg, http.StatusBadGateway)
		return
	}
	// A JSON-RPC error, as the host answers its own failures, so that the
	// caller's A2A client shows the reason; the request's id is not known
	// any more, hence null (JSON-RPC 2.0 §5).
	writeRPCError(w, code, msg)
}

// stop ends the server: SIGTERM to its group, SIGKILL after a grace
// period, and waits until it has been reaped.
func (o *ownServer) stop() {
	o.mu.Lock()
	o.closing = true
	o.mu.Unlock()
	select {
	case <-o.done:
		return
	default:
	}
	_ = proc.TermGroup(o.pid)
	select {
	case <-o.done:
	case <-time.After(3 * time.Second):
		_ = o.group.Kill()
		<-o.done
	}
	o.client.CloseIdleConnections()
}

// syncTail is a tailBuffer safe for the concurrent writes of a child's
// standard output and error.
type syncTail struct {
	mu  sync.Mutex
	buf tailBuffer
}

func (s *syncTail) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *syncTail) Bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]byte(nil), s.buf.buf...)
}

func (s *syncTail) String() string { return string(s.Bytes()) }
