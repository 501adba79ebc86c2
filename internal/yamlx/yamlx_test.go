package yamlx

import (
	"strings"
	"testing"
)

type doc struct {
	Name  string            `json:"name"`
	Count int               `json:"count"`
	Ratio float64           `json:"ratio"`
	On    bool              `json:"on"`
	Tags  []string          `json:"tags"`
	Meta  map[string]string `json:"meta"`
	Any   any               `json:"any"`
	Inner *struct {
		ID string `json:"id"`
	} `json:"inner"`
}

func TestDecodeProblems(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src string
		want      []string // each a substring of one problem, in order
	}{
		{"ok", "name: x\ncount: 2\nratio: 1\non: true\ntags: [a]\nmeta: {k: v}\nany: {a: [1]}\ninner: {id: i}\n", nil},
		{"types", "name: [x]\ncount: 1.5\nratio: abc\non: yes\n", []string{
			"f.yaml:1:7: name: want a string, got a list",
			"f.yaml:2:8: count: want an integer, got the number 1.5",
			"f.yaml:3:8: ratio: want a number",
			`f.yaml:4:5: on: want true or false, got the string "yes"`,
		}},
		{"unknown and duplicate", "naem: x\nname: a\nname: b\ninner: {idd: 1}\n", []string{
			`f.yaml:1:1: naem: unknown field "naem" (did you mean "name"?)`,
			`f.yaml:3:1: name: duplicate key "name"`,
			`f.yaml:4:9: inner.idd: unknown field "idd" (did you mean "id"?)`,
		}},
		{"question mark in a flow list", "name: a\ntags: [How long is this sentence?]\n", nil},
		{"unclosed flow list", "name: a\ntags: [x, y\ncount: 1\n", []string{"f.yaml:2:7: syntax error: did not find expected ',' or ']'"}},
		{"tab indentation", "name: a\ntags: x\n\tcount: 1\n", []string{"f.yaml:3:1: syntax error:"}},
		{"empty", "", []string{"f.yaml:1:1: empty document"}},
		{"aliases", "tags: &t [a, b]\nmeta: {k: v}\nname: *t\n", []string{"name: want a string, got a list"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := NewDecoder("f.yaml")
			var v doc
			d.DecodeBytes([]byte(tc.src), &v)
			got := d.Problems()
			if len(got) != len(tc.want) {
				t.Fatalf("problems = %v, want %d", got, len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i].String(), w) {
					t.Errorf("problem %d = %q, want it to contain %q", i, got[i], w)
				}
			}
		})
	}
}

func TestExpansionBounded(t *testing.T) {
	t.Parallel()
	// Each level repeats the previous nine times: 9^8 values if expanded.
	src := "a: &a [x, x, x, x, x, x, x, x, x]\n"
	prev := "a"
	for _, n := range "bcdefgh" {
		src += string(n) + ": &" + string(n) + " [*" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + "]\n"
		prev = string(n)
	}
	src += "tags: *" + prev + "\n"
	var v struct {
		Tags []any `json:"tags"`
	}
	d := NewDecoder("f.yaml")
	d.DecodeBytes([]byte(src), &v)
	if err := d.Err(); err == nil || !strings.Contains(err.Error(), "aliasing") && !strings.Contains(err.Error(), "too deeply aliased") {
		t.Errorf("aliased expansion gave %v", err)
	}
}
