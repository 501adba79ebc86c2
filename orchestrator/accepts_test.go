package orchestrator

import (
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

func card(name string, modes ...[]string) *a2a.AgentCard {
	c := &a2a.AgentCard{Name: name, DefaultInputModes: []string{"text/plain"}}
	for _, m := range modes {
		c.Skills = append(c.Skills, a2a.AgentSkill{ID: name, InputModes: m})
	}
	return c
}

// A step's files filter the candidates before any ranking: a PNG goes to
// an agent that takes images, never to an HTML tool; a card that says
// nothing about its inputs is kept; a CSV is text a text tool reads.
func TestFitting(t *testing.T) {
	cands := []Candidate{
		{ID: "html", Card: card("html", []string{"text/html"})},
		{ID: "img", Card: card("img", []string{"image/*"})},
		{ID: "pdf", Card: card("pdf", []string{"application/pdf"}, []string{"text/plain"})},
		{ID: "plain", Card: card("plain")},
		{ID: "any", Card: card("any", []string{"*/*"})},
		{ID: "text", Card: card("text", []string{"text/plain", "application/json"})},
		{ID: "silent", Card: &a2a.AgentCard{Name: "silent"}},
	}
	ids := func(cs []Candidate) string {
		s := ""
		for _, c := range cs {
			s += c.ID + " "
		}
		return s
	}
	for _, tc := range []struct {
		types []string
		want  string
	}{
		{nil, "html img pdf plain any text silent "},
		{[]string{"image/png"}, "img any silent "},
		{[]string{"text/csv"}, "pdf plain any text silent "},
		{[]string{"application/pdf"}, "pdf any silent "},
		{[]string{"application/vnd.openxmlformats-officedocument.wordprocessingml.document"}, "any silent "},
		{[]string{"image/png", "text/html"}, "any silent "},
		// A file known only as text (a step's output named input.txt) may
		// be the HTML or CSV a skill takes.
		{[]string{"text/plain"}, "html pdf plain any text silent "},
		{[]string{"application/x-yaml"}, "pdf plain any text silent "},
	} {
		if got := ids(fitting(cands, tc.types)); got != tc.want {
			t.Errorf("fitting(%v) = %q, want %q", tc.types, got, tc.want)
		}
	}
}

func TestFileTypes(t *testing.T) {
	m := a2a.NewMessage(a2a.MessageRoleUser,
		a2a.NewTextPart("x"),
		&a2a.Part{Content: a2a.Raw("x"), Filename: "a.png"},
		&a2a.Part{Content: a2a.Raw("x"), Filename: "b.bin", MediaType: "text/csv; charset=utf-8"})
	got := fileTypes(m)
	if len(got) != 2 || got[0] != "image/png" || got[1] != "text/csv" {
		t.Errorf("fileTypes = %v", got)
	}
}

// A file whose part and name do not say its type is typed by its bytes: a
// binary record stream of an unknown format is no text, so it does not
// fit a skill that takes only JSON, while one that takes any file keeps it.
func TestFileTypesSniffed(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	m := a2a.NewMessage(a2a.MessageRoleUser,
		&a2a.Part{Content: a2a.Raw([]byte{0x93, 0x01, 0xa3, 'a', 'b', 'c', 0xc3, 0x00}), Filename: "readings.rec"},
		&a2a.Part{Content: a2a.Raw(`[{"a": 1}, {"a": 2}]`), Filename: "data"},
		&a2a.Part{Content: a2a.Raw("name,n\nx,1\ny,2\n"), Filename: "rows.unknownext"},
		&a2a.Part{Content: a2a.Raw(png), Filename: "picture"},
		&a2a.Part{Content: a2a.Raw("héllo wörld"), Filename: "note"})
	want := []string{"application/octet-stream", "application/json", "text/csv", "image/png", "text/plain"}
	got := fileTypes(m)
	if len(got) != len(want) {
		t.Fatalf("fileTypes = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("file %d: %q, want %q", i, got[i], want[i])
		}
	}
	cands := []Candidate{
		{ID: "json", Card: card("json", []string{"application/json"})},
		{ID: "any", Card: card("any", []string{"*/*"})},
	}
	fit := fitting(cands, got[:1])
	if len(fit) != 1 || fit[0].ID != "any" {
		t.Errorf("a binary file fits %v, want only the skill taking any file", fit)
	}
}
