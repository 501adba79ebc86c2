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
