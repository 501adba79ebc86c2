package bm25

import "testing"

// TestSpellings: British and American spellings stem alike; words that
// only end like a British spelling keep their own stem.
func TestSpellings(t *testing.T) {
	t.Parallel()
	for _, pair := range [][2]string{
		{"kilometres", "kilometers"}, {"metre", "meter"}, {"centre", "center"}, {"fibre", "fiber"},
		{"colour", "color"}, {"colours", "colors"}, {"harbour", "harbor"}, {"flavoured", "flavored"},
		{"normalise", "normalize"}, {"normalised", "normalized"}, {"minimising", "minimizing"},
		{"organisation", "organization"}, {"analyse", "analyze"}, {"catalogue", "catalog"},
	} {
		if a, b := Stem(pair[0]), Stem(pair[1]); a != b {
			t.Errorf("Stem(%q) = %q, Stem(%q) = %q; want them equal", pair[0], a, pair[1], b)
		}
	}
	for _, pair := range [][2]string{{"hour", "hor"}, {"four", "for"}, {"devour", "devor"}, {"acre", "acer"}, {"genre", "gener"}, {"tour", "tor"}} {
		if a, b := Stem(pair[0]), Stem(pair[1]); a == b {
			t.Errorf("Stem(%q) = Stem(%q) = %q; want them apart", pair[0], pair[1], a)
		}
	}
}
