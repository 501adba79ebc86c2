// Package host serves one agent bundle as a live A2A endpoint — the card at
// /.well-known/agent-card.json and, on one port, the three A2A 1.0 bindings
// the card lists: JSON-RPC for A2A 1.0 and 0.3 clients at the card's URL,
// HTTP+JSON at /message:send, /message:stream, /tasks/... and
// /extendedAgentCard, and gRPC over cleartext HTTP/2 (h2c, told apart by
// Content-Type application/grpc), through a2a-go/v2's a2asrv, a2agrpc and
// a2acompat/a2av0 — and as MCP tools (streamable HTTP at /mcp, or stdio).
// A request whose A2A-Version its binding does not serve is refused with
// VersionNotSupportedError (version.go).
//
// The inner agent turns each incoming message into one skill run: it picks
// the skill (an explicit "skill" in the message metadata, else an LLM tool
// call when one is configured, else BM25 over the skills' names,
// descriptions, tags and examples), binds arguments by the parameters'
// roles with a Binder (bind.go: the rules binder's named steps, or a model's
// tool call, bindllm.go), each argument's evidence recorded in the output
// artifact's metadata and the log — or takes them as given from a
// structured call, a data part {"skill", "arguments"}, or MCP — validates
// them against the skill's params schema, runs the argv template with no
// shell in a fresh work directory under the skill's timeout, in a process
// group of its own that is killed on timeout, cancel and Close, feeding it
// the skill's stdin parameter when it declares one, and answers with a task
// whose artifacts are the skill's standard output and every file it wrote
// or changed. A run that exits 1 with a report on standard output and
// nothing on standard error (a linter's findings, a diff) completes with
// that report; any other failure says what the tool printed on both
// streams. A run that printed nothing, wrote nothing and took none of the
// message's files or text fails, saying so, rather than completing empty.
//
//	b, err := bundle.Load("out/textkit")
//	h, err := host.New(b, "http://127.0.0.1:8080/", host.WithLogger(logger), host.WithEnv(os.Environ()))
//	defer h.Close()
//	srv := h.Server(host.DefaultTimeouts)
//	srv.Addr = "127.0.0.1:8080"
//	go srv.ListenAndServe()
//
// A bundle with serve brings its own A2A server instead: Start runs it on a
// free loopback port in a process group of its own, waits for its card, and
// then serves that card with the server's URLs rewritten to the host's and
// reverse-proxies everything else (JSON-RPC, server-sent events unbuffered)
// to it, so that runtimes, registry and callers see one kind of agent.
//
// Every request first passes the guard (guard.go): its Host header must name
// an address the host is served as (WithAllowHosts), a browser's Origin must
// be its own or the one WithCORS allows; a gRPC call then goes to the gRPC
// server, which bounds each message by WithMaxBody and its nesting by
// WithMaxDepth as it decodes it (bindings.go); any other POST with a body
// must be application/json, and its body must fit WithMaxBody and nest JSON
// at most WithMaxDepth deep — checked on the raw bytes before a2a-go or
// mcp-go decode it. A message is
// then held to WithMaxParts parts and WithMaxFileBytes of files, its large
// files spooled to disk (limits.go). Every argv is built by one function,
// buildArgv (argv.go), which keeps file parameters (format path and
// output-path) inside the task's work directory and never lets a value
// become an option. At most WithMaxRunning skills run at once, WithMaxQueued
// more wait, and further tasks fail as busy; finished tasks are forgotten
// after WithTaskTTL or beyond WithMaxTasks; all of it whichever binding
// brought the message. Server gives an http.Server for HTTP/1.1 and h2c
// with header, read, per-write and idle timeouts. SECURITY.md says all of it
// for operators.
//
// Files by reference (files.go): a file a skill writes above
// WithInlineFileMax is answered with a FilePart holding its URL under
// FilesPath, a random token that alone reaches it, streamed from disk and
// removed with its task; a message's file part by URL is fetched into the
// work directory when its origin is on the fetch list (WithFetchFrom) or
// an orchestrator holding the host's key vouched for it (WithVouchKey),
// under package fetchpolicy's redirect and address rules. The task store
// (store.go) copies a task's structure, never its bytes. A blocking
// SendMessage that starts a task is answered by directHandler (direct.go)
// without a2a-go's task manager: the skill runs in the request's goroutine
// and the task is stored once, as it ended; streams and every other call
// take a2a-go's path.
//
// A Host is safe for concurrent use; every task runs in its own goroutine
// (the request's, for a blocking call) and process.
package host
