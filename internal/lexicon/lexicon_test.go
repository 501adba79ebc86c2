package lexicon

import (
	"slices"
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

// TestSynonyms: Synonyms lists exactly the stems RelatedStems relates.
func TestSynonyms(t *testing.T) {
	t.Parallel()
	for _, stem := range []string{"extract", "pictur", "convert", "percent", "run", "nosuchstem"} {
		syns := Synonyms(stem)
		for _, s := range syns {
			if !RelatedStems(stem, s) {
				t.Errorf("Synonyms(%q) lists %q, which RelatedStems does not relate", stem, s)
			}
		}
		for other := range index().stems {
			if RelatedStems(stem, other) && !slices.Contains(syns, other) {
				t.Errorf("Synonyms(%q) lacks %q", stem, other)
			}
		}
	}
	if !slices.Contains(Synonyms("extract"), "pull") {
		t.Errorf("Synonyms(extract) = %q, want pull among them", Synonyms("extract"))
	}
}

// TestTableParses checks the whole embedded table and WordNet's license
// beside it.
func TestTableParses(t *testing.T) {
	t.Parallel()
	x, err := parse(table)
	if err != nil {
		t.Fatal(err)
	}
	if len(x.stems) < 10000 {
		t.Errorf("table holds %d stems, want the WordNet vocabulary (over 10,000)", len(x.stems))
	}
	if !strings.Contains(License, "WordNet 3.0 Copyright 2006 by Princeton University") {
		t.Error("LICENSE-WordNet lacks WordNet's copyright notice")
	}
	if _, err := parse([]byte("not gzip")); err == nil {
		t.Error("parse accepted a table that is not gzip")
	}
}

// BenchmarkLoad is the cost of the first use: reading the whole embedded
// table into the stem index.
func BenchmarkLoad(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parse(table); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRelatedStems is one lookup once the table is loaded.
func BenchmarkRelatedStems(b *testing.B) {
	index()
	for b.Loop() {
		RelatedStems("extract", "pull")
	}
}

// TestDerived reads the embedded derivation table: a verb and its noun
// whose stems differ are derived, in either direction; forms of one word,
// synonyms that are not derivations, and unknown words are not.
func TestDerived(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"describ", "descript", true},
		{"descript", "describ", true},
		{"analyz", "analysi", true},
		{"convert", "convers", true},
		{"convert", "convertor", false},
		{"extract", "pull", false},
		{"nosuchstem", "descript", false},
	} {
		if got := slices.Contains(Derived(tc.a), tc.b); got != tc.want {
			t.Errorf("Derived(%q) holds %q = %v, want %v (Derived = %q)", tc.a, tc.b, got, tc.want, Derived(tc.a))
		}
	}
	if _, err := parse(derivedTable); err != nil {
		t.Errorf("derivation table: %v", err)
	}
}

// TestAntonyms reads the embedded antonym table: an operation and its
// reverse are opposites in either direction; synonyms and derivations are
// not.
func TestAntonyms(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"encod", "decod", true},
		{"decod", "encod", true},
		{"compress", "decompress", true},
		{"pack", "unpack", true},
		{"extract", "pull", false},
		{"describ", "descript", false},
		{"nosuchstem", "decod", false},
	} {
		if got := slices.Contains(Antonyms(tc.a), tc.b); got != tc.want {
			t.Errorf("Antonyms(%q) holds %q = %v, want %v (Antonyms = %q)", tc.a, tc.b, got, tc.want, Antonyms(tc.a))
		}
	}
	if _, err := parse(antonymTable); err != nil {
		t.Errorf("antonym table: %v", err)
	}
}
