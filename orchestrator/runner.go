package orchestrator

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"golang.org/x/sync/errgroup"

	"github.com/agentnet/agentnet/a2a/binding"
	"github.com/agentnet/agentnet/a2a/proxy"
	"github.com/agentnet/agentnet/internal/sniff"
	"github.com/agentnet/agentnet/internal/sqlwords"
)

// Defaults of the runner's options.
const (
	DefaultStepTimeout = 2 * time.Minute
	DefaultAttempts    = 3 // tries of a call that fails in transport
	DefaultBackoff     = 250 * time.Millisecond
	DefaultMaxBackoff  = 2 * time.Second
	DefaultParallel    = 4
)

// Option configures a Runner.
type Option func(*Runner)

// WithLogger sets the logger (default: discard).
func WithLogger(l *slog.Logger) Option { return func(r *Runner) { r.log = l } }

// WithStepTimeout sets the timeout of steps that name none.
func WithStepTimeout(d time.Duration) Option { return func(r *Runner) { r.stepTimeout = d } }

// WithRetry sets how often a call that fails in transport is tried in all
// and the backoff between tries, doubling up to maxBackoff.
func WithRetry(attempts int, backoff, maxBackoff time.Duration) Option {
	return func(r *Runner) { r.attempts, r.backoff, r.maxBackoff = max(attempts, 1), backoff, maxBackoff }
}

// WithRegistryURL gives the registry's base URL, which a delegating router
// (a2a) needs: its orchestrator reads the registry through a view that
// lists the fleet behind the runner's recording proxies.
func WithRegistryURL(u string) Option { return func(r *Runner) { r.registryURL = u } }

// WithRepoMatcher sets how an agent is recognized as the agent of a repo
// (default: its card name equals the repo id, ignoring case and
// punctuation, or its registry id does).
func WithRepoMatcher(match func(repo string, agent AgentRef) bool) Option {
	return func(r *Runner) { r.matches = match }
}

// WithParallel sets how many chains RunAll runs at once.
func WithParallel(n int) Option { return func(r *Runner) { r.parallel = max(n, 1) } }

// WithBinding sets the A2A binding the runner's calls use (default
// JSON-RPC): an agent whose card lists no interface of it cannot be called.
func WithBinding(b binding.Binding) Option { return func(r *Runner) { r.binding = b } }

// WithRouterName sets the router's name for records (default: its type).
func WithRouterName(name string) Option { return func(r *Runner) { r.routerName = name } }

// Runner runs chains: for each step it reads the registry, asks the router,
// and sends the step to the chosen agent through a recording proxy of the
// chain's own, passing each step's output on as the next step's input. A
// Runner is safe for concurrent use; Close releases its connections.
type Runner struct {
	dir         Directory
	router      Router
	routerName  string
	log         *slog.Logger
	stepTimeout time.Duration
	attempts    int
	backoff     time.Duration
	maxBackoff  time.Duration
	registryURL string
	matches     func(string, AgentRef) bool
	parallel    int

	outputFetchMax int64
	vouchKey       []byte

	toAgents  *http.Transport // proxies → agents
	toProxies *http.Transport // runner → proxies
	binding   binding.Binding
	conns     *binding.Conns // gRPC: runner → proxies

	// The fleet's proxies, shared by the chains the runner routes itself;
	// each chain tags its requests and gets its own entries (demux).
	demux   proxy.Demux
	mu      sync.Mutex
	proxies map[string]*proxy.Server // by label and agent origin
}

// TagHeader is the request header by which a chain's requests are told
// apart at the runner's shared proxies; the proxies do not pass it on.
const TagHeader = "X-Agentnet-Chain"

// New returns a runner that finds agents in dir and routes with router.
func New(dir Directory, router Router, opts ...Option) *Runner {
	r := &Runner{
		dir: dir, router: router,
		log:         slog.New(slog.DiscardHandler),
		stepTimeout: DefaultStepTimeout,
		attempts:    DefaultAttempts, backoff: DefaultBackoff, maxBackoff: DefaultMaxBackoff,
		matches:  matchByName,
		parallel: DefaultParallel,
		proxies:  map[string]*proxy.Server{},
		binding:  binding.JSONRPC,
		conns:    &binding.Conns{Opts: grpcOptions()},

		outputFetchMax: DefaultOutputFetchMax,
	}
	for _, o := range opts {
		o(r)
	}
	if r.routerName == "" {
		r.routerName = strings.TrimPrefix(fmt.Sprintf("%T", router), "*orchestrator.")
	}
	newTransport := func() *http.Transport {
		return &http.Transport{
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			MaxIdleConnsPerHost: 32,
			IdleConnTimeout:     30 * time.Second,
			DisableCompression:  true,
		}
	}
	r.toAgents, r.toProxies = newTransport(), newTransport()
	return r
}

// Close stops the runner's proxies and releases its connections. Call it
// once the runner's chains have returned; the runner is not used after.
func (r *Runner) Close() error {
	r.mu.Lock()
	servers := make([]*proxy.Server, 0, len(r.proxies))
	for _, p := range r.proxies {
		servers = append(servers, p)
	}
	r.proxies = map[string]*proxy.Server{}
	r.mu.Unlock()
	for _, p := range servers {
		p.Close()
	}
	r.toAgents.CloseIdleConnections()
	r.toProxies.CloseIdleConnections()
	r.conns.Close()
	return nil
}

// sharedProxy returns the origin of the runner's proxy in front of the
// agent labelled label at agentOrigin, starting it on first use.
func (r *Runner) sharedProxy(label, agentOrigin string) (string, error) {
	key := label + " " + agentOrigin
	r.mu.Lock()
	defer r.mu.Unlock()
	if p, ok := r.proxies[key]; ok {
		return p.URL, nil
	}
	p, err := proxy.New(label, agentOrigin, &r.demux, proxy.WithTransport(r.toAgents), proxy.WithLogger(r.log), proxy.WithTagHeader(TagHeader))
	if err != nil {
		return "", err
	}
	srv, err := p.Listen("127.0.0.1:0")
	if err != nil {
		return "", err
	}
	r.proxies[key] = srv
	return srv.URL, nil
}

// matchByName is the default repo matcher.
func matchByName(repo string, a AgentRef) bool {
	n := norm(repo)
	return n != "" && (norm(a.Name) == n || norm(a.ID) == n)
}

func norm(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// RunAll runs chains, at most WithParallel at once, and returns their
// results in order. trace, when non-nil, gives the writer of each chain's
// trace (nil for none). A chain that fails never stops the others.
func (r *Runner) RunAll(ctx context.Context, chains []Chain, trace func(Chain) io.Writer) []*Result {
	results := make([]*Result, len(chains))
	var g errgroup.Group
	g.SetLimit(r.parallel)
	for i, ch := range chains {
		g.Go(func() error {
			var w io.Writer
			if trace != nil {
				w = trace(ch)
			}
			res, err := r.Run(ctx, ch, w)
			if err != nil {
				res = &Result{Chain: ch.ID, Router: r.routerName, Outcome: InternalError, Detail: err.Error(), Steps: []StepRecord{}}
			}
			results[i] = res
			return nil
		})
	}
	g.Wait()
	return results
}

// Run runs one chain and writes its trace to w (nil: kept in the result
// only). Faults end the chain with a recorded outcome; the error is only for
// a chain that cannot run at all (no steps) or a panic in the runner.
func (r *Runner) Run(ctx context.Context, ch Chain, w io.Writer) (res *Result, err error) {
	if len(ch.Steps) == 0 {
		return nil, fmt.Errorf("chain %q has no steps", ch.ID)
	}
	s := &session{r: r, log: proxy.NewLog(w), proxies: map[string]*proxy.Server{}, labels: map[string]*Candidate{}, tag: a2a.NewContextID()}
	s.client = &http.Client{Transport: classifying{base: r.toProxies, tag: s.tag}}
	r.demux.Add(s.tag, s.log)
	defer s.close()
	defer func() {
		if p := recover(); p != nil {
			r.log.Error("chain panicked", "case", ch.ID, "panic", p, "stack", string(debug.Stack()))
			err = fmt.Errorf("chain %q: internal error: %v", ch.ID, p)
		}
	}()
	res = &Result{Chain: ch.ID, Router: r.routerName, Binding: string(r.binding), ContextID: s.tag, Started: time.Now().UTC()}
	start := time.Now()
	if d, ok := r.router.(Delegator); ok {
		s.delegate(ctx, ch, d, res)
	} else {
		s.steps(ctx, ch, res)
	}
	res.ElapsedMS = ms(time.Since(start))
	res.OutputText = res.Output.Text
	res.OutputFiles = artifactsOf(res.Output)
	res.Trace = s.log.Entries()
	if werr := s.log.Err(); werr != nil {
		r.log.Warn("trace not written", "case", ch.ID, "err", werr)
	}
	res.OrchestrationOK = len(res.Steps) == len(ch.Steps)
	for _, st := range res.Steps {
		res.Tokens += st.Tokens
		res.OrchestrationOK = res.OrchestrationOK && st.Correct
	}
	if len(res.Extra) > 0 {
		res.OrchestrationOK = false // a delegated chain that sent more messages than it has steps
	}
	res.Outcome, res.Detail = OK, ""
	for _, st := range res.Steps {
		if st.Outcome != OK {
			res.Outcome, res.Detail = st.Outcome, fmt.Sprintf("step %d: %s", st.Step, st.Detail)
			break
		}
	}
	r.log.Info("chain done", "case", ch.ID, "outcome", res.Outcome, "orchestration_ok", res.OrchestrationOK, "elapsed_ms", res.ElapsedMS)
	return res, nil
}

func artifactsOf(o Output) []Artifact {
	list := []Artifact{}
	for _, f := range o.Files {
		list = append(list, Artifact{Name: f.Name, MediaType: f.MediaType, Bytes: int(f.Bytes())})
	}
	return list
}

// session is one chain's run: its proxies, its trace, its client.
type session struct {
	r      *Runner
	log    *proxy.Log
	client *http.Client

	tag string // the chain's tag at the runner's proxies (and its context id)

	mu      sync.Mutex
	proxies map[string]*proxy.Server // the chain's own proxies, by label and origin
	labels  map[string]*Candidate    // proxy label → candidate
}

func (s *session) close() {
	defer s.r.demux.Remove(s.tag)
	s.mu.Lock()
	servers := make([]*proxy.Server, 0, len(s.proxies))
	for _, p := range s.proxies {
		servers = append(servers, p)
	}
	s.proxies = map[string]*proxy.Server{}
	s.mu.Unlock()
	for _, p := range servers {
		p.Close()
	}
}

// proxyFor returns the origin of a proxy in front of the agent at base —
// the runner's shared one, or with own set, one of the chain's own, started
// on first use — and the agent's own origin.
func (s *session) proxyFor(label, base string, own bool) (proxyOrigin, agentOrigin string, err error) {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return "", "", fmt.Errorf("agent %s: bad URL %q", label, base)
	}
	agentOrigin = u.Scheme + "://" + u.Host
	if !own {
		p, err := s.r.sharedProxy(label, agentOrigin)
		return p, agentOrigin, err
	}
	key := label + " " + agentOrigin
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.proxies[key]; ok {
		return p.URL, agentOrigin, nil
	}
	p, err := proxy.New(label, agentOrigin, s.log, proxy.WithTransport(s.r.toAgents), proxy.WithLogger(s.r.log), proxy.WithTagHeader(TagHeader))
	if err != nil {
		return "", "", err
	}
	srv, err := p.Listen("127.0.0.1:0")
	if err != nil {
		return "", "", err
	}
	s.proxies[key] = srv
	return srv.URL, agentOrigin, nil
}

// agents reads the registry, retrying transport failures like calls.
func (s *session) agents(ctx context.Context) ([]Candidate, error) {
	delay := s.r.backoff
	for n := 1; ; n++ {
		cands, err := s.r.dir.Agents(ctx)
		if err == nil || n >= s.r.attempts || ctx.Err() != nil {
			return cands, err
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(delay):
		}
		delay = min(delay*2, s.r.maxBackoff)
	}
}

// route asks the router, turning a panic into an error.
func (s *session) route(ctx context.Context, q Query, up []Candidate) (d Decision, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.r.log.Error("router panicked", "panic", p, "stack", string(debug.Stack()))
			err = fmt.Errorf("the router panicked: %v", p)
		}
	}()
	return s.r.router.Route(ctx, q, up)
}

func (s *session) timeout(ch Chain, st Step) time.Duration {
	switch {
	case st.Timeout > 0:
		return st.Timeout
	case ch.Timeout > 0:
		return ch.Timeout
	}
	return s.r.stepTimeout
}

// steps runs a chain step by step with the runner's router.
func (s *session) steps(ctx context.Context, ch Chain, res *Result) {
	var prev *Output
	failed := false
	for i, st := range ch.Steps {
		rec := StepRecord{Step: i + 1, Instruction: st.Instruction, Expected: st.Repo, Artifacts: []Artifact{}}
		if failed {
			rec.Outcome, rec.Detail = Skipped, "an earlier step failed"
			res.Steps = append(res.Steps, rec)
			continue
		}
		out := s.step(ctx, ch, i, prev, &rec, res.ContextID)
		res.Steps = append(res.Steps, rec)
		if rec.Outcome != OK {
			failed = true
			continue
		}
		prev = out
		res.Output = *out
	}
	if failed {
		res.Output = Output{}
		return
	}
	if err := s.fetchOutputs(ctx, &res.Output); err != nil && len(res.Steps) > 0 {
		last := &res.Steps[len(res.Steps)-1]
		last.Outcome, last.Detail = TransportFailed, err.Error()
		res.Output = Output{}
	}
}

// step runs step i and fills rec; it returns the step's output when ok.
func (s *session) step(ctx context.Context, ch Chain, i int, prev *Output, rec *StepRecord, contextID string) *Output {
	st := ch.Steps[i]
	start := time.Now()
	rec.Started = start.UTC()
	defer func() { rec.TotalMS = ms(time.Since(start)) }()
	sctx, cancel := context.WithTimeout(ctx, s.timeout(ch, st))
	defer cancel()

	cands, err := s.agents(sctx)
	if err != nil {
		rec.Outcome, rec.Detail = RegistryFailed, "read the registry: "+err.Error()
		if sctx.Err() != nil {
			rec.Outcome, rec.Detail = ctxOutcome(sctx, rec.Detail)
		}
		return nil
	}
	var up []Candidate
	for _, c := range cands {
		if !c.Down() && c.Card != nil {
			up = append(up, c)
		}
	}
	msg := stepMessage(st.Instruction, ch.Input, prev, i == 0, contextID)
	s.r.vouch(msg)
	types := fileTypes(msg)
	q := Query{Instruction: st.Instruction, Step: i + 1, Steps: len(ch.Steps), Inputs: fileNames(msg), Types: types, Columns: tableColumns(msg)}
	var d Decision
	// Only agents that take what the step carries are ranked (accepts.go).
	if fit := fitting(up, types); len(fit) > 0 || len(up) == 0 {
		d, err = s.route(sctx, q, fit)
	} else {
		d.Reason = "no agent takes the step's files (" + strings.Join(types, ", ") + ")"
	}
	rec.RouteMS = ms(time.Since(start))
	rec.Tokens, rec.Score, rec.Reason, rec.Skill = d.Tokens, d.Score, d.Reason, d.Skill
	if err == nil {
		rec.Ranking = rankingOf(d)
	}
	switch {
	case err != nil:
		rec.Outcome, rec.Detail = RoutingFailed, err.Error()
		if sctx.Err() != nil {
			rec.Outcome, rec.Detail = ctxOutcome(sctx, err.Error())
		}
		return nil
	case d.Agent == nil:
		rec.Outcome, rec.Detail = NoAgent, "no suitable agent: "+d.Reason
		return nil
	}
	rec.Routed = refOf(d.Agent)
	s.r.log.Info("step routed", "case", ch.ID, "step", i+1, "agent", d.Agent.Name(), "score", d.Score)
	proxyOrigin, agentOrigin, err := s.proxyFor(d.Agent.ID, d.Agent.URL, false)
	if err != nil {
		rec.Outcome, rec.Detail = TransportFailed, err.Error()
		return nil
	}
	s.mu.Lock()
	s.labels[d.Agent.ID] = d.Agent
	s.mu.Unlock()

	callStart, mark := time.Now(), s.log.Len()
	cr := s.call(sctx, d.Agent.Card, agentOrigin, proxyOrigin, msg)
	callEnd := time.Now()
	rec.CallMS = ms(callEnd.Sub(callStart))
	rec.Outcome, rec.Detail, rec.Attempts = cr.outcome, cr.detail, cr.attempts
	rec.State, rec.TaskID, rec.ContextID = StateName(cr.state), cr.taskID, cr.contextID
	if cr.state == a2a.TaskStateUnspecified {
		rec.State = ""
	}
	rec.Artifacts = cr.arts

	// What the trace saw decides which agent did the step.
	sends := within(Sends(s.log.EntriesFrom(mark)), callStart, callEnd)
	for _, sd := range sends {
		rec.Exchanges = append(rec.Exchanges, sd.Exchange)
	}
	if len(sends) > 0 {
		s.mu.Lock()
		c := s.labels[sends[len(sends)-1].Agent]
		s.mu.Unlock()
		rec.Observed = refOf(c)
		rec.Correct = rec.Observed != nil && s.r.matches(st.Repo, *rec.Observed)
	}
	if cr.outcome != OK {
		return nil
	}
	rec.Output = &cr.out
	if cr.contextID != "" && cr.contextID != contextID {
		s.r.log.Warn("the agent answered in another context", "case", ch.ID, "step", i+1, "sent", contextID, "got", cr.contextID)
	}
	return &cr.out
}

// rankingOf is the ranking a step records of a router's decision: the
// router's own (at most MaxRanking), else its choice alone.
func rankingOf(d Decision) []Ranked {
	var out []Ranked
	for _, sc := range d.Ranking {
		if sc.Agent == nil {
			continue
		}
		if len(out) == MaxRanking {
			break
		}
		out = append(out, Ranked{AgentRef: *refOf(sc.Agent), Score: sc.Score})
	}
	if len(out) == 0 && d.Agent != nil {
		out = []Ranked{{AgentRef: *refOf(d.Agent), Score: d.Score}}
	}
	return out
}

// stepMessage builds a step's message: the instruction as text, then the
// chain's input for the first step, or the previous step's file artifacts
// and its text output (as the file input.txt, input.csv, ... by what it
// holds, the way a tool reads a previous tool's output) for later steps.
func stepMessage(instruction string, in Input, prev *Output, first bool, contextID string) *a2a.Message {
	parts := []*a2a.Part{a2a.NewTextPart(instruction)}
	if first {
		if strings.TrimSpace(in.Text) != "" {
			parts = append(parts, a2a.NewTextPart(in.Text))
		}
		if len(in.Data) > 0 {
			parts = append(parts, a2a.NewDataPart(in.Data))
		}
		for _, f := range in.Files {
			parts = append(parts, filePart(f))
		}
	} else if prev != nil {
		for _, f := range prev.Files {
			parts = append(parts, filePart(f))
		}
		if strings.TrimSpace(prev.Text) != "" {
			ext, mediaType := sniff.Text(prev.Text)
			parts = append(parts, filePart(File{Name: PreviousOutputStem + ext, MediaType: mediaType, Data: []byte(prev.Text)}))
		}
	}
	msg := a2a.NewMessage(a2a.MessageRoleUser, parts...)
	msg.ContextID = contextID
	return msg
}

// PreviousOutputStem is the name, without its extension, of the file under
// which a step's text output is passed to the next step: input.csv for a
// table, input.json, input.html, else input.txt (see sniff.Text).
const PreviousOutputStem = "input"

func filePart(f File) *a2a.Part {
	mt := f.MediaType
	if mt == "" {
		mt = "application/octet-stream"
	}
	if f.URL != "" && f.Data == nil {
		return &a2a.Part{Content: a2a.URL(f.URL), Filename: f.Name, MediaType: mt}
	}
	return &a2a.Part{Content: a2a.Raw(f.Data), Filename: f.Name, MediaType: mt}
}

// tableColumns are the columns of the one file part of m that holds a
// table, or nil (none, or several).
func tableColumns(m *a2a.Message) []string {
	var cols []string
	for _, p := range m.Parts {
		raw, ok := p.Content.(a2a.Raw)
		if !ok {
			continue
		}
		if c := sqlwords.Columns(bytes.NewReader(raw), p.Filename); len(c) > 0 {
			if cols != nil {
				return nil
			}
			cols = c
		}
	}
	return cols
}

func fileNames(m *a2a.Message) []string {
	var out []string
	for _, p := range m.Parts {
		switch p.Content.(type) {
		case a2a.Raw, a2a.URL:
			out = append(out, p.Filename)
		}
	}
	return out
}

func jsonText(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

var errNoRegistryURL = errors.New("the a2a router needs the registry's URL (WithRegistryURL, --registry)")
