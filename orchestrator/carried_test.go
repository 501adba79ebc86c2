package orchestrator

import (
	"context"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// A skill's fit for a step's file: its modes name the type or its family
// (declares), take any file (takes), or a skill taking any file whose
// description's first sentence names only other formats is unfit.
func TestTiers(t *testing.T) {
	c := &a2a.AgentCard{DefaultInputModes: []string{"*/*"}}
	for _, tc := range []struct {
		modes []string
		desc  string
		t     string
		want  Fit
	}{
		{[]string{"text/csv"}, "", "text/csv", Declares},
		{[]string{"image/*"}, "", "image/png", Declares},
		{[]string{"*/*"}, "Count rows", "text/csv", Takes},
		{[]string{"text/plain"}, "", "text/csv", Takes},
		{nil, "Split Ogg logical streams", "text/csv", Unfit},
		{[]string{"*/*"}, "Extract pdf structure", "text/csv", Unfit},
		{[]string{"*/*"}, "Extract pdf structure", "application/pdf", Takes},
		{[]string{"*/*"}, "Convert CSV to JSON", "text/csv", Takes},
		{[]string{"image/png"}, "", "text/csv", Unfit},
		// Modes from inferred roles leave the PDF out, the description
		// names it: the skill takes it.
		{[]string{"text/plain"}, "Extract the text of a PDF file", "application/pdf", Takes},
		{[]string{"text/plain"}, "Extract the text of a document", "application/pdf", Unfit},
		{[]string{"image/png"}, "Resize a PNG image", "application/pdf", Unfit},
		// A file of unknown type may be what a file input takes; not a
		// text input.
		{[]string{"application/vnd.ms-excel"}, "", "application/octet-stream", Takes},
		{[]string{"text/plain"}, "", "application/octet-stream", Unfit},
		{[]string{"*/*"}, "Extract pdf structure", "application/octet-stream", Takes},
	} {
		s := &a2a.AgentSkill{InputModes: tc.modes, Description: tc.desc}
		if got := skillFit(c, s, []string{tc.t}); got != tc.want {
			t.Errorf("%v %q for %s: %v, want %v", tc.modes, tc.desc, tc.t, got, tc.want)
		}
	}
}

// For a step carrying a CSV, the words of a skill that cannot take it do
// not count: the agent whose fitting skill matches wins over the one
// whose matching words are in a skill for another format.
func TestRouteByFit(t *testing.T) {
	mk := func(name, desc string) Candidate {
		return Candidate{ID: name, Card: &a2a.AgentCard{Name: name, DefaultInputModes: []string{"*/*"},
			Skills: []a2a.AgentSkill{{ID: name, Description: desc}}}}
	}
	cands := []Candidate{
		mk("streams", "Split Ogg logical streams into pages, merge stream pages, count stream pages"),
		mk("tables", "Split a CSV table into pages of rows"),
	}
	q := Query{Instruction: "split the stream into pages", Types: []string{"text/csv"}}
	d, err := NewBM25().Route(context.Background(), q, cands)
	if err != nil || d.Agent == nil || d.Agent.ID != "tables" {
		t.Fatalf("routed %+v (%v), want tables", d.Agent, err)
	}
	q.Types = nil // no file: all words count
	if d, _ := NewBM25().Route(context.Background(), q, cands); d.Agent == nil || d.Agent.ID != "streams" {
		t.Errorf("without a file routed %+v, want streams", d.Agent)
	}
}
