// Package registry is agentnet's agent-card registry: a service that fetches
// agents' cards from their well-known path, validates and stores them, ranks
// them by full-text search, probes their health and serves all of it over
// HTTP (docs/registry.md) and as a web page.
//
// The pieces, each usable alone:
//
//   - Store keeps records. OpenSQLite is the default: an embedded SQLite file
//     (pure Go, no cgo) in WAL mode with schema migrations and an FTS5 index
//     ranked by bm25. ":memory:" gives an in-memory store for tests.
//     OpenPostgres keeps them in a PostgreSQL database (pgx), searched with
//     a weighted tsvector in a GIN index ranked by ts_rank, for several
//     registry instances on one database. Open picks one by its argument: a
//     postgres:// URL or a file path. Both pass the same conformance tests.
//   - Service registers agents by URL (fetch, validate through a
//     CardValidator, store) and answers lists and searches. Card fetches
//     follow redirects only within the card's origin; WithDenyPrivate
//     refuses non-public addresses, checked after resolution and again at
//     connect time (deny.go). A failed fetch is a FetchError: its category
//     is public, its detail is for the log and for token holders.
//   - Prober checks every registered agent on a jittered interval with
//     bounded concurrency and records up, down or changed. Instances on one
//     PostgreSQL database elect one prober among them (ProbeLeader, an
//     advisory lock), so each agent is probed once per interval.
//   - NewHandler serves a Service over HTTP (the only file that knows gin).
//   - Client is the Go client of that API, used by the CLI, fleets and the
//     orchestrator.
//
// A registry in a few lines:
//
//	store, err := registry.OpenSQLite(ctx, "registry.db")
//	if err != nil { ... }
//	defer store.Close()
//	svc := registry.NewService(store, validator) // validator wraps the cards package
//	h := registry.NewHandler(svc, registry.WithToken(os.Getenv("AGENTNET_REGISTRY_TOKEN")))
//	go registry.NewProber(svc).Run(ctx)
//	http.ListenAndServe("127.0.0.1:8700", h)
//
// and its client:
//
//	c := registry.NewClient("http://127.0.0.1:8700", registry.WithClientToken(token))
//	rec, err := c.Register(ctx, "http://127.0.0.1:9001")
//	hits, err := c.Search(ctx, registry.Query{Text: "palindrome"})
package registry
