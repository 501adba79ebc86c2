package bm25

import "strings"

// British and American spellings of one word meet before stemming
// ("kilometres" and "kilometers", "colour" and "color", "normalise" and
// "normalize", "catalogue" and "catalog"): an instruction written one way
// must find a card written the other. Each rule rewrites a suffix for words
// of at least min letters; native words that merely end the same way are
// left alone.
var spellings = []struct {
	from, to string
	min      int
}{
	{"tres", "ters", 6}, {"tre", "ter", 5}, // metre, centre, litre, theatre
	{"bres", "bers", 6}, {"bre", "ber", 5}, // fibre, calibre
	{"isations", "izations", 9}, {"isation", "ization", 8},
	{"alise", "alize", 7}, {"alised", "alized", 8}, {"alises", "alizes", 8}, {"alising", "alizing", 9},
	{"imise", "imize", 7}, {"imised", "imized", 8}, {"imises", "imizes", 8}, {"imising", "imizing", 9},
	{"yse", "yze", 6}, {"ysed", "yzed", 7}, {"yses", "yzes", 7}, {"ysing", "yzing", 8}, // analyse, paralyse
	{"logue", "log", 7}, {"logues", "logs", 8}, // catalogue, dialogue
	{"ours", "ors", 6}, {"our", "or", 6}, {"oured", "ored", 8}, {"ouring", "oring", 9}, // colour, harbour
}

// nativeSpellings end like a British spelling but are no such thing.
var nativeSpellings = map[string]bool{
	"devour": true, "devours": true, "detour": true, "detours": true, "contour": true, "contours": true,
	"velour": true, "paramour": true, "troubadour": true, "timbre": true, "macabre": true, "analyses": true,
}

// american rewrites a lower-case British spelling to the American one.
func american(w string) string {
	if nativeSpellings[w] {
		return w
	}
	for _, r := range spellings {
		if len(w) >= r.min && strings.HasSuffix(w, r.from) {
			return strings.TrimSuffix(w, r.from) + r.to
		}
	}
	return w
}
