package host

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/mark3labs/mcp-go/server"
	"google.golang.org/grpc"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/cards"
	"github.com/agentnet/agentnet/internal/llm"
)

// Paths the host serves besides the JSON-RPC endpoint at "/" and the
// HTTP+JSON paths (bindings.go).
const (
	CardPath       = a2asrv.WellKnownAgentCardPath // the A2A 1.0 card path
	LegacyCardPath = "/.well-known/agent.json"     // the card path of A2A before 0.3
	MCPPath        = "/mcp"
	HealthPath     = "/healthz"
)

// Defaults of the options.
const (
	DefaultMaxBody      = 64 << 20         // bytes of one JSON-RPC or MCP request (a 32 MiB file is ~43 MiB as base64)
	DefaultMaxDepth     = 64               // nesting of arrays and objects in a request
	DefaultMaxParts     = 100              // parts of one message
	DefaultMaxFileBytes = 32 << 20         // bytes of the files of one message (or MCP call)
	DefaultMaxQueued    = 32               // tasks waiting for a free skill slot, beyond which the host is busy
	DefaultTaskTTL      = 15 * time.Minute // how long a finished task can still be fetched
	DefaultMaxTasks     = 1000             // finished tasks kept at most
	DefaultMaxOutput    = 8 << 20          // bytes of a skill's standard output kept
	DefaultMaxFiles     = 64               // output files returned per task
	DefaultMaxFileMB    = 32               // MiB of output files returned per task
	stderrTail          = 4 << 10          // bytes of standard error quoted in a failed task
)

// DefaultMaxRunning is how many skills run at once by default: one per
// core.
var DefaultMaxRunning = runtime.NumCPU()

// Option configures a Host.
type Option func(*config)

type config struct {
	logger       *slog.Logger
	llm          *llm.Client
	env          []string
	workRoot     string
	keepWork     bool
	maxBody      int64
	maxDepth     int
	maxParts     int
	maxFileBytes int64
	maxRunning   int
	maxQueued    int
	taskTTL      time.Duration
	maxTasks     int
	allowHosts   []string
	cors         string
	maxOutput    int
	heartbeat    time.Duration
	version      string
	signKey      *cards.SigningKey
	signatures   []a2a.AgentCardSignature

	inlineMax        int64
	fetchFrom        []string
	fetchDenyPrivate bool
	vouchKey         []byte

	readyTimeout time.Duration
	serverOutput io.Writer
}

// WithLogger sets the logger (default: discard).
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// WithLLM lets an LLM pick the skill and its arguments through tool calling;
// BM25 remains the fallback when the call fails.
func WithLLM(c *llm.Client) Option { return func(cfg *config) { cfg.llm = c } }

// WithEnv sets the environment of skill processes ("KEY=value"), normally
// the host process's own minus agentnet's secrets. Without it skills get only
// a default PATH.
func WithEnv(env []string) Option { return func(c *config) { c.env = env } }

// WithWorkRoot sets the directory under which each task gets its work
// directory (default: a temporary directory removed by Close).
func WithWorkRoot(dir string) Option { return func(c *config) { c.workRoot = dir } }

// WithKeepWorkDirs keeps each task's work directory after the task ends.
func WithKeepWorkDirs(keep bool) Option { return func(c *config) { c.keepWork = keep } }

// WithMaxBody bounds the size of a request body (default DefaultMaxBody);
// a larger one is refused with a JSON-RPC error before it is parsed.
func WithMaxBody(n int64) Option { return func(c *config) { c.maxBody = n } }

// WithMaxDepth bounds how deep a request's JSON nests arrays and objects
// (default DefaultMaxDepth); a deeper one is refused before it is parsed.
func WithMaxDepth(n int) Option { return func(c *config) { c.maxDepth = n } }

// WithMaxParts bounds the parts of one message (default DefaultMaxParts).
func WithMaxParts(n int) Option { return func(c *config) { c.maxParts = n } }

// WithMaxFileBytes bounds the bytes of the files one message or MCP call
// brings (default DefaultMaxFileBytes).
func WithMaxFileBytes(n int64) Option { return func(c *config) { c.maxFileBytes = n } }

// WithMaxRunning bounds the skills running at once (default
// DefaultMaxRunning); further tasks wait in a queue of WithMaxQueued, and
// beyond it fail at once, saying the agent is busy.
func WithMaxRunning(n int) Option { return func(c *config) { c.maxRunning = n } }

// WithMaxQueued bounds the tasks waiting to run (default DefaultMaxQueued).
func WithMaxQueued(n int) Option { return func(c *config) { c.maxQueued = n } }

// WithTaskTTL sets how long a finished task can still be fetched (default
// DefaultTaskTTL, at least a second, 0 for no limit); WithMaxTasks how many
// finished tasks are kept at most (default DefaultMaxTasks, at least 1).
// Forgotten tasks answer TaskNotFound.
func WithTaskTTL(d time.Duration) Option { return func(c *config) { c.taskTTL = d } }

// WithMaxTasks: see WithTaskTTL.
func WithMaxTasks(n int) Option { return func(c *config) { c.maxTasks = n } }

// WithAllowHosts adds Host headers ("name:port") the host answers besides
// its URL's host (and, for a loopback URL, every loopback name at its
// port); a request naming any other is refused, as from a web page whose
// name was rebound to this machine. serve adds the address it listens on.
func WithAllowHosts(hosts ...string) Option {
	return func(c *config) { c.allowHosts = append(c.allowHosts, hosts...) }
}

// WithCORS lets web pages of one origin ("https://app.example") call the
// host; by default a request that carries another site's Origin is refused
// and no CORS header is sent.
func WithCORS(origin string) Option { return func(c *config) { c.cors = origin } }

// WithMaxOutput bounds the standard output kept from a skill run.
func WithMaxOutput(n int) Option { return func(c *config) { c.maxOutput = n } }

// WithHeartbeat sets how often a running skill reports a working status on
// streams (default 5 s).
func WithHeartbeat(d time.Duration) Option { return func(c *config) { c.heartbeat = d } }

// WithVersion sets the version on the agent card.
func WithVersion(v string) Option { return func(c *config) { c.version = v } }

// WithReadyTimeout bounds the wait for the card of a bundle's own server
// (default DefaultReadyTimeout).
func WithReadyTimeout(d time.Duration) Option { return func(c *config) { c.readyTimeout = d } }

// WithServerOutput receives the standard output and error of a bundle's own
// server (default: discarded, but for the tail quoted when it fails). The
// writer must be safe for concurrent use.
func WithServerOutput(w io.Writer) Option { return func(c *config) { c.serverOutput = w } }

// newConfig applies opts over the defaults.
func newConfig(opts []Option) config {
	cfg := config{maxBody: DefaultMaxBody, maxDepth: DefaultMaxDepth, maxParts: DefaultMaxParts, maxFileBytes: DefaultMaxFileBytes,
		maxRunning: DefaultMaxRunning, maxQueued: DefaultMaxQueued, taskTTL: DefaultTaskTTL, maxTasks: DefaultMaxTasks,
		maxOutput: DefaultMaxOutput, heartbeat: 5 * time.Second, readyTimeout: DefaultReadyTimeout, inlineMax: DefaultInlineFileMax}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.logger == nil {
		cfg.logger = slog.New(slog.DiscardHandler)
	}
	return cfg
}

// Host serves one bundle. Create it with New and release it with Close.
type Host struct {
	b        *bundle.Bundle
	url      string
	card     *a2a.AgentCard
	cardJSON []byte // the signed card as served; nil when unsigned
	cfg      config
	log      *slog.Logger
	workRoot string
	ownsRoot bool
	work     *workDirs // the tasks' work directories under workRoot

	mux   *http.ServeMux
	guard *guard // the checks before mux
	v1    http.Handler
	v0    http.Handler
	grpc  *grpc.Server             // the gRPC binding; nil for a bundle with serve
	mcp   func() *server.MCPServer // built on first use; nil for a bundle with serve
	agent *agent
	own   *ownServer // the bundle's own server, for a bundle with serve

	store   *taskStore
	spool   *spool
	files   *fileStore    // file artifacts served by reference
	fetcher *fileFetcher  // files messages bring by URL
	slots   chan struct{} // one per running skill
	queue   atomic.Int64  // tasks waiting for a slot
	done    chan struct{} // closed by Close

	mu       sync.Mutex
	running  map[string]func() // task id → kill its process
	canceled map[string]bool   // tasks canceled before their process started
	closed   bool
	wg       sync.WaitGroup
}

// New returns a host for bundle b whose JSON-RPC endpoint callers reach at
// url (the card advertises it, so it must be reachable: never 0.0.0.0).
// For a bundle with serve it is Start without a context.
func New(b *bundle.Bundle, url string, opts ...Option) (*Host, error) {
	return Start(context.Background(), b, url, opts...)
}

// Start returns a host for bundle b, as New. For a bundle with serve instead
// of skills with run, it starts the bundle's own server — its argv with
// {{port}} a free loopback port, in the repo directory, in a process group
// of its own — and waits, bounded by ctx and WithReadyTimeout, until the
// server answers its card; the host then serves that card with the server's
// URLs rewritten to url and passes every other request (JSON-RPC, streams
// included) through to the server. Should the server exit, the host logs
// it and its card and health fail. Close stops the server. Such a host has
// no MCP tools.
func Start(ctx context.Context, b *bundle.Bundle, url string, opts ...Option) (*Host, error) {
	cfg := newConfig(opts)
	if msg := cards.CheckURL(url); msg != "" {
		return nil, fmt.Errorf("host %s: %s", b.Name, msg)
	}
	h := &Host{b: b, url: url, cfg: cfg, log: cfg.logger.With("agent", b.Name), running: map[string]func(){}, canceled: map[string]bool{},
		slots: make(chan struct{}, max(cfg.maxRunning, 1)), done: make(chan struct{})}
	h.guard = &guard{hosts: allowedHosts(url, cfg.allowHosts), cors: cfg.cors, maxBody: cfg.maxBody, maxDepth: cfg.maxDepth}
	if len(b.Serve) > 0 {
		if len(cfg.signatures) > 0 {
			return nil, fmt.Errorf("host %s: %w", b.Name, errOwnSignatures)
		}
		own, err := h.startOwn(ctx)
		if err != nil {
			return nil, fmt.Errorf("host %s: %w", b.Name, err)
		}
		h.own = own
		h.mux = http.NewServeMux()
		h.mux.HandleFunc("GET "+CardPath, own.serveCard)
		h.mux.HandleFunc("GET "+LegacyCardPath, own.serveCard)
		h.mux.HandleFunc("GET "+HealthPath, own.serveHealth)
		h.mux.HandleFunc("/", own.serveProxy)
		h.guard.next = h.mux
		return h, nil
	}
	if len(b.Skills) == 0 {
		return nil, fmt.Errorf("host %s: the bundle has no skills with run, nor serve", b.Name)
	}
	h.card = buildCard(b, url, cfg)
	if ps := cards.ValidateCard(h.card); ps != nil {
		return nil, fmt.Errorf("host %s: the card is invalid:\n%w", b.Name, ps)
	}
	if err := h.signCard(); err != nil {
		return nil, fmt.Errorf("host %s: %w", b.Name, err)
	}
	h.workRoot = cfg.workRoot
	if h.workRoot == "" {
		dir, err := os.MkdirTemp("", "agentnet-host-")
		if err != nil {
			return nil, fmt.Errorf("host %s: work root: %w", b.Name, err)
		}
		h.workRoot, h.ownsRoot = dir, true
	} else if err := os.MkdirAll(h.workRoot, 0o755); err != nil {
		return nil, fmt.Errorf("host %s: work root: %w", b.Name, err)
	}

	// A directory made ahead for each task that may start at once, up to
	// a few: a burst beyond makes its own.
	h.work = newWorkDirs(h.workRoot, min(cap(h.slots), 4))
	h.agent = &agent{h: h}
	h.spool = &spool{dir: filepath.Join(h.workRoot, ".spool")}
	h.store = newTaskStore(cfg.taskTTL, cfg.maxTasks)
	h.files = newFileStore(filepath.Join(h.workRoot, ".files"))
	h.store.forget = func(id a2a.TaskID) { h.files.drop(string(id)) }
	h.fetcher = newFileFetcher(cfg.fetchFrom, cfg.vouchKey, cfg.fetchDenyPrivate)
	handler := a2asrv.NewHandler(h.agent,
		a2asrv.WithLogger(h.log),
		a2asrv.WithTaskStore(h.store),
		a2asrv.WithCallInterceptors(versionGuard{}, messageLimits{h: h}, finishedTaskGuard{store: h.store}),
		a2asrv.WithCapabilityChecks(&h.card.Capabilities),
		a2asrv.WithExecutionPanicHandler(func(r any) error {
			h.log.Error("skill execution panicked", "panic", r)
			return fmt.Errorf("internal error: %w", a2a.ErrInternalError)
		}),
	)
	handler = h.direct(handler)
	h.v1 = a2asrv.NewJSONRPCHandler(handler)
	h.v0 = a2av0.NewJSONRPCHandler(handler)
	// The MCP server is built on the first MCP request (or ServeStdio): an
	// agent that is only ever called over A2A never holds its tools.
	h.mcp = sync.OnceValue(h.newMCPServer)
	mcpHTTP := sync.OnceValue(func() http.Handler {
		// mcp-go's own DNS-rebinding check (loopback connections must name
		// a loopback host) stays on unless the operator allowed other
		// names, which the guard then checks instead.
		return server.NewStreamableHTTPServer(h.mcp(), server.WithEndpointPath(MCPPath),
			server.WithDisableLocalhostProtection(!loopbackOnly(cfg.allowHosts)), server.WithSessionIdleTTL(cfg.taskTTL))
	})

	cardHandler := a2asrv.NewAgentCardHandler(h.cardProducer())
	h.mux = http.NewServeMux()
	h.mux.Handle(CardPath, cardHandler)
	h.mux.Handle(LegacyCardPath, cardHandler)
	h.mux.HandleFunc(MCPPath, func(w http.ResponseWriter, r *http.Request) { mcpHTTP().ServeHTTP(w, r) })
	h.mux.HandleFunc("GET "+HealthPath, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "ok\n")
	})
	h.mux.HandleFunc("POST /{$}", h.serveJSONRPC)
	h.mux.HandleFunc("GET "+FilesPath+"{token}/{name}", h.serveFile)
	h.mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintf(w, "%s: an A2A agent. Card: %s · JSON-RPC (A2A 1.0 and 0.3): POST / · HTTP+JSON: POST /message:send, /message:stream, GET /tasks/{id} · gRPC (h2c): lf.a2a.v1.A2AService · MCP: %s\n", h.card.Name, CardPath, MCPPath)
	})
	h.serveBindings(handler)
	h.guard.next = h.mux
	return h, nil
}

// Card returns the agent card (A2A 1.0 form); callers must not modify it.
// For a bundle with serve it is the server's card as it answered at start.
func (h *Host) Card() *a2a.AgentCard { return h.card }

// Bundle returns the served bundle.
func (h *Host) Bundle() *bundle.Bundle { return h.b }

// ServeHTTP implements http.Handler: the guard's checks (Host, Origin,
// Content-Type, body size and depth), then the endpoints.
func (h *Host) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.guard.ServeHTTP(w, r) }

// serveJSONRPC answers A2A 1.0 and 0.3 JSON-RPC at one URL: 0.3 methods are
// spelled with a slash ("message/send"), 1.0 methods are not ("SendMessage").
func (h *Host) serveJSONRPC(w http.ResponseWriter, r *http.Request) {
	data, err := bodyBytes(r) // the guard bounded it
	if err != nil {
		writeRPCError(w, -32700, "the request body could not be read")
		return
	}
	var peek rpcPeek
	_ = json.Unmarshal(data, &peek) // a malformed body is the protocol handler's to report
	r.Body = io.NopCloser(bytes.NewReader(data))
	if peek.isNotification() {
		// Never answered (JSON-RPC 2.0 §4.1), and never run: a
		// notification is how a web page or a careless client would start
		// work that nobody waits for, so the host does none.
		h.log.Info("notification ignored", "method", peek.Method)
		w.WriteHeader(http.StatusNoContent)
		return
	}
	// a2av0 writes errors without a Content-Type; streams set their own.
	w.Header().Set("Content-Type", "application/json")
	r = r.WithContext(withVersions(r.Context(), jsonrpcVersions))
	if strings.Contains(peek.Method, "/") {
		h.v0.ServeHTTP(w, r)
		return
	}
	h.v1.ServeHTTP(w, r)
}

func writeRPCError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": code, "message": msg}})
}

// track registers a running task's kill function; it returns false once the
// host is closed.
func (h *Host) track(id string, kill func()) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || h.canceled[id] {
		delete(h.canceled, id)
		return false
	}
	h.running[id] = kill
	h.wg.Add(1)
	return true
}

func (h *Host) untrack(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.running[id]; ok {
		delete(h.running, id)
		h.wg.Done()
	}
}

// kill stops the process of a running task, or keeps it from starting.
func (h *Host) kill(id string) {
	h.mu.Lock()
	k := h.running[id]
	if k == nil {
		h.canceled[id] = true
	}
	h.mu.Unlock()
	if k != nil {
		k()
	}
}

func (h *Host) isClosed() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.closed
}

// FreePort returns a TCP port on the loopback interface that was free a
// moment ago.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Close kills every running skill process group, waits for their tasks to
// end and removes the work root if the host created it; for a bundle with
// serve it stops the server's process group (SIGTERM, then SIGKILL after 3 s)
// and waits for it. Requests after Close
// fail their tasks.
func (h *Host) Close() error {
	if h.own != nil {
		h.own.stop()
		return nil
	}
	h.mu.Lock()
	if !h.closed {
		close(h.done)
	}
	h.closed = true
	kills := make([]func(), 0, len(h.running))
	for _, k := range h.running {
		kills = append(kills, k)
	}
	h.mu.Unlock()
	for _, k := range kills {
		k()
	}
	h.wg.Wait()
	h.work.close()
	h.grpc.Stop()
	h.spool.clear()
	h.files.clear()
	if h.ownsRoot {
		return os.RemoveAll(h.workRoot)
	}
	return nil
}
