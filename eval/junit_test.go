package eval

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/internal/junit"
	"github.com/agentnet/agentnet/tasks"
)

func TestJUnit(t *testing.T) {
	t.Parallel()
	r := &Results{Version: ResultsVersion, Suite: "demo",
		Repos: []RepoResult{
			{ID: "ok", Generated: true, Attempts: []AttemptResult{{N: 1, OK: true, DurationMS: 1500}}},
			{ID: "broken", Attempts: []AttemptResult{{N: 1, Reason: "check: exit status 1"}}},
		},
		Tasks: []TaskResult{
			{ID: "s-pass", Type: tasks.Single, Tier: tasks.Easy, Status: StatusPassed, Pass: true, DurationMS: 250},
			{ID: "s-fail", Type: tasks.Single, Tier: tasks.Easy, Status: StatusFailed, Reason: "output does not match /x/",
				Checks: []tasks.Result{{Check: "matches /x/", Reason: "output does not match /x/"}}, Output: "y"},
			{ID: "c-infra", Type: tasks.Chain, Tier: tasks.Hard, Status: StatusInfraError, Reason: "registry: database is locked"},
			{ID: "c-skip", Type: tasks.Chain, Tier: tasks.Hard, Status: StatusSkipped, Reason: "repo broken has no agent",
				Steps: []StepResult{{Index: 1, Expected: "broken", Outcome: "no_agent"}}},
		}}
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, r); err != nil {
		t.Fatal(err)
	}
	var got junit.Report
	if err := xml.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("decode: %v\n%s", err, buf.String())
	}
	if got.Tests != 6 || got.Failures != 3 || got.Errors != 1 || len(got.Suites) != 3 {
		t.Fatalf("report: %d tests, %d failures, %d errors, %d suites; want 6, 3, 1, 3", got.Tests, got.Failures, got.Errors, len(got.Suites))
	}
	cases := map[string]junit.Case{}
	for _, s := range got.Suites {
		for _, c := range s.Cases {
			cases[c.Name] = c
		}
	}
	for _, tc := range []struct {
		name, class, failure, errMsg, detail string
	}{
		{"ok", "demo.generation", "", "", ""},
		{"broken", "demo.generation", "no generation attempt passed the gate: check: exit status 1", "", ""},
		{"s-pass", "demo.single.easy", "", "", ""},
		{"s-fail", "demo.single.easy", "failed: output does not match /x/", "", "FAIL matches /x/"},
		{"c-infra", "demo.chain.hard", "", "infrastructure error: registry: database is locked", ""},
		{"c-skip", "demo.chain.hard", "skipped: repo broken has no agent", "", "step 1: want broken, routed to none, no_agent"},
	} {
		c, ok := cases[tc.name]
		if !ok {
			t.Errorf("no case %s", tc.name)
			continue
		}
		if c.Class != tc.class {
			t.Errorf("%s classname = %q, want %q", tc.name, c.Class, tc.class)
		}
		var failure, errMsg, detail string
		if c.FailureEl != nil {
			failure, detail = c.FailureEl.Message, c.FailureEl.Text
		}
		if c.ErrorEl != nil {
			errMsg = c.ErrorEl.Message
		}
		if failure != tc.failure || errMsg != tc.errMsg || !strings.Contains(detail, tc.detail) {
			t.Errorf("%s: failure %q, error %q, detail %q; want %q, %q, detail with %q", tc.name, failure, errMsg, detail, tc.failure, tc.errMsg, tc.detail)
		}
	}
	if c := cases["ok"]; c.Time != 1.5 {
		t.Errorf("generation case time = %v, want 1.5 s", c.Time)
	}
}
