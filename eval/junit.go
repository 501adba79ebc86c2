package eval

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentnet/agentnet/internal/junit"
	"github.com/agentnet/agentnet/tasks"
)

// JUnit returns r as a JUnit report a CI reads: a suite "generation" with
// one case per repo (failed when no attempt passed the gate), then one suite
// per task type with one case per task. A failed, errored or skipped task is
// a failure with its reason; an infrastructure error, which the rates
// exclude, is an error.
func JUnit(r *Results) *junit.Report {
	rep := &junit.Report{Name: "agentnet " + r.Suite}
	if len(r.Repos) > 0 {
		gen := rep.Suite(r.Suite + ".generation")
		for _, repo := range r.Repos {
			c := junit.Case{Name: repo.ID, Class: r.Suite + ".generation"}
			var ms int64
			for _, a := range repo.Attempts {
				ms += a.DurationMS
			}
			c.Time = float64(ms) / 1000
			if !repo.Generated {
				c.Failure = "no generation attempt passed the gate"
				if n := len(repo.Attempts); n > 0 && repo.Attempts[n-1].Reason != "" {
					c.Failure += ": " + repo.Attempts[n-1].Reason
				}
			}
			gen.Add(c)
		}
	}
	suites := map[tasks.CaseType]*junit.Suite{}
	for _, t := range r.Tasks {
		s := suites[t.Type]
		if s == nil {
			s = rep.Suite(r.Suite + "." + string(t.Type))
			suites[t.Type] = s
		}
		s.Add(taskCase(r.Suite, t))
	}
	return rep
}

func taskCase(suite string, t TaskResult) junit.Case {
	c := junit.Case{Name: t.ID, Class: fmt.Sprintf("%s.%s.%s", suite, t.Type, t.Tier), Time: float64(t.DurationMS) / 1000}
	why := t.Reason
	if why == "" {
		why = t.Status
	}
	switch {
	case t.Status == StatusInfraError:
		c.Error = "infrastructure error: " + why
	case t.Pass:
		return c
	default:
		c.Failure = t.Status + ": " + why
	}
	c.Detail = taskDetail(t)
	return c
}

// taskDetail is the text of a failure: the checks, the steps and the output.
func taskDetail(t TaskResult) string {
	var b strings.Builder
	for _, ch := range t.Checks {
		mark := "ok  "
		if !ch.Pass {
			mark = "FAIL"
		}
		fmt.Fprintf(&b, "%s %s", mark, ch.Check)
		if ch.Reason != "" {
			fmt.Fprintf(&b, ": %s", ch.Reason)
		}
		b.WriteString("\n")
	}
	for _, st := range t.Steps {
		routed := st.Routed
		if routed == "" {
			routed = "none"
		}
		fmt.Fprintf(&b, "step %d: want %s, routed to %s, %s", st.Index, st.Expected, routed, st.Outcome)
		if st.Reason != "" {
			fmt.Fprintf(&b, " (%s)", st.Reason)
		}
		b.WriteString("\n")
	}
	if t.Output != "" {
		fmt.Fprintf(&b, "output:\n%s\n", t.Output)
	}
	return b.String()
}

// WriteJUnit writes JUnit(r) to w.
func WriteJUnit(w io.Writer, r *Results) error { return JUnit(r).Write(w) }
