package host

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentnet/agentnet/bundle"
)

func TestExtract(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "orders.csv"), []byte("id,ship_to,unit price\n1,\"Portland, OR\",3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files := []string{"orders.csv"}
	for _, tc := range []struct {
		name, text string
		p          bundle.Param
		want       string
	}{
		{"column named in the text", "What is the mean unit price of these orders?", bundle.Param{Name: "column", Type: "string"}, "unit price"},
		{"column by underscore name", "Which rows have ship_to Portland?", bundle.Param{Name: "col", Type: "string"}, "ship_to"},
		{"quoted phrase", `Find the entry closest to "magnesium sulphate".`, bundle.Param{Name: "query", Type: "string"}, "magnesium sulphate"},
		{"phrase in typographic quotes", "Find the entry closest to “magnesium sulphate”.", bundle.Param{Name: "query", Type: "string"}, "magnesium sulphate"},
		{"phrase in backquotes", "Find the entry closest to `magnesium sulphate`.", bundle.Param{Name: "query", Type: "string"}, "magnesium sulphate"},
		{"two quoted phrases are ambiguous", `Compare "a" with "b".`, bundle.Param{Name: "query", Type: "string"}, ""},
		{"no column for a non-column parameter", "the unit price", bundle.Param{Name: "query", Type: "string"}, ""},
	} {
		if got := pick(&bundle.Skill{}, tc.p, tc.text, work, files); got != tc.want {
			t.Errorf("%s: pick(%s, %q) = %q, want %q", tc.name, tc.p.Name, tc.text, got, tc.want)
		}
	}
	for _, tc := range []struct {
		text string
		p    bundle.Param
		want int
		ok   bool
	}{
		{"List the three most frequent words.", bundle.Param{Name: "n", Type: "integer"}, 3, true},
		{"Show the top 5 rows.", bundle.Param{Name: "limit", Type: "integer"}, 5, true},
		{"Between 3 and 5 words.", bundle.Param{Name: "n", Type: "integer"}, 0, false},
		{"List the three most frequent words.", bundle.Param{Name: "width", Type: "integer"}, 0, false},
	} {
		got, ok := countIn(tc.text, tc.p)
		if got != tc.want || ok != tc.ok {
			t.Errorf("countIn(%q, %s) = %d, %v; want %d, %v", tc.text, tc.p.Name, got, ok, tc.want, tc.ok)
		}
	}
	sk := &bundle.Skill{Run: []string{"tool", "links", "{{file}}", "--base", "{{base}}", "--mode={{mode}}", "{{text}}"}}
	for name, want := range map[string]bool{"file": true, "base": false, "mode": false, "text": true, "absent": false} {
		if got := positional(sk, name); got != want {
			t.Errorf("positional(%s) = %v, want %v", name, got, want)
		}
	}
}
