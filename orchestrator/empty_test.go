package orchestrator_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentnet/agentnet/orchestrator"
)

// checkerYAML is an agent whose one skill checks a CSV file; check.sh
// decides what it answers.
const checkerYAML = `version: 1
name: csvcheck
description: Check CSV files of daily prices.
skills:
  - id: check
    name: Check a price file
    description: Check a CSV file of daily closing prices for malformed rows.
    tags: [csv, prices, check]
    examples: [Check this CSV file of daily closing prices for malformed rows]
    params: {type: object, properties: {prices: {type: string, format: path}}, required: [prices]}
    run: [sh, "{{repo}}/check.sh", "{{prices}}"]
`

// TestEmptyAnswer runs, through real hosted agents, a chain whose first
// step goes to an agent that completes its task with nothing to show: the
// step fails empty_answer, saying so, and the chain stops there; the next
// step's agent never gets a message. The same agent asked alone (a single
// task) fails the same way. An agent that answers with a file alone is
// not empty.
func TestEmptyAnswer(t *testing.T) {
	t.Parallel()
	counter := serveBundle(t, writeBundle(t, counterYAML, map[string]string{"count.sh": counterSh}))
	for _, tc := range []struct {
		name, script string
		outcome      orchestrator.Outcome
	}{
		{"prints nothing", `test -f "$1"` + "\n", orchestrator.EmptyAnswer},
		{"prints white space", `test -f "$1" && printf ' \n\t\n'` + "\n", orchestrator.EmptyAnswer},
		{"writes a file only", `cp "$1" checked.csv` + "\n", orchestrator.OK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checker := serveBundle(t, writeBundle(t, checkerYAML, map[string]string{"check.sh": tc.script}))
			dir := staticDir{candidate("csvcheck", checker.URL, checker.Card), candidate("textstats", counter.URL, counter.Card)}
			r := orchestrator.New(dir, orchestrator.NewBM25(), orchestrator.WithRetry(3, time.Millisecond, time.Millisecond))
			defer r.Close()
			ch := orchestrator.Chain{
				ID:    "check-count",
				Input: orchestrator.Input{Files: []orchestrator.File{{Name: "prices.csv", MediaType: "text/csv", Data: []byte(prices)}}},
				Steps: []orchestrator.Step{
					{Repo: "csvcheck", Instruction: "Check this CSV file of daily closing prices for malformed rows."},
					{Repo: "textstats", Instruction: "Count the lines and words of this document."},
				},
				Timeout: 30 * time.Second,
			}
			res, err := r.Run(t.Context(), ch, nil)
			if err != nil {
				t.Fatal(err)
			}
			first, second := res.Steps[0], res.Steps[1]
			if !first.Correct || first.Outcome != tc.outcome || first.Attempts != 1 || first.State != "completed" {
				t.Fatalf("steps = %s; want step 1 at csvcheck, completed, %s after one attempt", stepSummary(res), tc.outcome)
			}
			sends := orchestrator.Sends(res.Trace)
			if tc.outcome == orchestrator.OK {
				if res.Outcome != orchestrator.OK || second.Outcome != orchestrator.OK || len(sends) != 2 {
					t.Errorf("steps = %s, %d sends; want both steps ok", stepSummary(res), len(sends))
				}
				return
			}
			const why = "the agent completed the task with no text and no file; it said: skill check finished with exit status 0 and printed nothing"
			if !strings.HasPrefix(first.Detail, why) || first.Output != nil {
				t.Errorf("step 1 = %s %q, output %v; want %s %q and nothing passed on", first.Outcome, first.Detail, first.Output, tc.outcome, why)
			}
			if second.Outcome != orchestrator.Skipped || second.Routed != nil {
				t.Errorf("step 2 = %s routed to %+v; want skipped, never routed", second.Outcome, second.Routed)
			}
			if res.Outcome != orchestrator.EmptyAnswer || res.Detail != "step 1: "+first.Detail || res.OutputText != "" {
				t.Errorf("chain = %s %q output %q; want empty_answer at step 1", res.Outcome, res.Detail, res.OutputText)
			}
			// The trace shows the task completed, with no artifact, and
			// textstats never asked.
			if len(sends) != 1 || sends[0].Agent != "csvcheck" || sends[0].State != "completed" {
				t.Errorf("sends = %+v; want one completed task at csvcheck", sends)
			}

			// A single task: the same step alone.
			single := ch
			single.Steps = ch.Steps[:1]
			res, err = r.Run(t.Context(), single, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != orchestrator.EmptyAnswer || !strings.HasPrefix(res.Detail, "step 1: "+why) {
				t.Errorf("single = %s %q; want empty_answer", res.Outcome, res.Detail)
			}
		})
	}
}

// TestEmptyAnswerDelegated hands a chain to an orchestrator agent of the
// user's that carries on after an agent answered nothing: the trace shows
// the empty answer, and the step is recorded empty_answer, the chain with
// it.
func TestEmptyAnswerDelegated(t *testing.T) {
	t.Parallel()
	reg, _ := fleet(t)
	checker := serveBundle(t, writeBundle(t, checkerYAML, map[string]string{"check.sh": `test -f "$1"` + "\n"}))
	reg.register(t, checker.URL)
	hc := &http.Client{Transport: &http.Transport{}}
	defer hc.CloseIdleConnections()
	orch := serveExecutor(t, "reference-orchestrator", &refOrchestrator{hc: hc}, true)
	router, err := orchestrator.NewRouter("a2a="+orch, orchestrator.RouterConfig{})
	if err != nil {
		t.Fatal(err)
	}
	r := orchestrator.New(directory{reg.client}, router, orchestrator.WithRegistryURL(reg.URL))
	defer r.Close()
	res, err := r.Run(t.Context(), orchestrator.Chain{
		ID:    "check-count",
		Input: orchestrator.Input{Files: []orchestrator.File{{Name: "prices.csv", MediaType: "text/csv", Data: []byte(prices)}}},
		Steps: []orchestrator.Step{
			{Repo: "csvcheck", Instruction: "Check this CSV file of daily closing prices for malformed rows."},
			{Repo: "textstats", Instruction: "Count the lines and words of this document."},
		},
		Timeout: 30 * time.Second,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	first := res.Steps[0]
	if first.Observed == nil || first.Observed.Name != "csvcheck" || first.Outcome != orchestrator.EmptyAnswer ||
		!strings.Contains(first.Detail, "no text and no file; it said: skill check finished with exit status 0 and printed nothing") {
		t.Fatalf("steps = %s; want step 1 at csvcheck, empty_answer", stepSummary(res))
	}
	if res.Outcome != orchestrator.EmptyAnswer {
		t.Errorf("chain = %s %q, want empty_answer at step 1", res.Outcome, res.Detail)
	}
}
