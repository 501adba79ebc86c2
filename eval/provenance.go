package eval

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// provenanceLines describes where r came from, one sentence a line, for
// the text and HTML reports; none for a run made before provenance was
// recorded.
func provenanceLines(r *Results) []string {
	var lines []string
	if p := r.Provenance; p != nil {
		build := "agentnet " + p.Agentnet
		if p.Commit != "" {
			build += " (commit " + p.Commit
			if p.Modified {
				build += ", modified"
			}
			build += ")"
		}
		when := "started " + p.Started.UTC().Format(time.DateTime) + " UTC"
		if p.Finished != nil {
			when += ", finished " + p.Finished.UTC().Format(time.DateTime) + " UTC (" + p.Finished.Sub(p.Started).Round(time.Second).String() + ")"
		}
		if n := len(p.Resumed); n > 0 {
			when += fmt.Sprintf(", resumed %d time(s)", n)
		}
		lines = append(lines, fmt.Sprintf("Made by %s on host %s; %s.", build, p.Host, when))
		if p.SuiteDigest != "" {
			lines = append(lines, "Suite digest "+p.SuiteDigest+".")
		}
		for _, rs := range p.Resumed {
			if rs.SuiteDigest != "" && rs.SuiteDigest != p.SuiteDigest {
				lines = append(lines, "The suite's files changed before the resumption of "+rs.At.UTC().Format(time.DateTime)+" UTC (digest "+rs.SuiteDigest+").")
			}
		}
		if len(p.Models) > 0 {
			var ms []string
			for _, role := range slices.Sorted(maps.Keys(p.Models)) {
				ms = append(ms, role+" "+p.Models[role])
			}
			lines = append(lines, "Models: "+strings.Join(ms, ", ")+".")
		}
	}
	if c := r.Config; c != nil {
		lines = append(lines, fmt.Sprintf("Generator %s, runtime %s, router %s, judge %s, %d attempt(s) per repo.", c.Generator, c.Runtime, c.Router, c.Judge, c.Attempts))
	}
	return lines
}
