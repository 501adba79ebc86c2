package orchestrator

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"

	"github.com/agentnet/agentnet/a2a/proxy"
	"github.com/agentnet/agentnet/cards"
	"github.com/agentnet/agentnet/internal/httptimeout"
)

// Remote is the a2a router: the user's own orchestrator, an A2A agent at
// URL, gets the whole chain in one message — the steps' instructions, the
// chain's input and the URL of a registry to find agents in — and does its
// own routing and execution. The registry it gets is a view of the real one
// in which every agent's URL points at a recording proxy of the run, so
// which agent did each step is observed, never taken from its report.
//
// The brief is a text part (the steps, for people and models), a data part
// (for programs) and the chain's input files:
//
//	{"chain": "html-to-top-words", "registry": "http://127.0.0.1:40123",
//	 "steps": [{"step": 1, "instruction": "..."}, ...],
//	 "input": {"text": "...", "data": {...}}, "context_id": "..."}
//
// Its answer's artifacts are the chain's output.
type Remote struct {
	url string
}

var (
	_ Router    = (*Remote)(nil)
	_ Delegator = (*Remote)(nil)
)

// NewRemote returns the a2a router for the orchestrator agent at u.
func NewRemote(u string) (*Remote, error) {
	if msg := cards.CheckURL(u); msg != "" {
		return nil, errors.New(msg)
	}
	return &Remote{url: strings.TrimSuffix(u, "/")}, nil
}

func newRemoteFromConfig(cfg RouterConfig) (Router, error) {
	if cfg.Arg == "" {
		return nil, errors.New("want a2a=URL, the URL of your orchestrator agent")
	}
	return NewRemote(cfg.Arg)
}

// Route is not used: a Remote takes whole chains.
func (*Remote) Route(context.Context, Query, []Candidate) (Decision, error) {
	return Decision{}, ErrDelegates
}

// OrchestratorURL is the orchestrator agent's base URL.
func (r *Remote) OrchestratorURL() string { return r.url }

// Delegation is a chain handed to an orchestrator agent.
type Delegation struct {
	ChainID     string
	ContextID   string
	Steps       []string // the instructions, in order
	Input       Input
	RegistryURL string // the registry view that lists the fleet behind the proxies
}

// Brief is the message that hands the chain over.
func (r *Remote) Brief(d Delegation) *a2a.Message {
	var b strings.Builder
	fmt.Fprintf(&b, "Run this chain of %d steps. Find an agent for each step in the agent registry at %s (GET /v1/search?q=...), "+
		"send it the step's instruction with the previous step's output (its text and files; the attached files for the first step), "+
		"and answer with the last step's output.\n", len(d.Steps), d.RegistryURL)
	steps := make([]any, len(d.Steps))
	for i, s := range d.Steps {
		fmt.Fprintf(&b, "%d. %s\n", i+1, s)
		steps[i] = map[string]any{"step": i + 1, "instruction": s}
	}
	data := map[string]any{"chain": d.ChainID, "registry": d.RegistryURL, "steps": steps, "context_id": d.ContextID}
	in := map[string]any{}
	if d.Input.Text != "" {
		in["text"] = d.Input.Text
	}
	if len(d.Input.Data) > 0 {
		in["data"] = d.Input.Data
	}
	if len(in) > 0 {
		data["input"] = in
	}
	parts := []*a2a.Part{a2a.NewTextPart(b.String()), a2a.NewDataPart(data)}
	for _, f := range d.Input.Files {
		parts = append(parts, filePart(f))
	}
	msg := a2a.NewMessage(a2a.MessageRoleUser, parts...)
	msg.ContextID = d.ContextID
	return msg
}

// OrchestratorLabel labels the orchestrator agent's proxy in traces.
const OrchestratorLabel = "orchestrator"

// delegate hands the chain to the user's orchestrator and reconstructs the
// steps from the trace.
func (s *session) delegate(ctx context.Context, ch Chain, d Delegator, res *Result) {
	fail := func(o Outcome, why string) {
		for i, st := range ch.Steps {
			rec := StepRecord{Step: i + 1, Instruction: st.Instruction, Expected: st.Repo, Outcome: Skipped, Detail: "the chain did not start", Artifacts: []Artifact{}}
			if i == 0 {
				rec.Outcome, rec.Detail = o, why
			}
			res.Steps = append(res.Steps, rec)
		}
	}
	var total time.Duration
	for _, st := range ch.Steps {
		total += s.timeout(ch, st)
	}
	ctx, cancel := context.WithTimeout(ctx, total)
	defer cancel()
	if s.r.registryURL == "" {
		fail(RegistryFailed, errNoRegistryURL.Error())
		return
	}
	cands, err := s.agents(ctx)
	if err != nil {
		fail(RegistryFailed, "read the registry: "+err.Error())
		return
	}
	// Every agent of the fleet gets a proxy: the orchestrator may choose any.
	origins := map[string]string{}
	for i := range cands {
		c := &cands[i]
		p, a, err := s.proxyFor(c.ID, c.URL, true)
		if err != nil {
			fail(TransportFailed, err.Error())
			return
		}
		origins[a] = p
		s.mu.Lock()
		s.labels[c.ID] = c
		s.mu.Unlock()
	}
	view, err := startRegistryView(s.r.registryURL, origins, s.r.toAgents)
	if err != nil {
		fail(RegistryFailed, err.Error())
		return
	}
	defer view.close()

	orchProxy, orchOrigin, err := s.proxyFor(OrchestratorLabel, d.OrchestratorURL(), true)
	if err != nil {
		fail(TransportFailed, err.Error())
		return
	}
	resolver := &agentcard.Resolver{Client: s.client}
	card, err := resolver.Resolve(ctx, orchProxy+pathOf(d.OrchestratorURL()))
	if err != nil {
		fail(TransportFailed, "resolve the orchestrator's card: "+err.Error())
		return
	}
	msg := d.Brief(Delegation{ChainID: ch.ID, ContextID: res.ContextID, Steps: instructions(ch), Input: ch.Input, RegistryURL: view.url})
	start := time.Now()
	// The card was read through the proxy, so its URL is the proxy's already.
	cr := s.call(ctx, card, orchOrigin, orchProxy, msg)
	end := time.Now()

	sends := Sends(s.log.Entries())
	var fleet []Send
	for _, sd := range sends {
		if sd.Agent != OrchestratorLabel {
			fleet = append(fleet, sd)
		}
	}
	perStep, extra := Attribute(fleet, len(ch.Steps))
	for _, e := range extra {
		if c := s.labels[e.Agent]; c != nil {
			res.Extra = append(res.Extra, *refOf(c))
		}
	}
	for i, st := range ch.Steps {
		rec := StepRecord{Step: i + 1, Instruction: st.Instruction, Expected: st.Repo, Artifacts: []Artifact{}}
		g := perStep[i]
		if len(g) == 0 {
			rec.Outcome, rec.Detail = NoAgent, "the orchestrator sent no message for this step"
			if cr.outcome != OK {
				rec.Outcome, rec.Detail = cr.outcome, "the orchestrator failed before this step: "+cr.detail
			}
			res.Steps = append(res.Steps, rec)
			continue
		}
		last := g[len(g)-1]
		c := s.labels[last.Agent]
		rec.Routed, rec.Observed = refOf(c), refOf(c)
		rec.Correct = rec.Observed != nil && s.r.matches(st.Repo, *rec.Observed)
		rec.Reason = "observed in the trace"
		rec.Attempts, rec.State, rec.TaskID, rec.ContextID = len(g), last.State, last.TaskID, last.ContextID
		rec.Started = g[0].Start
		rec.CallMS = ms(last.End.Sub(g[0].Start))
		rec.TotalMS = rec.CallMS
		for _, sd := range g {
			rec.Exchanges = append(rec.Exchanges, sd.Exchange)
		}
		for _, name := range last.Artifacts {
			rec.Artifacts = append(rec.Artifacts, Artifact{Name: name})
		}
		switch {
		case last.State == "completed" && !last.Content:
			rec.Outcome, rec.Detail = EmptyAnswer, "the agent completed the task with no text and no file"
			if last.Status != "" {
				rec.Detail += "; it said: " + last.Status
			}
		case last.State == "completed":
			rec.Outcome = OK
		case !last.Answered:
			rec.Outcome, rec.Detail = TransportFailed, last.Error
		case last.Error != "":
			rec.Outcome, rec.Detail = AgentFailed, last.Error
		case last.State == "":
			rec.Outcome, rec.Detail = ProtocolError, "no task state in the answer"
		default:
			rec.Outcome, rec.Detail = AgentFailed, "the task ended "+last.State
			if last.Status != "" {
				rec.Detail += ": " + last.Status
			}
		}
		res.Steps = append(res.Steps, rec)
	}
	if cr.outcome != OK {
		// The orchestrator's own failure is the chain's, whatever the steps did.
		res.Steps[len(res.Steps)-1].Outcome = cr.outcome
		res.Steps[len(res.Steps)-1].Detail = "the orchestrator: " + cr.detail
		return
	}
	res.Output = cr.out
	if err := s.fetchOutputs(ctx, &res.Output); err != nil && len(res.Steps) > 0 {
		res.Steps[len(res.Steps)-1].Outcome = TransportFailed
		res.Steps[len(res.Steps)-1].Detail = err.Error()
		res.Output = Output{}
		return
	}
	s.r.log.Info("delegated chain done", "case", ch.ID, "sends", len(fleet), "elapsed", end.Sub(start))
}

func instructions(ch Chain) []string {
	out := make([]string, len(ch.Steps))
	for i, st := range ch.Steps {
		out[i] = st.Instruction
	}
	return out
}

func pathOf(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(p.EscapedPath(), "/")
}

// registryView serves the registry's API with every fleet agent's origin
// replaced by its proxy's, so that whoever reads it reaches the agents
// through the proxies.
type registryView struct {
	url  string
	srv  *http.Server
	done chan struct{}
}

func startRegistryView(upstream string, origins map[string]string, rt http.RoundTripper) (*registryView, error) {
	target, err := url.Parse(strings.TrimSuffix(upstream, "/"))
	if err != nil || target.Host == "" {
		return nil, fmt.Errorf("registry URL %q: not an http(s) URL", upstream)
	}
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.Out.Header.Del("Accept-Encoding")
		},
		Transport: rt,
		ModifyResponse: func(resp *http.Response) error {
			if !strings.Contains(resp.Header.Get("Content-Type"), "json") {
				return nil
			}
			data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
			resp.Body.Close()
			if err != nil {
				return err
			}
			for from, to := range origins {
				data = proxy.ReplaceOrigin(data, from, to)
			}
			resp.Body = io.NopCloser(bytes.NewReader(data))
			resp.ContentLength = int64(len(data))
			resp.Header.Set("Content-Length", strconv.Itoa(len(data)))
			return nil
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadGateway)
			fmt.Fprintf(w, `{"error":%q}`, "the registry is unreachable: "+err.Error())
		},
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("registry view: %w", err)
	}
	// The view is read-only: the orchestrator finds agents, it does not
	// register or remove them.
	readOnly := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusMethodNotAllowed)
			io.WriteString(w, `{"error":"this registry view is read-only"}`)
			return
		}
		rp.ServeHTTP(w, r)
	})
	v := &registryView{url: "http://" + ln.Addr().String(), srv: httptimeout.Server(readOnly, httptimeout.Default), done: make(chan struct{})}
	go func() {
		defer close(v.done)
		v.srv.Serve(ln)
	}()
	return v, nil
}

func (v *registryView) close() {
	ctx, cancel := context.WithTimeout(context.Background(), proxy.ShutdownTimeout)
	defer cancel()
	if v.srv.Shutdown(ctx) != nil {
		v.srv.Close()
	}
	<-v.done
}
