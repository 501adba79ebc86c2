package eval

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentnet/agentnet/tasks"
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

// TestMatchSkillsReadsOpeningFirst checks that details after a skill's
// opening sentence do not cost it the match the opening earns, and that
// the views add no match between unrelated skills.
func TestMatchSkillsReadsOpeningFirst(t *testing.T) {
	t.Parallel()
	truth := []tasks.Skill{
		{ID: "log-errors", Description: "Extract the error lines of a server log, with their timestamps and severity."},
		{ID: "request-rate", Description: "Count the requests per minute in an access log and report the busiest minutes."},
	}
	gen := []SkillText{
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
	if whole := weightedDice(all[0], all[3], idfOver(all)); whole >= DefaultMatchThreshold {
		t.Fatalf("whole-text similarity of errors and log-errors = %.2f, want it below %.2f for this test to mean anything", whole, DefaultMatchThreshold)
	}
	m := MatchSkills(gen, truth, DefaultMatchThreshold)
	if want := []string{"log-errors", "request-rate", ""}; !cmp.Equal(m.Supported, want) {
		t.Errorf("MatchSkills supported = %q, want %q", m.Supported, want)
	}
	if want := map[string]string{"log-errors": "errors", "request-rate": "rate"}; !cmp.Equal(m.Covered, want) {
		t.Errorf("MatchSkills covered = %v, want %v", m.Covered, want)
	}
	if !near(m.Precision, 2.0/3) || !near(m.Recall, 1) {
		t.Errorf("MatchSkills precision %v recall %v, want 2/3 and 1", m.Precision, m.Recall)
	}
}

// TestMatchPairsReadsLabelsAndParams checks the readings beyond the
// descriptions: subcommands whose boilerplate descriptions say nothing
// match by their names, several of them one capability, and one program
// matches a capability its parameter offers.
func TestMatchPairsReadsLabelsAndParams(t *testing.T) {
	t.Parallel()
	truth := []tasks.Skill{
		{ID: "image-blend", Description: "Blend two images together with a blend mode such as multiply, screen or overlay."},
		{ID: "image-rotate", Description: "Rotate an image by an angle, optionally growing the canvas."},
		{ID: "image-info", Description: "Report an image's format, width and height."},
	}
	gen := []SkillText{
		{ID: "blend-multiply", Name: "imgx blend multiply", Description: "Run the blend multiply command of imgx (usage: imgx blend multiply [flags])."},
		{ID: "blend-screen", Name: "imgx blend screen", Description: "Run the blend screen command of imgx (usage: imgx blend screen [flags])."},
		{ID: "transform", Name: "imgx transform", Description: "Geometric operations of imgx.", Params: []string{"rotate: degrees to turn by", "grow"}},
		{ID: "version", Name: "imgx version", Description: "Print the version of imgx."},
	}
	got := MatchPairs(gen, truth, DefaultMatchThreshold)
	want := [][]bool{{true, false, false}, {true, false, false}, {false, true, false}, {false, false, false}}
	if !cmp.Equal(got, want) {
		t.Errorf("MatchPairs = %v, want %v", got, want)
	}
}
