package orchestrator_test

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentnet/agentnet/eval"
	"github.com/agentnet/agentnet/orchestrator"
	"github.com/agentnet/agentnet/tasks"
)

// ranks is a router with a known ranking for each instruction: card names,
// best first, scored 3, 2, 1; it chooses the first, or none for an empty
// ranking.
type ranks map[string][]string

func (rk ranks) Route(_ context.Context, q orchestrator.Query, cs []orchestrator.Candidate) (orchestrator.Decision, error) {
	var d orchestrator.Decision
	for i, name := range rk[q.Instruction] {
		for j := range cs {
			if cs[j].Name() == name {
				d.Ranking = append(d.Ranking, orchestrator.Scored{Agent: &cs[j], Score: float64(3 - i)})
			}
		}
	}
	if len(d.Ranking) == 0 {
		d.Reason = "nothing ranked"
		return d, nil
	}
	d.Agent, d.Score, d.Reason = d.Ranking[0].Agent, d.Ranking[0].Score, "ranked first"
	return d, nil
}

// TestRankingRecall routes a three-step chain through real hosted agents
// with a known ranking per step — the expected agent first, third, and
// not ranked at all ("no suitable agent") — and checks what each step
// records and the routing accuracy and Recall@1/@3 read from it.
func TestRankingRecall(t *testing.T) {
	t.Parallel()
	reg, _ := fleet(t)
	ch := backtestChain()
	router := ranks{
		ch.Steps[0].Instruction: {"backtest", "imgtool", "textstats"},
		ch.Steps[1].Instruction: {"textstats", "backtest", "imgtool"},
		ch.Steps[2].Instruction: {},
	}
	r := orchestrator.New(directory{reg.client}, router)
	defer r.Close()
	res, err := r.Run(t.Context(), ch, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantOutcomes := []orchestrator.Outcome{orchestrator.OK, orchestrator.OK, orchestrator.NoAgent}
	task := eval.TaskResult{Type: tasks.Chain, Tier: tasks.Easy}
	for i, st := range res.Steps {
		var names []string
		for _, rk := range st.Ranking {
			names = append(names, rk.Name)
			if rk.Score != float64(3-len(names)+1) || rk.URL == "" || rk.ID == "" {
				t.Errorf("step %d ranked %+v, want the router's score and the agent's id and URL", st.Step, rk)
			}
		}
		if want := router[st.Instruction]; !slices.Equal(names, want) && len(want)+len(names) > 0 {
			t.Errorf("step %d ranking = %v, want %v", st.Step, names, want)
		}
		if st.Outcome != wantOutcomes[i] || (len(names) > 0 && (st.Observed == nil || st.Observed.Name != names[0])) {
			t.Fatalf("steps = %s; want ok, ok, no_agent, each at its ranking's first", stepSummary(res))
		}
		// As the bench records a step: repos by agent name here.
		sr := eval.StepResult{Index: st.Step, Expected: st.Expected, Outcome: string(st.Outcome)}
		if st.Observed != nil {
			sr.Routed = st.Observed.Name
		}
		for _, rk := range st.Ranking {
			sr.Ranking = append(sr.Ranking, eval.RankedRepo{Repo: rk.Name, Agent: rk.Name, Score: rk.Score})
		}
		task.Steps = append(task.Steps, sr)
	}
	results := &eval.Results{Tasks: []eval.TaskResult{task}}
	eval.Summarize(results, 1)
	want := &eval.RoutingSummary{
		Accuracy:  eval.TierRates{Easy: eval.Rate{N: 3, SR: 33.33}, Overall: eval.Rate{N: 3, SR: 33.33}},
		RecallAt1: eval.TierRates{Easy: eval.Rate{N: 3, SR: 33.33}, Overall: eval.Rate{N: 3, SR: 33.33}},
		RecallAt3: eval.TierRates{Easy: eval.Rate{N: 3, SR: 66.67}, Overall: eval.Rate{N: 3, SR: 66.67}},
	}
	if diff := cmp.Diff(want, results.Summary.Chains.Routing); diff != "" {
		t.Errorf("routing summary mismatch (-want +got):\n%s", diff)
	}
}

// TestBM25Ranking checks that the BM25 router's ranking is recorded: its
// choice first, scores falling, only cards that share a word.
func TestBM25Ranking(t *testing.T) {
	t.Parallel()
	reg, _ := fleet(t)
	r := orchestrator.New(directory{reg.client}, orchestrator.NewBM25())
	defer r.Close()
	res, err := r.Run(t.Context(), backtestChain(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range res.Steps {
		if len(st.Ranking) == 0 || st.Routed == nil || st.Ranking[0].AgentRef != *st.Routed || st.Ranking[0].Score != st.Score {
			t.Errorf("step %d: ranking %+v, routed %+v; want the choice first", st.Step, st.Ranking, st.Routed)
		}
		for i, rk := range st.Ranking {
			if rk.Score <= 0 || (i > 0 && rk.Score > st.Ranking[i-1].Score) {
				t.Errorf("step %d ranking %+v: want positive scores, best first", st.Step, st.Ranking)
			}
		}
	}
}
