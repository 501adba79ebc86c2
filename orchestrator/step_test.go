package orchestrator

import (
	"fmt"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// TestStepMessagePreviousText checks that a step's text output reaches the
// next step as a file named and typed by what it holds.
func TestStepMessagePreviousText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ text, name, mediaType string }{
		{"Q3 2024\n\"1,566\"\n\"1,188\"\n", "input.csv", "text/csv"},
		{"{\"valid\": false}\n", "input.json", "application/json"},
		{"lines: 7\nwords: 40\n", "input.txt", "text/plain"},
	} {
		msg := stepMessage("Compute the mean.", Input{}, &Output{Text: tc.text}, false, "ctx")
		if len(msg.Parts) != 2 {
			t.Fatalf("stepMessage() has %d parts, want the instruction and one file", len(msg.Parts))
		}
		if p := msg.Parts[1]; p.Filename != tc.name || p.MediaType != tc.mediaType {
			t.Errorf("previous output %q sent as %s (%s), want %s (%s)", tc.text, p.Filename, p.MediaType, tc.name, tc.mediaType)
		}
	}
}

// TestRankingOf checks what a step records of a decision's ranking: at
// most MaxRanking agents, or the choice alone when the router ranks none.
func TestRankingOf(t *testing.T) {
	t.Parallel()
	cands := make([]Candidate, MaxRanking+2)
	var all []Scored
	for i := range cands {
		cands[i] = Candidate{ID: fmt.Sprint("a", i), URL: fmt.Sprint("http://127.0.0.1:", 9000+i)}
		all = append(all, Scored{Agent: &cands[i], Score: float64(100 - i)})
	}
	if got := rankingOf(Decision{Agent: &cands[0], Ranking: all}); len(got) != MaxRanking || got[0].ID != "a0" || got[MaxRanking-1].Score != float64(100-MaxRanking+1) {
		t.Errorf("rankingOf(%d ranked) = %+v, want the first %d", len(all), got, MaxRanking)
	}
	if got := rankingOf(Decision{Agent: &cands[3], Score: 0.7}); len(got) != 1 || got[0].ID != "a3" || got[0].Score != 0.7 {
		t.Errorf("rankingOf(choice only) = %+v, want the choice alone", got)
	}
	if got := rankingOf(Decision{Reason: "none fits"}); got != nil {
		t.Errorf("rankingOf(no agent) = %+v, want none", got)
	}
}

// TestCollectRefusesForeignURL: a file by URL is passed on only from the
// answering agent's own origin.
func TestCollectRefusesForeignURL(t *testing.T) {
	t.Parallel()
	own := "http://127.0.0.1:9001"
	for _, tc := range []struct {
		url  string
		want bool
	}{
		{own + "/files/abc/out.bin", true},
		{"http://127.0.0.1:9002/files/abc/out.bin", false},
		{"http://169.254.169.254/latest/meta-data", false},
		{"file:///etc/passwd", false},
		{"http://user:pw@127.0.0.1:9001/files/abc/out.bin", false},
	} {
		parts := []*a2a.Part{{Content: a2a.URL(tc.url), Filename: "out.bin", Metadata: map[string]any{fileSizeKey: float64(7)}}}
		out, _, refused := collect(parts, own)
		if got := refused == "" && len(out.Files) == 1 && out.Files[0].URL == tc.url && out.Files[0].Size == 7; got != tc.want {
			t.Errorf("collect(%s) from %s: files %+v, refused %q; want taken %v", tc.url, own, out.Files, refused, tc.want)
		}
	}
}
