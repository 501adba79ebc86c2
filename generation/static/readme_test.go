package static

import "testing"

// TestReadmeSummarySkipsNonProse checks that the README's summary is its
// first paragraph of prose: not an indented code line, a GitHub alert's
// body, link reference definitions or a row of badges.
func TestReadmeSummarySkipsNonProse(t *testing.T) {
	t.Parallel()
	const want = "Enforce a stricter format than gofmt."
	for _, tc := range []struct {
		name, text string
	}{
		{"indented code by tab", "# tool\n\n\tgo install example.org/tool@latest\n\nEnforce a stricter format than `gofmt`.\n"},
		{"indented code by spaces", "# tool\n\n    pip install tool\n\nEnforce a stricter format than gofmt.\n"},
		{"alert body", "# tool\n\n> [!NOTE]\n> This project moved to a new home.\n> Please update your links.\n\nEnforce a stricter format than gofmt.\n"},
		{"link reference definitions", "# tool\n\n[![GoDoc Widget]][GoDoc] [![CI Widget]][CI]\n\n[GoDoc]: https://godoc.org/example.org/tool\n[CI]: https://ci.example.org/tool\n\nEnforce a stricter format than gofmt.\n"},
		{"badges", "# tool\n\n![CI](https://ci/x.svg) [![Go Reference](https://pkg.go.dev/badge.svg)](https://pkg.go.dev/x)\n\nEnforce a stricter format than gofmt.\n"},
		{"badges by reference", "# tool\n\n![CI][ci-badge] ![Cover][cover-badge]\nEnforce a stricter format than gofmt.\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := readmeSummary(tc.text); got != want {
				t.Errorf("readmeSummary(%q) = %q, want %q", tc.text, got, want)
			}
		})
	}
}

// TestUnbanner checks that a help's version banner is no description: its
// version goes, and a banner that only names the program goes whole.
func TestUnbanner(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"Jsonnet linter v0.20.0", "Jsonnet linter"},
		{"Jsonnet commandline interpreter (Go implementation) v0.20.0", "Jsonnet commandline interpreter (Go implementation)"},
		{"mytool version 1.2.3 (abc123)", ""},
		{"jq-1.6", ""},
		{"Convert Markdown to HTML.", "Convert Markdown to HTML."},
		{"The tool is a fork of gofmt as of Go 1.26.0, and requires Go 1.25 or later.", "The tool is a fork of gofmt as of Go 1.26.0, and requires Go 1.25 or later."},
	} {
		if got := unbanner(tc.in); got != tc.want {
			t.Errorf("unbanner(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
