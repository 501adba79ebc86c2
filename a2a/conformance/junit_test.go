package conformance_test

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/a2a/a2atest"
	"github.com/agentnet/agentnet/a2a/conformance"
	"github.com/agentnet/agentnet/internal/junit"
)

// TestLevelAndJUnit audits an agent whose only fault fails a SHOULD check,
// then reads the report at each level and as JUnit.
func TestLevelAndJUnit(t *testing.T) {
	t.Parallel()
	ag := a2atest.New(a2atest.GenericDescription)
	defer ag.Close()
	rep := audit(t, ag.URL)
	if rep.Summary.ShouldFailed == 0 {
		t.Fatalf("Audit(generic description) summary = %+v, want a SHOULD failure", rep.Summary)
	}
	total := func(r *conformance.Report) int {
		n := len(r.Fleet)
		for _, e := range r.Endpoints {
			n += len(e.Results)
		}
		return n
	}
	for _, tc := range []struct {
		level      string
		want       []conformance.Level
		shouldFail bool
	}{
		{"must", []conformance.Level{conformance.Must}, false},
		{"SHOULD", []conformance.Level{conformance.Must, conformance.Should}, true},
		{"May", []conformance.Level{conformance.Must, conformance.Should, conformance.May}, true},
	} {
		t.Run(tc.level, func(t *testing.T) {
			l, err := conformance.ParseLevel(tc.level)
			if err != nil {
				t.Fatalf("ParseLevel(%q) error = %v", tc.level, err)
			}
			got := rep.AtLevel(l)
			seen := map[conformance.Level]bool{}
			for _, r := range got.Endpoints[0].Results {
				seen[r.Level] = true
			}
			for _, lv := range []conformance.Level{conformance.Must, conformance.Should, conformance.May} {
				want := false
				for _, w := range tc.want {
					want = want || w == lv
				}
				if seen[lv] != want {
					t.Errorf("AtLevel(%s) holds %s checks = %v, want %v", l, lv, seen[lv], want)
				}
			}
			if (got.Summary.ShouldFailed > 0) != tc.shouldFail {
				t.Errorf("AtLevel(%s).Summary = %+v, want a SHOULD failure: %v", l, got.Summary, tc.shouldFail)
			}
		})
	}
	if _, err := conformance.ParseLevel("sometimes"); err == nil {
		t.Error(`ParseLevel("sometimes") = nil error, want one`)
	}
	if total(rep.AtLevel(conformance.May)) != total(rep) {
		t.Errorf("AtLevel(MAY) dropped checks")
	}

	var buf bytes.Buffer
	if err := rep.JUnit().Write(&buf); err != nil {
		t.Fatal(err)
	}
	var got junit.Report
	if err := xml.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("decode the JUnit report: %v\n%s", err, buf.String())
	}
	s := rep.Summary
	if got.Tests != total(rep) || got.Failures != s.MustFailed+s.ShouldFailed+s.MayFailed || got.Skipped != s.Skipped {
		t.Errorf("JUnit counts tests %d failures %d skipped %d, want %d %d %d", got.Tests, got.Failures, got.Skipped,
			total(rep), s.MustFailed+s.ShouldFailed+s.MayFailed, s.Skipped)
	}
	var failure *junit.Outcome
	for _, c := range got.Suites[0].Cases {
		if c.Name == conformance.LintGenericDescription && c.FailureEl != nil {
			failure = c.FailureEl
		}
	}
	if failure == nil || !strings.HasPrefix(failure.Message, "SHOULD: ") || len(failure.Message) < len("SHOULD: ")+5 {
		t.Errorf("JUnit case %s failure = %+v, want its level and reason", conformance.LintGenericDescription, failure)
	}
	if !strings.Contains(got.Suites[0].Name, ag.URL) {
		t.Errorf("JUnit suite name = %q, want the endpoint URL", got.Suites[0].Name)
	}
}
