package vocab

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"
)

//go:embed vocab.txt
var vocabText string

//go:embed media.txt
var mediaText string

// parse reads "name: word word ..." lines, skipping blanks and # comments.
func parse(text string) map[string][]string {
	out := map[string][]string{}
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, words, ok := strings.Cut(line, ":")
		if !ok {
			panic(fmt.Sprintf("vocab: line %d: want name: words", i+1)) // embedded data, checked by tests
		}
		out[strings.TrimSpace(name)] = strings.Fields(words)
	}
	return out
}

var sets = sync.OnceValue(func() map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for name, words := range parse(vocabText) {
		m := map[string]bool{}
		for _, w := range words {
			m[w] = true
		}
		out[name] = m
	}
	return out
})

var media = sync.OnceValue(func() map[string][]string { return parse(mediaText) })

// Set returns the words of the named set (see vocab.txt); nil for an
// unknown name. The map is shared; do not modify it.
func Set(name string) map[string]bool { return sets()[name] }

// List returns the words of the named set in the order vocab.txt gives
// them (the ordinals' place is their number); nil for an unknown name.
func List(name string) []string { return lists()[name] }

var lists = sync.OnceValue(func() map[string][]string { return parse(vocabText) })

// SetNames lists the sets vocab.txt defines.
func SetNames() []string {
	var out []string
	for name := range sets() {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// Has reports whether one of words is in the named set.
func Has(set string, words ...string) bool {
	s := Set(set)
	for _, w := range words {
		if s[w] {
			return true
		}
	}
	return false
}

// Words splits a parameter name into its lower-case words, leaving out
// numbers: "ignore_file", "ignoreFile" and "--ignore-file" all give ignore,
// file; "version2" gives version.
func Words(name string) []string {
	var words []string
	var cur []rune
	prev := rune(0)
	flush := func() {
		if len(cur) > 0 && !unicode.IsDigit(cur[0]) {
			words = append(words, strings.ToLower(string(cur)))
		}
		cur = cur[:0]
	}
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev), unicode.IsDigit(r) != unicode.IsDigit(prev) && prev != 0:
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
		prev = r
	}
	flush()
	return words
}

// MediaTypes returns the media types the words of text name ("a CSV or
// JSON file": text/csv, application/json), in the order they come, each
// once, a wildcard (image/*) left out beside a type of its kind; nil when
// it names none.
func MediaTypes(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		for _, mt := range media()[w] {
			if !slices.Contains(out, mt) {
				out = append(out, mt)
			}
		}
	}
	// "a PNG image" is image/png: a wildcard gives way to a type of its own
	// kind.
	return slices.DeleteFunc(out, func(t string) bool {
		major, ok := strings.CutSuffix(t, "/*")
		return ok && slices.ContainsFunc(out, func(u string) bool { return u != t && strings.HasPrefix(u, major+"/") })
	})
}

// MediaWords returns every word media.txt maps to a media type.
func MediaWords() []string {
	var out []string
	for w := range media() {
		out = append(out, w)
	}
	slices.Sort(out)
	return out
}
