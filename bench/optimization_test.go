package bench

import (
	"testing"
	"time"

	"github.com/agentnet/agentnet/eval"
)

// TestOptimizationBaseline runs optimization commissions whose starter
// passes one of two held-out cases. Without a baseline in the suite, J0 is
// the starter's own held-out score, measured on the same cases (50); with
// one, the suite's value is used. The gap closure S follows from J and J0:
// a builder that fixes the agent closes the whole gap, one whose delivery
// is no better than the starter closes none.
func TestOptimizationBaseline(t *testing.T) {
	t.Parallel()
	_, fake := binaries(t)
	for _, tc := range []struct {
		name        string
		submissions int
		j, s        float64 // held-out result and gap closure of shout-measured
		sGiven      float64 // gap closure of shout-given (J0 = 80)
	}{
		{"fixed", 3, 100, 100, 100},   // the second submission upper-cases
		{"unchanged", 1, 50, 0, -150}, // the only submission echoes, like the starter
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newSuiteRun(t, "testdata/optimization/suite.yaml", Options{Generator: "command", BuilderCmd: fake, Submissions: tc.submissions, BuildTimeout: 2 * time.Minute})
			if err := r.runCommissions(t.Context()); err != nil {
				t.Fatal(err)
			}
			measured, ok := r.store.Task("shout-measured")
			if !ok {
				t.Fatal("no result for shout-measured")
			}
			cr := measured.Commission
			if cr.Baseline == nil || *cr.Baseline != 50 {
				t.Errorf("measured J0 = %v, want 50 (the starter passes one held-out case of two)", cr.Baseline)
			}
			if cr.Result == nil || *cr.Result != tc.j || cr.GapClosure == nil || *cr.GapClosure != tc.s {
				t.Errorf("J, S = %v, %v, want %v, %v; cases %+v", cr.Result, cr.GapClosure, tc.j, tc.s, cr.Cases)
			}
			given, _ := r.store.Task("shout-given")
			if g := given.Commission; g == nil || g.Baseline == nil || *g.Baseline != 80 || g.GapClosure == nil || *g.GapClosure != tc.sGiven {
				t.Errorf("given baseline: commission %+v, want J0 80 and S %v", g, tc.sGiven)
			}
			if measured.Status == eval.StatusInfraError {
				t.Errorf("status = %s (%s)", measured.Status, measured.Reason)
			}
		})
	}
}
