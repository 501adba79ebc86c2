package generation

import "testing"

func TestReportWhy(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		r    Report
		want string
	}{
		{Report{}, "no attempt passed the gate"},
		{Report{Attempts: []Attempt{{Stage: "build", Reason: "exit 1"}}}, "build: exit 1"},
		{Report{Attempts: []Attempt{{Stage: "gate"}, {Reason: "timed out"}}}, "timed out"},
		{Report{Attempts: []Attempt{{OK: true}}, Chosen: 1}, ""},
	} {
		if got := tc.r.Why(); got != tc.want {
			t.Errorf("Why() of %+v = %q, want %q", tc.r.Attempts, got, tc.want)
		}
	}
}
