package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentnet/agentnet/cards"
	"github.com/agentnet/agentnet/registry"
)

// defaultRegistryURL is where registry commands find the registry unless
// --registry says otherwise; `registry serve` listens there by default.
const (
	defaultRegistryAddr = "127.0.0.1:8700"
	defaultRegistryURL  = "http://" + defaultRegistryAddr
)

func newRegistryCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "registry",
		Short: "The agent-card registry service and its client",
		Long: `The registry stores agents' cards, ranks them by full-text search and keeps
their health. 'registry serve' runs it; add, list and search talk to a running
one (--registry, default ` + defaultRegistryURL + `).

Writes (add) send AGENTNET_REGISTRY_TOKEN as a bearer token when it is set; a
registry started with that variable set refuses writes without it.`,
	}
	cmd.AddCommand(newRegistryServeCmd(env), newRegistryAddCmd(env), newRegistryListCmd(env), newRegistrySearchCmd(env))
	return cmd
}

func newRegistryServeCmd(env *Env) *cobra.Command {
	var (
		addr, db    string
		interval    time.Duration
		jitter      float64
		concurrency int
		verbose     bool
		asJSON      bool
		denyPrivate bool
		trustedKeys string
		requireSig  bool
	)
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the registry: HTTP API, search, health prober and web page",
		Long: `Serve runs the registry on an embedded SQLite file (created if missing, its
schema migrated) until interrupted. It serves the JSON API under /v1 (its
OpenAPI 3.1 document at /openapi.json), /healthz and a web page at /, and
probes every agent's card on an interval.

With --db postgres://USER@HOST/DB (or postgresql://) it keeps its records in
that PostgreSQL database instead, migrated too, searched with PostgreSQL's
full-text engine: several registries can serve one database. The password
comes from the URL, PGPASSWORD or ~/.pgpass.

It prints its URL on stdout once it listens. With AGENTNET_REGISTRY_TOKEN set,
registering and deleting need "Authorization: Bearer $AGENTNET_REGISTRY_TOKEN",
and only requests carrying it see why a card fetch failed; others see its
category (unreachable, timeout, bad card, ...).

Card fetches follow redirects only within the card's origin. With
--deny-private they also refuse loopback, private, link-local and cloud
metadata addresses, checked after resolution and again as each connection
is made: use it for a registry that strangers can register agents with.

Signed cards (A2A 1.0 section 8.4) are verified on registration: a card that
carries signatures is refused unless one verifies, and --require-signed
refuses unsigned cards too. A signature verifies against the public key its
protected header embeds (jwk), or, with --trusted-keys FILE (a JWK Set, as
'agentnet keys show --jwks' prints), only against the keys listed there. A
jku URL is never fetched. Records show the verified key id; once a card is
signed, an update must be signed by the same key or by a trusted one.`,
		Example: `  agentnet registry serve
  agentnet registry serve --addr 127.0.0.1:9000 --db /var/lib/agentnet/registry.db
  agentnet registry serve --addr 0.0.0.0:8700 --db postgres://agentnet@db.internal/registry
  AGENTNET_REGISTRY_TOKEN=s3cret agentnet registry serve --probe-interval 10s
  agentnet registry serve --addr 0.0.0.0:8700 --deny-private
  agentnet registry serve --require-signed --trusted-keys trusted-keys.json`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if interval <= 0 {
				return usageError("registry serve: --probe-interval must be positive, got %s", interval)
			}
			if jitter < 0 || jitter > 1 {
				return usageError("registry serve: --probe-jitter must be within 0..1, got %v", jitter)
			}
			if concurrency < 1 {
				return usageError("registry serve: --probe-concurrency must be at least 1, got %d", concurrency)
			}
			if db == "" {
				db = filepath.Join(agentnetHomeDir(env), "registry.db")
			}
			logger := env.logger()
			if verbose {
				logger = slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
			}
			var trusted *cards.TrustedKeys
			if trustedKeys != "" {
				t, err := cards.LoadTrustedKeys(trustedKeys)
				if err != nil {
					return invalidInput(fmt.Errorf("registry serve: --trusted-keys: %w", err))
				}
				trusted = t
			}
			return serveRegistry(cmd.Context(), env, registryServeConfig{
				addr: addr, db: db, token: env.getenv("AGENTNET_REGISTRY_TOKEN"), logger: logger, asJSON: asJSON, denyPrivate: denyPrivate,
				trusted: trusted, requireSigned: requireSig,
				prober: []registry.ProberOption{registry.WithInterval(interval), registry.WithJitter(jitter), registry.WithConcurrency(concurrency)},
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", defaultRegistryAddr, "listen address HOST:PORT (port 0 picks a free port)")
	f.StringVar(&db, "db", "", "the SQLite database file (default $AGENTNET_HOME/registry.db, AGENTNET_HOME defaulting to ~/.agentnet), or a postgres:// URL")
	f.DurationVar(&interval, "probe-interval", registry.DefaultProbeInterval, "time between health checks of every agent")
	f.Float64Var(&jitter, "probe-jitter", registry.DefaultProbeJitter, "spread of the probe interval, as a fraction of it (0..1)")
	f.IntVar(&concurrency, "probe-concurrency", registry.DefaultProbeConcurrency, "health checks in flight at most")
	f.BoolVarP(&verbose, "verbose", "v", false, "log registrations and health changes on stderr")
	f.BoolVar(&asJSON, "json", false, `print the ready line as one JSON object: {"url", "store"}`)
	f.BoolVar(&denyPrivate, "deny-private", false, "refuse card fetches from loopback, private, link-local and cloud metadata addresses")
	f.StringVar(&trustedKeys, "trusted-keys", "", "verify card signatures only against the public keys of this JWK Set file")
	f.BoolVar(&requireSig, "require-signed", false, "refuse cards without a signature that verifies")
	return cmd
}

// agentnetHomeDir is AGENTNET_HOME, or ~/.agentnet.
func agentnetHomeDir(env *Env) string {
	if h := env.getenv("AGENTNET_HOME"); h != "" {
		return h
	}
	if h := env.getenv("HOME"); h != "" {
		return filepath.Join(h, ".agentnet")
	}
	return ".agentnet"
}

type registryServeConfig struct {
	addr, db, token string
	asJSON          bool
	denyPrivate     bool
	trusted         *cards.TrustedKeys
	requireSigned   bool
	logger          *slog.Logger
	prober          []registry.ProberOption
}

// serveRegistry runs the registry until ctx is done.
func serveRegistry(ctx context.Context, env *Env, cfg registryServeConfig) error {
	srv, err := registry.Start(ctx, registry.ServerConfig{
		Addr: cfg.addr, DB: cfg.db, Token: cfg.token, Logger: cfg.logger, Prober: cfg.prober,
		DenyPrivate: cfg.denyPrivate, TrustedKeys: cfg.trusted, RequireSigned: cfg.requireSigned,
	})
	if err != nil {
		var (
			le *registry.ListenError
			ie *registry.InvalidError // a --db URL that does not parse
		)
		if errors.As(err, &le) || errors.As(err, &ie) {
			return usageError("registry serve: %v", err)
		}
		return fmt.Errorf("registry serve: %w", err)
	}
	if cfg.asJSON {
		store := "sqlite"
		if strings.HasPrefix(cfg.db, "postgres://") || strings.HasPrefix(cfg.db, "postgresql://") {
			store = "postgres"
		}
		if err := writeJSONLine(env.Stdout, map[string]string{"url": srv.URL, "store": store}); err != nil {
			srv.Close()
			return err
		}
	} else {
		fmt.Fprintln(env.Stdout, srv.URL)
	}
	var serveErr error
	select {
	case err := <-srv.Done():
		serveErr = fmt.Errorf("registry serve: %w", err)
	case <-ctx.Done():
	}
	if err := srv.Close(); err != nil && serveErr == nil {
		serveErr = fmt.Errorf("registry serve: shut down: %w", err)
	}
	return serveErr
}

// registryClient returns a client of the registry at url, with the token
// from the environment.
func registryClient(env *Env, url string) *registry.Client {
	return registry.NewClient(url, registry.WithClientToken(env.getenv("AGENTNET_REGISTRY_TOKEN")))
}

// registryErr gives a registry answer its exit code: the registry refusing
// the input (400, 422) is invalid input; anything else is a failure. A
// registry that does not answer at all gets a hint on how to start one.
func registryErr(err error) error {
	var ue *registry.UnreachableError
	if errors.As(err, &ue) {
		return fmt.Errorf("%w: start one with 'agentnet registry serve' or name another with --registry", err)
	}
	var ae *registry.APIError
	if errors.As(err, &ae) && (ae.Status == http.StatusBadRequest || ae.Status == http.StatusUnprocessableEntity) {
		return invalidInput(err)
	}
	return err
}

func newRegistryAddCmd(env *Env) *cobra.Command {
	var (
		regURL string
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "add URL...",
		Short: "Register agents by URL: the registry fetches, validates and stores their cards",
		Long: `Add asks the registry to register each agent URL (the card is fetched from
URL/.well-known/agent-card.json). Re-adding a URL updates the agent's record.
Every problem with a card is printed; the exit code is 2 when the registry
refused an agent as invalid, 1 when something else failed.`,
		Example: `  agentnet registry add http://127.0.0.1:9001
  agentnet registry add --registry http://10.0.0.5:8700 http://10.0.0.7:9001 http://10.0.0.8:9001`,
		Args: minArgs(1, "URL"),
		RunE: func(cmd *cobra.Command, args []string) error {
			c := registryClient(env, regURL)
			var (
				recs  []registry.Record
				worst error
			)
			for _, u := range args {
				rec, created, err := c.Register(cmd.Context(), u)
				if err != nil {
					err = registryErr(err)
					printError(env.Stderr, err)
					if worst == nil || exitCode(err) == ExitFailed {
						worst = err
					}
					continue
				}
				recs = append(recs, rec)
				if !asJSON {
					verb := "updated"
					if created {
						verb = "registered"
					}
					fmt.Fprintf(env.Stdout, "%s %s %s (%s)\n", verb, rec.ID, rec.Name, rec.URL)
				}
			}
			if asJSON {
				if recs == nil {
					recs = []registry.Record{}
				}
				if err := writeJSON(env.Stdout, recs); err != nil {
					return err
				}
			}
			if worst != nil {
				return silentFailure{code: exitCode(worst)}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&regURL, "registry", defaultRegistryURL, "the registry's URL")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the registered records as JSON")
	return cmd
}

// queryFlags are the filters list and search share.
type queryFlags struct {
	regURL, tag, status string
	limit               int
	asJSON              bool
}

func (q *queryFlags) add(cmd *cobra.Command, limitDefault int, limitHelp string) {
	f := cmd.Flags()
	f.StringVar(&q.regURL, "registry", defaultRegistryURL, "the registry's URL")
	f.StringVar(&q.tag, "tag", "", "only agents with a skill carrying this tag")
	f.StringVar(&q.status, "status", "", "only agents in these statuses: up, changed, down (comma-separated) or all")
	f.IntVar(&q.limit, "limit", limitDefault, limitHelp)
	f.BoolVar(&q.asJSON, "json", false, "print the results as JSON")
}

func (q *queryFlags) query(text string) (registry.Query, error) {
	rq := registry.Query{Text: text, Tag: q.tag}
	for _, s := range strings.Split(q.status, ",") {
		switch s = strings.TrimSpace(s); s {
		case "":
		case "all":
			rq.Statuses = append(rq.Statuses, registry.Statuses...)
		default:
			st, err := registry.ParseStatus(s)
			if err != nil {
				return rq, usageError("--status: %v", err)
			}
			rq.Statuses = append(rq.Statuses, st)
		}
	}
	if q.limit < 0 {
		return rq, usageError("--limit must not be negative, got %d", q.limit)
	}
	return rq, nil
}

// collect follows cursors until limit hits (0: all) are read.
func collect(ctx context.Context, q registry.Query, limit int, page func(context.Context, registry.Query) (registry.Page, error)) ([]registry.Hit, error) {
	hits := []registry.Hit{}
	for {
		q.Limit = registry.MaxLimit
		if limit > 0 {
			q.Limit = min(registry.MaxLimit, limit-len(hits))
		}
		p, err := page(ctx, q)
		if err != nil {
			return nil, registryErr(err)
		}
		hits = append(hits, p.Hits...)
		if p.NextCursor == "" || (limit > 0 && len(hits) >= limit) {
			return hits, nil
		}
		q.Cursor = p.NextCursor
	}
}

func newRegistryListCmd(env *Env) *cobra.Command {
	var qf queryFlags
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List registered agents with their health",
		Example: `  agentnet registry list
  agentnet registry list --status down
  agentnet registry list --tag text --json`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			q, err := qf.query("")
			if err != nil {
				return err
			}
			c := registryClient(env, qf.regURL)
			hits, err := collect(cmd.Context(), q, qf.limit, c.List)
			if err != nil {
				return err
			}
			if qf.asJSON {
				return writeJSON(env.Stdout, hits)
			}
			tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tNAME\tSTATUS\tLAST SEEN\tTAGS\tURL\tSIGNED BY")
			for _, h := range hits {
				signed := "-"
				if h.Signature != nil {
					signed = h.Signature.KeyID
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", h.ID, oneLine(h.Name, 32), h.Health.Status,
					h.LastSeen.Local().Format("2006-01-02 15:04:05"), oneLine(strings.Join(h.Tags, ","), 40), h.URL, signed)
			}
			return tw.Flush()
		},
	}
	qf.add(cmd, 0, "list at most this many agents (0: all)")
	return cmd
}

func newRegistrySearchCmd(env *Env) *cobra.Command {
	var qf queryFlags
	cmd := &cobra.Command{
		Use:   "search QUERY",
		Short: "Rank registered agents by full-text relevance to QUERY",
		Long: `Search ranks agents by relevance (BM25 on SQLite, ts_rank on PostgreSQL) over
their names, descriptions, skill names and descriptions, tags and examples.
Down agents are left out unless --status asks for them.`,
		Example: `  agentnet registry search "reverse a text"
  agentnet registry search palindrome --json
  agentnet registry search csv --tag data --status all`,
		Args: minArgs(1, "QUERY"),
		RunE: func(cmd *cobra.Command, args []string) error {
			q, err := qf.query(strings.Join(args, " "))
			if err != nil {
				return err
			}
			c := registryClient(env, qf.regURL)
			hits, err := collect(cmd.Context(), q, qf.limit, c.Search)
			if err != nil {
				return err
			}
			if qf.asJSON {
				return writeJSON(env.Stdout, hits)
			}
			if len(hits) == 0 {
				fmt.Fprintf(env.Stdout, "no agent matches %q\n", q.Text)
				return nil
			}
			tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "SCORE\tNAME\tSTATUS\tURL\tDESCRIPTION")
			for _, h := range hits {
				fmt.Fprintf(tw, "%.3f\t%s\t%s\t%s\t%s\n", h.Score, oneLine(h.Name, 32), h.Health.Status, h.URL, oneLine(h.Description, 60))
			}
			return tw.Flush()
		},
	}
	qf.add(cmd, 10, "show at most this many agents (0: all)")
	return cmd
}

// oneLine makes card text fit a table cell: one line, at most n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
