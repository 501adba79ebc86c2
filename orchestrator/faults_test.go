package orchestrator_test

import (
	"context"
	"io"
	"iter"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/agentnet/agentnet/a2a/proxy"
	"github.com/agentnet/agentnet/orchestrator"
)

// endless is an agent that reports "working" forever.
type endless struct{}

func (endless) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		if !yield(a2a.NewSubmittedTask(ec, ec.Message), nil) {
			return
		}
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if !yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateWorking, nil), nil) {
					return
				}
			}
		}
	}
}

func (endless) Cancel(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, nil), nil)
	}
}

// malformedAgent serves a valid card and answers every JSON-RPC call with
// a cut-off body.
func malformedAgent(t *testing.T, body string) (string, *a2a.AgentCard) {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	url := "http://" + srv.Listener.Addr().String() + "/"
	card := &a2a.AgentCard{
		Name: "garbler", Description: "Answers with broken JSON.", Version: "1.0.0",
		SupportedInterfaces: []*a2a.AgentInterface{a2a.NewAgentInterface(url, a2a.TransportProtocolJSONRPC)},
		DefaultInputModes:   []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []a2a.AgentSkill{{ID: "garble", Name: "garble", Description: "Garble text.", Tags: []string{}}},
	}
	mux := http.NewServeMux()
	mux.Handle(a2asrv.WellKnownAgentCardPath, a2asrv.NewStaticAgentCardHandler(card))
	mux.HandleFunc("POST /{$}", func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	})
	srv.Config.Handler = mux
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL, card
}

// gone is a Directory that stops its registry after the first read.
type gone struct {
	directory
	reg  *testRegistry
	once sync.Once
}

func (g *gone) Agents(ctx context.Context) ([]orchestrator.Candidate, error) {
	cands, err := g.directory.Agents(ctx)
	g.once.Do(func() {
		g.reg.srv.CloseClientConnections()
		g.reg.srv.Close()
	})
	return cands, err
}

// TestFaults breaks agents and the registry mid-chain. Each fault ends its
// step (and chain) with a recorded reason while other chains run on, and
// nothing is left behind: no goroutine, no child process. It does not run
// in parallel with other tests, so that it can count.
func TestFaults(t *testing.T) {
	baseline := runtime.NumGoroutine()
	if kids := children(); len(kids) > 0 {
		t.Fatalf("child processes before the test: %v", kids)
	}
	fast := orchestrator.WithRetry(3, 20*time.Millisecond, 100*time.Millisecond)

	t.Run("agent killed mid-chain", func(t *testing.T) {
		reg := startRegistry(t)
		slow := strings.Replace(backtestSh, "awk", "sleep 3; awk", 1)
		child := startChild(t, writeBundle(t, backtestYAML, map[string]string{"bt.sh": slow}))
		plot := serveBundle(t, writeBundle(t, plotterYAML, map[string]string{"plot.sh": plotterSh}))
		count := serveBundle(t, writeBundle(t, counterYAML, map[string]string{"count.sh": counterSh}))
		reg.register(t, child.URL, plot.URL, count.URL)
		r := orchestrator.New(directory{reg.client}, orchestrator.NewBM25(), fast, orchestrator.WithParallel(2))
		defer r.Close()

		other := orchestrator.Chain{ID: "other", Input: orchestrator.Input{Text: "a b c\n"},
			Steps: []orchestrator.Step{{Repo: "textstats", Instruction: "Count the lines and words of this document."}}}
		// Kill the agent once the trace shows its task working.
		var logs sync.Map
		killed := make(chan struct{})
		go func() {
			defer close(killed)
			for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
				if w, ok := logs.Load("backtest-chart-count"); ok && strings.Contains(w.(*syncBuffer).String(), "TASK_STATE_WORKING") {
					child.kill()
					return
				}
			}
		}()
		results := r.RunAll(t.Context(), []orchestrator.Chain{backtestChain(), other}, func(ch orchestrator.Chain) io.Writer {
			b := &syncBuffer{}
			logs.Store(ch.ID, b)
			return b
		})
		<-killed
		res := results[0]
		st := res.Steps[0]
		if st.Outcome != orchestrator.TransportFailed || st.Attempts != 3 || res.Steps[1].Outcome != orchestrator.Skipped {
			t.Errorf("killed chain: %s attempts %d; want transport_failed after 3 attempts, then skipped", stepSummary(res), st.Attempts)
		}
		if !strings.Contains(st.Detail, "connection refused") {
			t.Errorf("step detail = %q, want the refused connection of the last attempt", st.Detail)
		}
		if res.Outcome != orchestrator.TransportFailed || res.OrchestrationOK {
			t.Errorf("chain outcome = %s (orchestration ok %v)", res.Outcome, res.OrchestrationOK)
		}
		// The first attempt's stream broke mid-way; the trace says so.
		broke := false
		for _, e := range res.Trace {
			if e.Kind == proxy.KindEnd && strings.Contains(e.Error, "broke") {
				broke = true
			}
		}
		if !broke {
			t.Error("the trace has no broken stream")
		}
		if o := results[1]; o.Outcome != orchestrator.OK || !o.OrchestrationOK {
			t.Errorf("the other chain: %s, want ok", stepSummary(o))
		}
	})

	t.Run("malformed JSON-RPC body", func(t *testing.T) {
		const bad = `{"jsonrpc":"2.0","id":"1","result":{"task":{"id":`
		url, card := malformedAgent(t, bad)
		r := orchestrator.New(staticDir{candidate("g", url, card)}, orchestrator.NewBM25(), fast)
		defer r.Close()
		res, err := r.Run(t.Context(), orchestrator.Chain{ID: "garble", Steps: []orchestrator.Step{{Repo: "garbler", Instruction: "Garble this text."}}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		st := res.Steps[0]
		if st.Outcome != orchestrator.ProtocolError || st.Attempts != 1 || !strings.Contains(st.Detail, "not valid A2A") {
			t.Errorf("step = %s attempts %d, want protocol_error, not retried", stepSummary(res), st.Attempts)
		}
		// Observed all the same: the message did reach the right agent.
		if !st.Correct || !res.OrchestrationOK {
			t.Errorf("correct %v, orchestration ok %v; want both (the agent got the step)", st.Correct, res.OrchestrationOK)
		}
		found := false
		for _, e := range res.Trace {
			found = found || (e.Kind == proxy.KindResponse && e.Text == bad)
		}
		if !found {
			t.Errorf("the trace lacks the malformed body as it passed: %+v", res.Trace)
		}
	})

	t.Run("endless stream", func(t *testing.T) {
		url := serveExecutor(t, "endless", endless{}, true)
		r := orchestrator.New(staticDir{candidate("e", url, &a2a.AgentCard{
			Name: "endless", Description: "Works forever.", Capabilities: a2a.AgentCapabilities{Streaming: true},
			SupportedInterfaces: []*a2a.AgentInterface{a2a.NewAgentInterface(url+"/", a2a.TransportProtocolJSONRPC)},
			Skills:              []a2a.AgentSkill{{ID: "work", Name: "work", Description: "Work on anything forever."}},
		})}, orchestrator.NewBM25(), fast)
		defer r.Close()
		start := time.Now()
		res, err := r.Run(t.Context(), orchestrator.Chain{ID: "forever", Timeout: 400 * time.Millisecond,
			Steps: []orchestrator.Step{{Repo: "endless", Instruction: "Work on this."}}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("the chain took %s", d)
		}
		st := res.Steps[0]
		if st.Outcome != orchestrator.Timeout || st.Attempts != 1 || st.State != "working" {
			t.Errorf("step = %s attempts %d state %q; want timeout after one attempt, working", stepSummary(res), st.Attempts, st.State)
		}
		var events int
		canceled := false
		for _, e := range res.Trace {
			if e.Kind == proxy.KindEvent {
				events++
			}
			canceled = canceled || e.RPCMethod == "CancelTask"
		}
		if events < 5 || !canceled {
			t.Errorf("trace: %d events, cancel sent %v; want many events and a CancelTask", events, canceled)
		}
	})

	t.Run("registry gone mid-chain", func(t *testing.T) {
		reg, _ := fleet(t)
		r := orchestrator.New(&gone{directory: directory{reg.client}, reg: reg}, orchestrator.NewBM25(), fast)
		defer r.Close()
		res, err := r.Run(t.Context(), backtestChain(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Steps[0].Outcome != orchestrator.OK || res.Steps[1].Outcome != orchestrator.RegistryFailed || res.Steps[2].Outcome != orchestrator.Skipped {
			t.Errorf("steps = %s; want ok, registry_failed, skipped", stepSummary(res))
		}
		if !strings.Contains(res.Steps[1].Detail, "read the registry") || !strings.Contains(res.Detail, "step 2") {
			t.Errorf("detail = %q / %q", res.Steps[1].Detail, res.Detail)
		}
	})

	checkNoLeaks(t, baseline)
}

// syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
