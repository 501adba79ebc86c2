package eval

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentnet/agentnet/tasks"
)

// TestRoutedSteps checks which steps routing metrics count and where the
// expected repo's agent stands in each step's ranking.
func TestRoutedSteps(t *testing.T) {
	t.Parallel()
	rank := func(repos ...string) []RankedRepo {
		var out []RankedRepo
		for i, r := range repos {
			out = append(out, RankedRepo{Repo: r, Agent: r, Score: float64(10 - i)})
		}
		return out
	}
	task := TaskResult{Type: tasks.Chain, Tier: tasks.Medium, Steps: []StepResult{
		{Index: 1, Expected: "a", Routed: "a", Outcome: "ok", Ranking: rank("a", "b")},           // right, rank 1
		{Index: 2, Expected: "b", Routed: "c", Outcome: "ok", Ranking: rank("c", "d", "b")},      // wrong, rank 3
		{Index: 3, Expected: "c", Routed: "d", Outcome: "ok", Ranking: rank("d", "e", "f", "c")}, // wrong, rank 4
		{Index: 4, Expected: "d", Routed: "", Outcome: "no_agent"},                               // nothing chosen: ranked, no rank
		{Index: 5, Expected: "e", Routed: "e", Outcome: "ok"},                                    // no ranking recorded (delegated)
		{Index: 6, Expected: "f", Routed: "", Outcome: StepSkipped},                              // never routed
		{Index: 7, Expected: "", Routed: "g", Outcome: "ok", Ranking: rank("g")},                 // no answer key
	}}
	want := []StepRouting{
		{Tier: tasks.Medium, Correct: true, Ranked: true, Rank: 1},
		{Tier: tasks.Medium, Correct: false, Ranked: true, Rank: 3},
		{Tier: tasks.Medium, Correct: false, Ranked: true, Rank: 4},
		{Tier: tasks.Medium, Correct: false, Ranked: true, Rank: 0},
		{Tier: tasks.Medium, Correct: true, Ranked: false, Rank: 0},
	}
	if diff := cmp.Diff(want, RoutedSteps(task)); diff != "" {
		t.Errorf("RoutedSteps() mismatch (-want +got):\n%s", diff)
	}
}

// TestRoutingByTier checks the arithmetic of accuracy and Recall@k, by
// tier and overall.
func TestRoutingByTier(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		steps []StepRouting
		want  RoutingSummary
	}{
		{"none", nil, RoutingSummary{}},
		{"one tier", []StepRouting{
			{Tier: tasks.Easy, Correct: true, Ranked: true, Rank: 1},
			{Tier: tasks.Easy, Correct: false, Ranked: true, Rank: 2},
			{Tier: tasks.Easy, Correct: false, Ranked: true, Rank: 3},
			{Tier: tasks.Easy, Correct: false, Ranked: true, Rank: 4},
		}, RoutingSummary{
			Accuracy:  TierRates{Easy: Rate{4, 25}, Overall: Rate{4, 25}},
			RecallAt1: TierRates{Easy: Rate{4, 25}, Overall: Rate{4, 25}},
			RecallAt3: TierRates{Easy: Rate{4, 75}, Overall: Rate{4, 75}},
		}},
		{"by tier, unranked steps out of recall", []StepRouting{
			{Tier: tasks.Easy, Correct: true, Ranked: true, Rank: 1},
			{Tier: tasks.Medium, Correct: false, Ranked: true, Rank: 0}, // no agent chosen
			{Tier: tasks.Medium, Correct: true, Ranked: false},          // delegated: accuracy only
			{Tier: tasks.Hard, Correct: false, Ranked: true, Rank: 2},
			{Tier: tasks.Hard, Correct: true, Ranked: true, Rank: 1},
			{Tier: tasks.Hard, Correct: true, Ranked: true, Rank: 1},
		}, RoutingSummary{
			Accuracy:  TierRates{Easy: Rate{1, 100}, Medium: Rate{2, 50}, Hard: Rate{3, 66.67}, Overall: Rate{6, 66.67}},
			RecallAt1: TierRates{Easy: Rate{1, 100}, Medium: Rate{1, 0}, Hard: Rate{3, 66.67}, Overall: Rate{5, 60}},
			RecallAt3: TierRates{Easy: Rate{1, 100}, Medium: Rate{1, 0}, Hard: Rate{3, 100}, Overall: Rate{5, 80}},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, RoutingByTier(tc.steps)); diff != "" {
				t.Errorf("RoutingByTier() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSummarizeRouting checks that the summary carries routing only when a
// chain step was routed, and from chain tasks that count.
func TestSummarizeRouting(t *testing.T) {
	t.Parallel()
	ok := true
	r := &Results{Tasks: []TaskResult{
		{ID: "s", Type: tasks.Single, Tier: tasks.Easy, Status: StatusPassed, Pass: true},
	}}
	Summarize(r, 1)
	if r.Summary.Chains.Routing != nil {
		t.Errorf("routing = %+v with no chain, want none", r.Summary.Chains.Routing)
	}
	r.Tasks = append(r.Tasks,
		TaskResult{ID: "c1", Type: tasks.Chain, Tier: tasks.Easy, Status: StatusPassed, Pass: true, OrchOK: &ok, Steps: []StepResult{
			{Index: 1, Expected: "a", Routed: "a", Outcome: "ok", Ranking: []RankedRepo{{Repo: "a"}, {Repo: "b"}}},
			{Index: 2, Expected: "b", Routed: "a", Outcome: "ok", Ranking: []RankedRepo{{Repo: "a"}, {Repo: "b"}}},
		}},
		// Excluded from every rate: the testbed's fault.
		TaskResult{ID: "c2", Type: tasks.Chain, Tier: tasks.Easy, Status: StatusInfraError, Steps: []StepResult{
			{Index: 1, Expected: "a", Routed: "", Outcome: "registry_failed"},
		}},
	)
	Summarize(r, 1)
	want := &RoutingSummary{
		Accuracy:  TierRates{Easy: Rate{2, 50}, Overall: Rate{2, 50}},
		RecallAt1: TierRates{Easy: Rate{2, 50}, Overall: Rate{2, 50}},
		RecallAt3: TierRates{Easy: Rate{2, 100}, Overall: Rate{2, 100}},
	}
	if diff := cmp.Diff(want, r.Summary.Chains.Routing); diff != "" {
		t.Errorf("Summarize() routing mismatch (-want +got):\n%s", diff)
	}
}
