package lexicon

import (
	"strings"
	"testing"
)

// TestRelated reads the embedded WordNet table: synonyms of a common sense
// are related in either order and in any inflection; unrelated words, a
// word and itself, and words only rare senses join are not.
func TestRelated(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"extract", "pull", true},
		{"pull", "extract", true},
		{"picture", "image", true},
		{"Images", "pictures", true},
		{"convert", "transform", true},
		{"converting", "transforms", true},
		{"count", "picture", false},
		{"image", "image", false},
		{"percent", "percentage", false},
		{"unknownword", "image", false},
		{"", "", false},
	} {
		if got := Related(tc.a, tc.b); got != tc.want {
			t.Errorf("Related(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestTableParses checks the whole embedded table and WordNet's license
// beside it.
func TestTableParses(t *testing.T) {
	t.Parallel()
	m, err := parse(table)
	if err != nil {
		t.Fatal(err)
	}
	if len(m) < 10000 {
		t.Errorf("table holds %d stems, want the WordNet vocabulary (over 10,000)", len(m))
	}
	if !strings.Contains(License, "WordNet 3.0 Copyright 2006 by Princeton University") {
		t.Error("LICENSE-WordNet lacks WordNet's copyright notice")
	}
	if _, err := parse([]byte("not gzip")); err == nil {
		t.Error("parse accepted a table that is not gzip")
	}
}
