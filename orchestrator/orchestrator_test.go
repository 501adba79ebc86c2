package orchestrator_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentnet/agentnet/a2a/proxy"
	"github.com/agentnet/agentnet/orchestrator"
	"github.com/agentnet/agentnet/registry"
)

// fleet starts the three test agents in-process and registers them.
func fleet(t *testing.T) (*testRegistry, map[string]*agent) {
	t.Helper()
	reg := startRegistry(t)
	agents := map[string]*agent{
		"backtest":  serveBundle(t, writeBundle(t, backtestYAML, map[string]string{"bt.sh": backtestSh})),
		"imgtool":   serveBundle(t, writeBundle(t, plotterYAML, map[string]string{"plot.sh": plotterSh})),
		"textstats": serveBundle(t, writeBundle(t, counterYAML, map[string]string{"count.sh": counterSh})),
	}
	for _, a := range agents {
		reg.register(t, a.URL)
	}
	return reg, agents
}

// backtestChain is shaped like the demo suite's chain-backtest-chart, with
// a third step: backtest → chart → count.
func backtestChain() orchestrator.Chain {
	return orchestrator.Chain{
		ID:    "backtest-chart-count",
		Input: orchestrator.Input{Files: []orchestrator.File{{Name: "prices.csv", MediaType: "text/csv", Data: []byte(prices)}}},
		Steps: []orchestrator.Step{
			{Repo: "backtest", Instruction: "Backtest a moving-average crossover on these daily closing prices and write the equity curve to a CSV file."},
			{Repo: "imgtool", Instruction: "Draw a line chart of the equity column of the equity-curve CSV."},
			{Repo: "textstats", Instruction: "Count the lines and words of this document."},
		},
		Timeout: 30 * time.Second,
	}
}

// TestChainEndToEnd runs a three-step chain through real hosts, a real
// registry and the recording proxies: each step's files and text reach the
// next step, one context id threads the chain, and the trace decides the
// orchestration's success.
func TestChainEndToEnd(t *testing.T) {
	t.Parallel()
	reg, _ := fleet(t)
	r := orchestrator.New(directory{reg.client}, orchestrator.NewBM25(), orchestrator.WithRouterName("bm25"))
	defer r.Close()
	var trace bytes.Buffer
	res, err := r.Run(t.Context(), backtestChain(), &trace)
	if err != nil {
		t.Fatalf("Run() error = %v", err)
	}
	if res.Outcome != orchestrator.OK || !res.OrchestrationOK {
		t.Fatalf("Run() = %s (orchestration ok %v): %s", res.Outcome, res.OrchestrationOK, stepSummary(res))
	}
	for _, st := range res.Steps {
		if st.Routed == nil || st.Observed == nil || st.Routed.URL != st.Observed.URL || !st.Correct {
			t.Errorf("step %d: routed %+v, observed %+v, correct %v; want the expected agent both ways", st.Step, st.Routed, st.Observed, st.Correct)
		}
		if st.ContextID != res.ContextID {
			t.Errorf("step %d answered in context %q, want the chain's %q", st.Step, st.ContextID, res.ContextID)
		}
		if st.State != "completed" || st.Attempts != 1 || st.TotalMS <= 0 || len(st.Exchanges) != 1 {
			t.Errorf("step %d record = %+v", st.Step, st)
		}
	}
	if got := artifactNames(res.Steps[0]); got != "output,equity.csv" {
		t.Errorf("step 1 artifacts = %s, want output,equity.csv", got)
	}
	if got := artifactNames(res.Steps[1]); got != "output,chart.svg" {
		t.Errorf("step 2 artifacts = %s, want output,chart.svg", got)
	}
	if !strings.Contains(res.Output.Text, "lines: 1") {
		t.Errorf("output = %q, want the line count of the chart", res.Output.Text)
	}

	// What crossed the wire: step 2 got step 1's CSV and its text output as
	// input.txt, step 3 got the chart.
	written, err := proxy.ReadLog(&trace)
	if err != nil || len(written) != len(res.Trace) {
		t.Fatalf("the written trace has %d entries (%v), the result %d", len(written), err, len(res.Trace))
	}
	sends := orchestrator.Sends(written)
	if len(sends) != 3 {
		t.Fatalf("the trace shows %d messages, want 3", len(sends))
	}
	bodies := requestBodies(written)
	for i, want := range [][]string{
		{`"filename":"prices.csv"`},
		{`"filename":"equity.csv"`, `"filename":"input.txt"`},
		{`"filename":"chart.svg"`, `"filename":"input.txt"`},
	} {
		for _, w := range want {
			if !strings.Contains(bodies[sends[i].Exchange], w) {
				t.Errorf("step %d request lacks %s", i+1, w)
			}
		}
		if !strings.Contains(bodies[sends[i].Exchange], res.ContextID) {
			t.Errorf("step %d request lacks the chain's context id", i+1)
		}
		if sends[i].State != "completed" || sends[i].Method != "SendStreamingMessage" {
			t.Errorf("send %d = %+v, want a completed stream", i+1, sends[i])
		}
	}
}

func artifactNames(st orchestrator.StepRecord) string {
	var names []string
	for _, a := range st.Artifacts {
		names = append(names, a.Name)
	}
	return strings.Join(names, ",")
}

func requestBodies(es []proxy.Entry) map[int64]string {
	out := map[int64]string{}
	for _, e := range es {
		if e.Kind == proxy.KindRequest {
			out[e.Exchange] = string(e.Body)
		}
	}
	return out
}

// TestWrongRouteFailsOrchestration routes by a router that always picks
// the same agent: the chain may run, but the trace shows the wrong agent.
func TestWrongRouteFailsOrchestration(t *testing.T) {
	t.Parallel()
	reg, _ := fleet(t)
	r := orchestrator.New(directory{reg.client}, firstOf("textstats"))
	defer r.Close()
	res, err := r.Run(t.Context(), backtestChain(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.OrchestrationOK || res.Steps[0].Correct || res.Steps[0].Observed == nil || res.Steps[0].Observed.Name != "textstats" {
		t.Errorf("steps = %s, want step 1 observed at textstats and the orchestration failed", stepSummary(res))
	}
}

// firstOf is a router that always chooses the agent named name.
type firstOf string

func (f firstOf) Route(_ context.Context, _ orchestrator.Query, cs []orchestrator.Candidate) (orchestrator.Decision, error) {
	for i := range cs {
		if cs[i].Name() == string(f) {
			return orchestrator.Decision{Agent: &cs[i], Reason: "always " + string(f)}, nil
		}
	}
	return orchestrator.Decision{Reason: "not there"}, nil
}

// TestDownAgentNeverChosen registers a second backtest agent whose card
// matches the step best, stops it, lets the registry's prober see it down,
// and checks the step goes to the agent that is up.
func TestDownAgentNeverChosen(t *testing.T) {
	t.Parallel()
	reg, agents := fleet(t)
	better := strings.Replace(backtestYAML, "name: backtest", "name: backtest-pro", 1)
	better = strings.Replace(better, "description: Backtest trading strategies on daily price series.",
		"description: Backtest moving-average crossover strategies on daily closing prices and write the equity curve to a CSV file.", 1)
	pro := serveBundle(t, writeBundle(t, better, map[string]string{"bt.sh": backtestSh}))
	reg.register(t, pro.URL)

	ch := backtestChain()
	ch.Steps = ch.Steps[:1]
	r := orchestrator.New(directory{reg.client}, orchestrator.NewBM25())
	defer r.Close()
	res, err := r.Run(t.Context(), ch, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Steps[0].Routed; got == nil || got.Name != "backtest-pro" {
		t.Fatalf("while up, routed to %+v, want backtest-pro (the better card)", got)
	}

	pro.stop()
	if rr, err := registry.NewProber(reg.svc).Round(t.Context()); err != nil || rr.Down != 1 {
		t.Fatalf("prober round = %+v, %v; want one agent down", rr, err)
	}
	res, err = r.Run(t.Context(), ch, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Steps[0].Routed; got == nil || got.URL != strings.TrimSuffix(agents["backtest"].URL, "/") || res.Outcome != orchestrator.OK {
		t.Errorf("with backtest-pro down: %s; want backtest, ok", stepSummary(res))
	}
}

// TestSingleCase runs a single case as a chain of one step, with the
// case's text and data sent along.
func TestSingleCase(t *testing.T) {
	t.Parallel()
	reg, _ := fleet(t)
	r := orchestrator.New(directory{reg.client}, orchestrator.NewBM25())
	defer r.Close()
	res, err := r.Run(t.Context(), orchestrator.Chain{
		ID:    "count",
		Input: orchestrator.Input{Text: "one two three\nfour five\n", Data: map[string]any{"unused": 1}},
		Steps: []orchestrator.Step{{Repo: "textstats", Instruction: "How many lines and words does this text have?"}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != orchestrator.OK || !res.OrchestrationOK {
		t.Fatalf("Run() = %s: %s", res.Outcome, stepSummary(res))
	}
	if _, err := r.Run(t.Context(), orchestrator.Chain{ID: "empty"}, nil); err == nil {
		t.Error("Run() of a chain without steps = nil error, want one")
	}
}

// TestAgentOutcomes: a failed task is the agent's failure and is not
// retried; an agent that speaks only A2A 0.3 is reached all the same.
func TestAgentOutcomes(t *testing.T) {
	t.Parallel()
	failing := serveBundle(t, writeBundle(t, `version: 1
name: broken
description: Always fails.
skills:
  - id: fail
    name: Fail
    description: Fail at counting words.
    run: [sh, "{{repo}}/fail.sh"]
`, map[string]string{"fail.sh": "echo 'no words here' >&2; exit 3\n"}))
	counter := serveBundle(t, writeBundle(t, counterYAML, map[string]string{"count.sh": counterSh}))
	old := *counter.Card
	old.SupportedInterfaces = nil
	for _, iface := range counter.Card.SupportedInterfaces {
		if iface.ProtocolVersion == "0.3" {
			old.SupportedInterfaces = append(old.SupportedInterfaces, iface)
		}
	}
	if len(old.SupportedInterfaces) != 1 {
		t.Fatalf("the host's card has no 0.3 interface: %+v", counter.Card.SupportedInterfaces)
	}
	tests := []struct {
		name    string
		cand    orchestrator.Candidate
		outcome orchestrator.Outcome
		detail  string
		method  string
	}{
		{"failed task", candidate("b", failing.URL, failing.Card), orchestrator.AgentFailed, `the task ended failed: skill "fail" exited with status 3: no words here`, "SendStreamingMessage"},
		{"0.3 only", candidate("c", counter.URL, &old), orchestrator.OK, "", "message/stream"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := orchestrator.New(staticDir{tc.cand}, orchestrator.NewBM25(), orchestrator.WithRetry(3, time.Millisecond, time.Millisecond))
			defer r.Close()
			res, err := r.Run(t.Context(), orchestrator.Chain{ID: tc.name, Input: orchestrator.Input{Text: "one two\n"},
				Steps: []orchestrator.Step{{Repo: tc.cand.Name(), Instruction: "Count the words."}}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			st := res.Steps[0]
			if st.Outcome != tc.outcome || st.Attempts != 1 || !strings.Contains(st.Detail, tc.detail) {
				t.Errorf("step = %s attempts %d; want %s %q after one attempt", stepSummary(res), st.Attempts, tc.outcome, tc.detail)
			}
			if sends := orchestrator.Sends(res.Trace); len(sends) != 1 || sends[0].Method != tc.method || !st.Correct {
				t.Errorf("sends = %+v, correct %v; want one %s to the agent", sends, st.Correct, tc.method)
			}
		})
	}
}
