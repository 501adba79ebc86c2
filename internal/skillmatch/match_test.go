package skillmatch

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSentences(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"One sentence without a stop", []string{"One sentence without a stop"}},
		{"Scale an image.  Keep the ratio (e.g. 4:3). Width 1.5 times.", []string{"Scale an image.", "Keep the ratio (e.g. 4:3).", "Width 1.5 times."}},
		{`Print "done." Then exit! 2 lines? ok`, []string{`Print "done."`, "Then exit!", "2 lines? ok"}},
		{"Écrit le texte. Élément suivant.", []string{"Écrit le texte.", "Élément suivant."}},
	} {
		if got := sentences(tc.in); !cmp.Equal(got, tc.want) {
			t.Errorf("sentences(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestMatchReadsOpeningFirst checks that details after a skill's
// opening sentence do not cost it the match the opening earns, and that
// the views add no match between unrelated skills.
func TestMatchReadsOpeningFirst(t *testing.T) {
	t.Parallel()
	truth := []Skill{
		{ID: "log-errors", Description: "Extract the error lines of a server log, with their timestamps and severity."},
		{ID: "request-rate", Description: "Count the requests per minute in an access log and report the busiest minutes."},
	}
	gen := []Skill{
		{ID: "errors", Name: "logtool errors", Description: "Error lines of a server log, with timestamps and severity. " +
			"Reads Apache, nginx and syslog layouts, skips the continuation lines of stack traces and prints each match as an ISO-8601 time, a level and the message, oldest first. " +
			"Compressed rotations are opened transparently, and a summary table per host closes the report."},
		{ID: "rate", Name: "logtool rate", Description: "Requests per minute of an access log, busiest first."},
		{ID: "config", Name: "logtool config", Description: "Show where settings are read from. Lists the configuration directory, the cache location and the colour theme."},
	}
	// The whole description of "errors" is too diluted to match on its own.
	var all []map[string]bool
	for _, g := range gen {
		all = append(all, wordSet(g.ID+" "+g.Name+" "+g.Description))
	}
	for _, tr := range truth {
		all = append(all, wordSet(tr.ID+" "+tr.Description))
	}
	if whole := weightedDice(all[0], all[3], idfOver(all)); whole >= DefaultThreshold {
		t.Fatalf("whole-text similarity of errors and log-errors = %.2f, want it below %.2f for this test to mean anything", whole, DefaultThreshold)
	}
	m := Match(gen, truth, DefaultThreshold)
	if want := []string{"log-errors", "request-rate", ""}; !cmp.Equal(m.Supported, want) {
		t.Errorf("Match supported = %q, want %q", m.Supported, want)
	}
	if want := map[string]string{"log-errors": "errors", "request-rate": "rate"}; !cmp.Equal(m.Covered, want) {
		t.Errorf("Match covered = %v, want %v", m.Covered, want)
	}
	if !near(m.Precision, 2.0/3) || !near(m.Recall, 1) {
		t.Errorf("Match precision %v recall %v, want 2/3 and 1", m.Precision, m.Recall)
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
