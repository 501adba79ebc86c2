package bm25

import (
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/kljensen/snowball/english"
)

// The usual BM25 constants.
const (
	K1 = 1.2
	B  = 0.75
)

// Index is an immutable BM25 index over documents. It is safe for
// concurrent use.
type Index struct {
	docs  []map[string]int
	lens  []int
	avg   float64
	df    map[string]int
	total int
}

// Result is a document's score for a query.
type Result struct {
	Doc   int // index of the document in the slice given to New
	Score float64
}

// New indexes docs.
func New(docs []string) *Index {
	idx := &Index{df: map[string]int{}, total: len(docs)}
	sum := 0
	for _, d := range docs {
		tf := map[string]int{}
		toks := Tokenize(d)
		for _, t := range toks {
			tf[t]++
		}
		for t := range tf {
			idx.df[t]++
		}
		idx.docs = append(idx.docs, tf)
		idx.lens = append(idx.lens, len(toks))
		sum += len(toks)
	}
	if len(docs) > 0 {
		idx.avg = float64(sum) / float64(len(docs))
	}
	return idx
}

// Score returns the BM25 score of document i for query.
func (idx *Index) Score(i int, query string) float64 {
	return idx.score(i, Tokenize(query))
}

func (idx *Index) score(i int, q []string) float64 {
	tf, dl := idx.docs[i], float64(idx.lens[i])
	s := 0.0
	for _, t := range q {
		f := float64(tf[t])
		if f == 0 {
			continue
		}
		n := float64(idx.df[t])
		idf := math.Log(1 + (float64(idx.total)-n+0.5)/(n+0.5))
		norm := 1.0
		if idx.avg > 0 {
			norm = 1 - B + B*dl/idx.avg
		}
		s += idf * f * (K1 + 1) / (f + K1*norm)
	}
	return s
}

// questionRE finds the questions of a message: sentences ending in "?".
var questionRE = regexp.MustCompile(`[^.!?\n]*\?`)

// Query returns a message as a query in which what it asks outweighs what
// it tells around that: the words of its questions count twice ("A
// customer typed X into our payment form. Is it valid?" asks for a
// validation, not a form).
func Query(message string) string {
	q := questionRE.FindAllString(message, -1)
	if len(q) == 0 {
		return message
	}
	return message + "\n" + strings.Join(q, " ")
}

// Rank scores every document for query, best first; ties keep document
// order.
func (idx *Index) Rank(query string) []Result {
	q := Tokenize(query)
	out := make([]Result, len(idx.docs))
	for i := range idx.docs {
		out[i] = Result{Doc: i, Score: idx.score(i, q)}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Score > out[b].Score })
	return out
}

// Tokenize lower-cases s, splits it on anything but letters and digits,
// drops stop words and one-letter tokens, and stems what is left (see stem).
func Tokenize(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if len(f) < 2 || stop[f] {
			continue
		}
		out = append(out, Stem(f))
	}
	return out
}

// Stem reduces a lower-case word to its Snowball (Porter2) English stem,
// so that "validates", "validation" and "valid" meet, and so do
// "counting" and "counts" — and British and American spellings
// ("kilometres", "kilometers"; see american).
func Stem(w string) string { return english.Stem(american(w), false) }

var stop = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be but by can do does for from given has have how i in into is it
	its me my of on or our please that the their them then there these this those to us was we what when
	which who will with you your all any each some give get make list show tell find`) {
		stop[w] = true
	}
}
