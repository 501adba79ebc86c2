package orchestrator

import (
	"bytes"
	"mime"
	"net/http"
	"path"
	"unicode/utf8"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/internal/sniff"
)

// Before ranking, the candidates are filtered by what the step carries:
// an agent fits when one of its card's skills takes every file of the
// step (its inputModes, else the card's defaultInputModes; a card with
// neither says nothing and is kept). text/plain takes any textual file
// (CSV, JSON, HTML) but not an image, a PDF or an office document.

// fileTypes returns the media types of the message's files: each part's
// own, else its name's; "" when neither says.
func fileTypes(m *a2a.Message) []string {
	var out []string
	for _, p := range m.Parts {
		if _, ok := p.Content.(a2a.Raw); !ok {
			continue
		}
		mt := p.MediaType
		if mt == "" || mt == "application/octet-stream" {
			mt = mime.TypeByExtension(path.Ext(p.Filename))
		}
		if mt == "" {
			mt = sniffBytes(p.Content.(a2a.Raw))
		}
		if t, _, err := mime.ParseMediaType(mt); err == nil {
			mt = t
		}
		out = append(out, mt)
	}
	return out
}

// sniffBytes returns the media type of a file neither its part nor its
// name types, from its bytes: a table, JSON or HTML when they are text
// (sniff.Text), else what net/http's sniffer reads (an image, a PDF, or
// application/octet-stream for bytes it does not know), so that a binary
// file does not fit a skill that takes only text.
func sniffBytes(data []byte) string {
	if len(data) == 0 {
		return ""
	}
	head := data[:min(len(data), 4096)]
	if utf8.Valid(head[:len(head)-utf8RuneTail(head)]) && !bytes.ContainsRune(head, 0) {
		_, mt := sniff.Text(string(data))
		return mt
	}
	mt, _, _ := mime.ParseMediaType(http.DetectContentType(head))
	return mt
}

// utf8RuneTail is how many bytes at the end of b may be a rune cut short.
func utf8RuneTail(b []byte) int {
	for i := 1; i <= utf8.UTFMax-1 && i <= len(b); i++ {
		if r := b[len(b)-i]; utf8.RuneStart(r) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return i
			}
			return 0
		}
	}
	return 0
}

// fitting returns the candidates that take files of the given types:
// those with a skill not unfit for them (carried.go).
func fitting(cands []Candidate, types []string) []Candidate {
	if len(carried(types)) == 0 {
		return cands
	}
	var out []Candidate
	for _, c := range cands {
		if cardFit(c.Card, types) > Unfit {
			out = append(out, c)
		}
	}
	return out
}

// modeTakes reports whether an input mode takes a file of media type t
// (see bundle.Accepts; text/plain takes any textual file, and a file known
// only as text fits any textual mode).
func modeTakes(mode, t string) bool {
	mode, _, _ = mime.ParseMediaType(mode)
	if mode == "*" || mode == "text/plain" && bundle.Textual(t) {
		return true
	}
	return bundle.Accepts([]string{mode}, t)
}
