package conformance

import (
	"fmt"
	"strings"

	"github.com/agentnet/agentnet/internal/junit"
)

// ParseLevel reads a level as a user writes it: must, should or may, in
// any case.
func ParseLevel(s string) (Level, error) {
	for _, l := range levels {
		if strings.EqualFold(s, string(l)) {
			return l, nil
		}
	}
	return "", fmt.Errorf("unknown level %q (want must, should or may)", s)
}

// atLeast reports whether l is as binding as min or more.
func (l Level) atLeast(min Level) bool {
	for _, x := range levels {
		if x == l {
			return true
		}
		if x == min {
			return false
		}
	}
	return false
}

// AtLevel returns a copy of r holding only the checks as binding as min or
// more (MUST: the MUST checks; SHOULD: MUST and SHOULD; MAY: all), its
// summary counted again.
func (r *Report) AtLevel(min Level) *Report {
	keep := func(res []Result) []Result {
		out := []Result{}
		for _, x := range res {
			if x.Level.atLeast(min) {
				out = append(out, x)
			}
		}
		return out
	}
	cp := &Report{Fleet: keep(r.Fleet)}
	for _, e := range r.Endpoints {
		e.Results = keep(e.Results)
		cp.Endpoints = append(cp.Endpoints, e)
	}
	cp.summarize()
	return cp
}

// JUnit returns the report as JUnit XML a CI reads: one suite per endpoint
// (and one for the fleet checks), one case per check and protocol version.
// A failed check is a failure with its one-line reason, whatever its level;
// a skipped check is skipped with why.
func (r *Report) JUnit() *junit.Report {
	rep := &junit.Report{Name: "agentnet audit"}
	add := func(name string, res []Result) {
		s := rep.Suite(name)
		for _, x := range res {
			c := junit.Case{Name: x.ID, Class: fmt.Sprintf("%s.%s", x.Level, x.Category)}
			if x.Version != "" {
				c.Name += " (A2A " + x.Version + ")"
			}
			switch x.Status {
			case Fail:
				c.Failure = fmt.Sprintf("%s: %s", x.Level, x.Reason)
				c.Detail = x.Title
			case Skip:
				c.Skipped = x.Reason
			}
			s.Add(c)
		}
	}
	for _, e := range r.Endpoints {
		name := e.URL
		if e.Name != "" {
			name += " (" + e.Name + ")"
		}
		add(name, e.Results)
	}
	if len(r.Fleet) > 0 {
		add(fmt.Sprintf("fleet of %d endpoints", len(r.Endpoints)), r.Fleet)
	}
	return rep
}
