package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/agentnet/agentnet/a2a/host"
	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/internal/llm"
	"github.com/agentnet/agentnet/internal/yamlx"
)

func newServeCmd(env *Env) *cobra.Command {
	var (
		addr, url, workRoot string
		mcpStdio, setup     bool
		noCheck, verbose    bool
		keepWork, asJSON    bool
		signKey             string
		lim                 hostLimits
	)
	cmd := &cobra.Command{
		Use:   "serve BUNDLE",
		Short: "Host one bundle as an A2A endpoint (and as MCP tools); prints its URL",
		Long: `Serve hosts an agent bundle (a directory holding agent.yaml) as an A2A agent:
its card at /.well-known/agent-card.json, JSON-RPC for A2A 1.0 and 0.3 clients
at the card's URL, and the skills as MCP tools at /mcp (streamable HTTP). With
--mcp it serves the MCP tools on stdin/stdout instead and nothing else.

Before serving it runs the bundle's check commands (and its setup commands
first, with --setup). It prints the URL on stdout once the endpoint answers,
and runs until interrupted; running skills are killed on the way out.

A bundle with serve: (its own A2A server) has its server started on a free
loopback port once the checks pass; the endpoint then serves that server's
card, its URLs rewritten to this endpoint's, and passes JSON-RPC (streams
included) through to it. The server's output goes to stderr; should it exit,
the card and /healthz fail.

With --sign-key the card is signed (A2A 1.0 section 8.4) with a key made by
"agentnet keys new"; the key stays in this process. AGENTNET_CARD_SIGNATURES
(a JSON array of signatures, which fleet up sets) attaches signatures made by
whoever holds the key instead; serve refuses to start unless one of them
verifies over its card.

With AGENTNET_LLM_BASE_URL and AGENTNET_LLM_MODEL set, an LLM picks the skill
and its arguments for messages that name no skill; otherwise BM25 does.`,
		Example: `  agentnet serve out/textkit
  agentnet serve out/textkit --addr 127.0.0.1:8080
  agentnet serve out/textkit --addr 0.0.0.0:8080 --url http://127.0.0.1:18080/
  agentnet serve out/textkit --mcp`,
		Args: exactArgs(1, "BUNDLE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			b, err := bundle.Load(args[0])
			if err != nil {
				if _, ok := yamlx.AsProblems(err); ok {
					return invalidInput(err)
				}
				return invalidInput(err)
			}
			if len(b.Serve) > 0 && mcpStdio {
				return invalidInput(fmt.Errorf("%s: the bundle brings its own server (serve:), which has no MCP tools to serve", b.Path))
			}
			logger := env.logger()
			if verbose {
				logger = slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
			}
			childEnv := env.childEnv()
			if !noCheck || setup {
				prep := b
				if noCheck {
					// --setup --no-check: the setup commands only.
					c := *b
					c.Check = nil
					prep = &c
				}
				if err := host.Prepare(ctx, prep, setup, childEnv, env.Stderr); err != nil {
					return err
				}
			}
			opts := []host.Option{host.WithLogger(logger), host.WithEnv(childEnv), host.WithKeepWorkDirs(keepWork), host.WithServerOutput(env.Stderr)}
			opts = append(opts, lim.options()...)
			if workRoot != "" {
				opts = append(opts, host.WithWorkRoot(workRoot))
			}
			if cfg, ok := llm.ConfigFrom(env.Getenv); ok {
				opts = append(opts, host.WithLLM(llm.New(cfg)))
			}
			signOpts, err := cardSigning(env, signKey)
			if err != nil {
				return err
			}
			opts = append(opts, signOpts...)
			if mcpStdio {
				// Only the MCP tools are served; the card is built but never
				// fetched, so its URL is nominal.
				h, err := host.New(b, "http://localhost/", opts...)
				if err != nil {
					return err
				}
				defer h.Close()
				return h.ServeStdio(ctx, env.Stdin, env.Stdout)
			}
			return serveHTTP(ctx, env, b, serveAt{addr: addr, url: url, asJSON: asJSON, timeouts: lim.timeouts}, logger, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:0", "listen address HOST:PORT (port 0 picks a free port)")
	f.StringVar(&url, "url", "", "the URL callers reach the endpoint at, for the card (default: http://ADDR/; required when ADDR is not an address callers can use, e.g. behind a port mapping)")
	f.BoolVar(&mcpStdio, "mcp", false, "serve the skills as MCP tools on stdin/stdout instead of HTTP")
	f.BoolVar(&setup, "setup", false, "run the bundle's setup commands before serving")
	f.BoolVar(&noCheck, "no-check", false, "skip the bundle's check commands")
	f.BoolVar(&keepWork, "keep-work", false, "keep each task's work directory")
	f.StringVar(&workRoot, "work-dir", "", "directory for the tasks' work directories (default: a temporary one)")
	f.BoolVarP(&verbose, "verbose", "v", false, "log each task on stderr")
	f.StringVar(&signKey, "sign-key", "", signKeyFlagHelp)
	f.BoolVar(&asJSON, "json", false, `print the ready line as one JSON object: {"url", "agent", "listen", "skills"}`)
	lim.flags(f)
	return cmd
}

// hostLimits are serve's flags for what a caller may reach and spend; see
// SECURITY.md, Hosted agents.
type hostLimits struct {
	allowHosts   []string
	cors         string
	maxBody      int64
	maxDepth     int
	maxParts     int
	maxFileBytes int64
	maxRunning   int
	maxQueued    int
	taskTTL      time.Duration
	maxTasks     int
	timeouts     host.Timeouts
}

func (l *hostLimits) flags(f *pflag.FlagSet) {
	f.StringArrayVar(&l.allowHosts, "allow-host", nil, "also answer requests whose Host header is this HOST:PORT (repeatable; default: only the addresses served on)")
	f.StringVar(&l.cors, "cors", "", "let web pages of this ORIGIN (https://app.example) call the agent (default: none)")
	f.Int64Var(&l.maxBody, "max-body", host.DefaultMaxBody, "bytes of one request body")
	f.IntVar(&l.maxDepth, "max-depth", host.DefaultMaxDepth, "nesting of arrays and objects in a request's JSON")
	f.IntVar(&l.maxParts, "max-parts", host.DefaultMaxParts, "parts of one message")
	f.Int64Var(&l.maxFileBytes, "max-file-bytes", host.DefaultMaxFileBytes, "bytes of the files of one message or MCP call")
	f.IntVar(&l.maxRunning, "max-running", host.DefaultMaxRunning, "skills running at once (default: the number of cores)")
	f.IntVar(&l.maxQueued, "max-queued", host.DefaultMaxQueued, "tasks waiting for a running slot; beyond them the agent answers busy")
	f.DurationVar(&l.taskTTL, "task-ttl", host.DefaultTaskTTL, "how long a finished task can still be fetched")
	f.IntVar(&l.maxTasks, "max-tasks", host.DefaultMaxTasks, "finished tasks kept at most")
	f.DurationVar(&l.timeouts.Header, "header-timeout", host.DefaultTimeouts.Header, "time to send a request's header")
	f.DurationVar(&l.timeouts.Read, "read-timeout", host.DefaultTimeouts.Read, "time to send a whole request, body included")
	f.DurationVar(&l.timeouts.Write, "write-timeout", host.DefaultTimeouts.Write, "time for each write of a response to be read (a stream lasts as long as it is read)")
	f.DurationVar(&l.timeouts.Idle, "idle-timeout", host.DefaultTimeouts.Idle, "time a kept-alive connection may wait for its next request")
}

func (l *hostLimits) options() []host.Option {
	opts := []host.Option{host.WithMaxBody(l.maxBody), host.WithMaxDepth(l.maxDepth), host.WithMaxParts(l.maxParts),
		host.WithMaxFileBytes(l.maxFileBytes), host.WithMaxRunning(l.maxRunning), host.WithMaxQueued(l.maxQueued),
		host.WithTaskTTL(l.taskTTL), host.WithMaxTasks(l.maxTasks), host.WithAllowHosts(l.allowHosts...)}
	if l.cors != "" {
		opts = append(opts, host.WithCORS(l.cors))
	}
	return opts
}

// serveAt is where serveHTTP listens and how it says it is ready.
type serveAt struct {
	addr, url string
	asJSON    bool
	timeouts  host.Timeouts
}

// readyLine is serve's ready line with --json.
type readyLine struct {
	URL    string   `json:"url"`
	Agent  string   `json:"agent"`
	Listen string   `json:"listen"`
	Skills []string `json:"skills"`
}

func serveHTTP(ctx context.Context, env *Env, b *bundle.Bundle, at serveAt, logger *slog.Logger, opts []host.Option) error {
	addr, url := at.addr, at.url
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return usageError("serve: listen on %s: %v", addr, err)
	}
	if url == "" {
		url = advertised(ln.Addr().(*net.TCPAddr))
	}
	// The address listened on is one the agent is served as, beside its
	// URL (0.0.0.0:8080 in a container: its loopback names at 8080).
	opts = append(opts, host.WithAllowHosts(ln.Addr().String()))
	h, err := host.Start(ctx, b, url, opts...)
	if err != nil {
		ln.Close()
		if len(b.Serve) > 0 {
			return fmt.Errorf("serve: %w", err) // the bundle's server failed, not its format
		}
		return invalidInput(err)
	}
	defer h.Close()
	// Start-up (the package initialisers of the whole binary, loading the
	// bundle, building the host) leaves garbage behind; a fleet runs one host
	// per agent, so it goes back to the system once, before the first request
	// is accepted: a host whose card answers has settled. Connections that
	// arrive meanwhile wait in the listener's backlog.
	debug.FreeOSMemory()
	srv := h.Server(at.timeouts)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	if at.asJSON {
		line := readyLine{URL: url, Agent: b.Name, Listen: ln.Addr().String(), Skills: []string{}}
		for _, sk := range b.Skills {
			line.Skills = append(line.Skills, sk.ID)
		}
		if err := writeJSONLine(env.Stdout, line); err != nil {
			return err
		}
	} else {
		fmt.Fprintln(env.Stdout, url)
	}
	logger.Info("serving", "agent", b.Name, "url", url, "listen", ln.Addr().String())
	select {
	case err := <-errc:
		return fmt.Errorf("serve %s: %w", b.Name, err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	// Running skills are killed first so that streams end and Shutdown can
	// drain.
	closeErr := h.Close()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("shut down %s: %w", b.Name, err)
	}
	return closeErr
}

// advertised is the URL callers on this machine reach a listener at: an
// unspecified listen address (0.0.0.0, ::) is advertised as the loopback
// address, never as itself.
func advertised(a *net.TCPAddr) string {
	ip := a.IP
	if ip == nil || ip.IsUnspecified() {
		ip = net.IPv4(127, 0, 0, 1)
	}
	return fmt.Sprintf("http://%s/", net.JoinHostPort(ip.String(), fmt.Sprint(a.Port)))
}
