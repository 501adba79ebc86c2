package main

import (
	"math"
	"testing"
)

func TestDistance(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"abc", "abc", 0},
		{"kitten", "sitting", 3},
		{"sitting", "kitten", 3},
		{"flaw", "lawn", 2},
		{"saturday", "sunday", 3},
		{"gumbo", "gambol", 2},
		{"book", "back", 2},
		{"intention", "execution", 5},
		{"Schwarzenegger", "Shwarzeneger", 2},
		{"café", "cafe", 1},   // code points, not bytes
		{"naïve", "naive", 1}, // ï is two bytes in UTF-8
		{"日本語", "日本", 1},
	}
	for _, c := range cases {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// naive is the textbook recursive definition, used to cross-check Distance.
func naive(a, b []rune) int {
	if len(a) == 0 {
		return len(b)
	}
	if len(b) == 0 {
		return len(a)
	}
	cost := 1
	if a[0] == b[0] {
		cost = 0
	}
	return min(naive(a[1:], b)+1, naive(a, b[1:])+1, naive(a[1:], b[1:])+cost)
}

func TestDistanceMatchesDefinition(t *testing.T) {
	words := []string{"", "a", "ab", "ba", "abc", "acb", "cab", "abcd", "xbcx", "aabb", "bbaa"}
	for _, a := range words {
		for _, b := range words {
			if got, want := Distance(a, b), naive([]rune(a), []rune(b)); got != want {
				t.Errorf("Distance(%q, %q) = %d, want %d", a, b, got, want)
			}
		}
	}
}

func TestRatio(t *testing.T) {
	cases := []struct {
		a, b string
		want float64
	}{
		{"", "", 1},
		{"abc", "abc", 1},
		{"abc", "xyz", 0},
		{"kitten", "sitting", 1 - 3.0/7},
		{"Schwarzenegger", "Shwarzeneger", 1 - 2.0/14},
	}
	for _, c := range cases {
		if got := Ratio(c.a, c.b); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Ratio(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

func TestEditScript(t *testing.T) {
	pairs := [][2]string{{"kitten", "sitting"}, {"", "ab"}, {"ab", ""}, {"intention", "execution"}, {"abc", "abc"}}
	for _, p := range pairs {
		ops := EditScript(p[0], p[1])
		edits := 0
		var a, b []rune
		for _, op := range ops {
			switch op.Kind {
			case "keep", "sub":
				a, b = append(a, op.From), append(b, op.To)
			case "del":
				a = append(a, op.From)
			case "ins":
				b = append(b, op.To)
			}
			if op.Kind != "keep" {
				edits++
			}
		}
		if string(a) != p[0] || string(b) != p[1] {
			t.Errorf("script for %q -> %q rebuilds %q -> %q", p[0], p[1], string(a), string(b))
		}
		if want := Distance(p[0], p[1]); edits != want {
			t.Errorf("script for %q -> %q has %d edits, want %d", p[0], p[1], edits, want)
		}
	}
}

func TestNormalize(t *testing.T) {
	if got := Normalize("  John \t SMITH ", true); got != "john smith" {
		t.Errorf("Normalize = %q", got)
	}
	if got := Normalize("  John \t SMITH ", false); got != "John SMITH" {
		t.Errorf("Normalize = %q", got)
	}
}
