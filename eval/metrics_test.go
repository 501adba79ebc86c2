package eval

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentnet/agentnet/tasks"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestPassAtK(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n, c, k int
		want    float64
	}{
		{5, 2, 3, 0.9},          // 1 − C(3,3)/C(5,3) = 1 − 1/10
		{5, 2, 1, 0.4},          // c/n
		{10, 3, 2, 1 - 21.0/45}, // 1 − C(7,2)/C(10,2)
		{4, 0, 2, 0},            // c = 0
		{4, 4, 2, 1},            // c = n
		{3, 1, 3, 1},            // n − c < k
		{2, 1, 5, 1},            // n < k, some success: pass@n
		{2, 0, 5, 0},            // n < k, no success
		{0, 0, 1, 0},            // nothing tried
		{100, 1, 1, 0.01},       // large n
	} {
		if got := PassAtK(tc.n, tc.c, tc.k); !near(got, tc.want) {
			t.Errorf("PassAtK(%d, %d, %d) = %v, want %v", tc.n, tc.c, tc.k, got, tc.want)
		}
	}
}

func TestSummarizeGeneration(t *testing.T) {
	t.Parallel()
	tok := func(v int64) *int64 { return &v }
	repos := []Attempts{
		{OK: []bool{true, true, true}, Tokens: []*int64{tok(100), tok(50), tok(30)}},  // tries 1, 180 tokens
		{OK: []bool{false, true, false}, Tokens: []*int64{tok(10), tok(10), tok(20)}}, // tries 2, 40 tokens
		{OK: []bool{false, false, false}, Tokens: []*int64{tok(0), tok(0), tok(0)}},   // never
	}
	g := SummarizeGeneration(repos, 3)
	// pass@1: (1 + 1/3 + 0)/3; pass@3: (1 + 1 + 0)/3.
	if !near(g.PassAt1, (1+1.0/3)/3) || !near(g.PassAtK, 2.0/3) {
		t.Errorf("pass@1 = %v, pass@3 = %v", g.PassAt1, g.PassAtK)
	}
	if g.Tries == nil || !near(*g.Tries, 1.5) {
		t.Errorf("tries = %v, want 1.5", g.Tries)
	}
	if g.Tokens == nil || !near(*g.Tokens, 220.0/3) {
		t.Errorf("tokens per repo = %v, want %v", g.Tokens, 220.0/3)
	}
	if g.Attempts != 9 || g.Repos != 3 {
		t.Errorf("attempts %d repos %d", g.Attempts, g.Repos)
	}
	// One unknown count makes the mean unknown, never 0.
	repos[1].Tokens[2] = nil
	if g := SummarizeGeneration(repos, 3); g.Tokens != nil {
		t.Errorf("tokens with an unknown count = %v, want unknown", *g.Tokens)
	}
	if g := SummarizeGeneration(repos[2:], 3); g.Tries != nil {
		t.Errorf("tries with no success = %v, want unknown", *g.Tries)
	}
}

func TestRatesByTier(t *testing.T) {
	t.Parallel()
	got := RatesByTier([]Outcome{
		{tasks.Easy, true}, {tasks.Easy, true}, {tasks.Easy, false}, {tasks.Easy, true},
		{tasks.Medium, false}, {tasks.Medium, true},
		{tasks.Hard, false},
	})
	want := TierRates{
		Easy:    Rate{N: 4, SR: 75},
		Medium:  Rate{N: 2, SR: 50},
		Hard:    Rate{N: 1, SR: 0},
		Overall: Rate{N: 7, SR: 57.14},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("RatesByTier (-want +got):\n%s", diff)
	}
}

func TestGapClosure(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ j, j0, want float64 }{
		{70, 40, 50}, {100, 40, 100}, {40, 40, 0}, {30, 40, -16.67}, {100, 100, 100}, {90, 100, 0},
	} {
		if got := GapClosure(tc.j, tc.j0); !near(got, tc.want) {
			t.Errorf("GapClosure(%v, %v) = %v, want %v", tc.j, tc.j0, got, tc.want)
		}
	}
}

func TestMatchSkills(t *testing.T) {
	t.Parallel()
	truth := []tasks.Skill{
		{ID: "molar-mass", Description: "Compute the molar mass of a chemical formula, including hydrates."},
		{ID: "mass-composition", Description: "Give the percentage by mass of each element in a compound."},
		{ID: "empirical-formula", Description: "Derive the empirical formula from mass percentages of elements."},
	}
	gen := []SkillText{
		{ID: "mass", Name: "Molar mass", Description: "Calculate the molar mass in g/mol of one or more chemical formulas."},
		{ID: "composition", Name: "Composition", Description: "Mass percent of each element in a formula."},
		{ID: "help", Name: "Show help", Description: "Print the program's usage and version."},
	}
	m := MatchSkills(gen, truth, DefaultMatchThreshold)
	if !near(m.Precision, 2.0/3) || !near(m.Recall, 2.0/3) {
		t.Errorf("precision %v recall %v, want 2/3 and 2/3 (%+v)", m.Precision, m.Recall, m)
	}
	if m.Covered["molar-mass"] != "mass" || m.Covered["mass-composition"] != "composition" || m.Covered["empirical-formula"] != "" {
		t.Errorf("covered = %v", m.Covered)
	}
	if m.Supported[2] != "" {
		t.Errorf("a help skill is supported by %q", m.Supported[2])
	}
	// A generic one-skill card matches nothing.
	generic := MatchSkills([]SkillText{{ID: "run", Name: "Run", Description: "Generic software agent."}}, truth, DefaultMatchThreshold)
	if generic.Precision != 0 || generic.Recall != 0 {
		t.Errorf("generic card scores precision %v recall %v", generic.Precision, generic.Recall)
	}
	if e := MatchSkills(nil, nil, DefaultMatchThreshold); e.Precision != 0 || e.Recall != 0 {
		t.Errorf("empty match = %+v", e)
	}
}
