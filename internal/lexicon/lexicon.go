package lexicon

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/agentnet/agentnet/internal/bm25"
)

//go:generate go run ./internal/mklexicon -wordnet /usr/share/wordnet -out wordnet.txt.gz -derived derived.txt.gz -antonyms antonyms.txt.gz

// table is the synset table internal/mklexicon writes: gzip text, one
// synset a line of "stem:rank" fields, the rank being the synset's place
// among the word's senses (1 for its most frequent).
//
//go:embed wordnet.txt.gz
var table []byte

// derivedTable is the derivation table internal/mklexicon writes, in the
// synset table's format: one line a pair of words WordNet derives one
// from the other ("describe" and "description", "analyze" and "analysis").
//
//go:embed derived.txt.gz
var derivedTable []byte

// antonymTable is the antonym table internal/mklexicon writes, in the
// synset table's format: one line a pair of words WordNet gives as
// opposites ("encode" and "decode", "compress" and "decompress").
//
//go:embed antonyms.txt.gz
var antonymTable []byte

// License is WordNet's license, which must accompany its data.
//
//go:embed LICENSE-WordNet
var License string

// Senses is how common a sense must be to relate two words: they are
// related when they share a synset that is among the first Senses senses
// of at least one of them. WordNet lists a word's rare readings too ("pull"
// has seventeen verb senses); a synset that is rare for both words relates
// words a text hardly ever means alike. It was chosen on the tune split of
// the skill matcher's labeled pairs (eval/testdata/match).
const Senses = 3

// entry is one synset a stem belongs to, with the stem's sense rank of it.
type entry struct {
	synset int32
	rank   uint8
}

// member is one stem of a synset, with its sense rank of it.
type member struct {
	stem string
	rank uint8
}

// tableIndex is the table read: each stem's synsets, in increasing synset
// order, and each synset's stems.
type tableIndex struct {
	stems   map[string][]entry
	synsets [][]member
}

var (
	index        = sync.OnceValue(func() *tableIndex { return mustParse(table) })
	derivedIndex = sync.OnceValue(func() *tableIndex { return mustParse(derivedTable) })
	antonymIndex = sync.OnceValue(func() *tableIndex { return mustParse(antonymTable) })
)

func mustParse(data []byte) *tableIndex {
	x, err := parse(data)
	if err != nil {
		panic(fmt.Sprintf("embedded lexicon table is corrupt: %v", err)) // built by go generate
	}
	return x
}

func parse(data []byte) (*tableIndex, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	x := &tableIndex{stems: map[string][]entry{}}
	sc := bufio.NewScanner(zr)
	for syn := int32(0); sc.Scan(); syn++ {
		var ms []member
		for _, f := range strings.Fields(sc.Text()) {
			stem, r, ok := strings.Cut(f, ":")
			n, err := strconv.Atoi(r)
			if !ok || stem == "" || err != nil || n < 1 || n > 255 {
				return nil, fmt.Errorf("line %d: bad field %q", syn+1, f)
			}
			ms = append(ms, member{stem: stem, rank: uint8(n)})
			x.stems[stem] = append(x.stems[stem], entry{synset: syn, rank: uint8(n)})
		}
		x.synsets = append(x.synsets, ms)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return x, zr.Close()
}

// Related reports whether two words are synonyms (see RelatedStems): they
// are lower-cased and stemmed first. A word is never its own synonym.
func Related(a, b string) bool {
	return RelatedStems(bm25.Stem(strings.ToLower(a)), bm25.Stem(strings.ToLower(b)))
}

// RelatedStems reports whether two Snowball stems (bm25.Stem) share a
// synset that is among the first Senses senses of at least one of them.
// Stems that are equal, or one the beginning of the other ("percent" and
// "percentag", "convert" and "convertor"), are not related: they are forms
// of one word, which WordNet lists as synonyms but which are no other word
// for a thing — a caller compares them as it compares forms.
func RelatedStems(a, b string) bool {
	if strings.HasPrefix(a, b) || strings.HasPrefix(b, a) {
		return false
	}
	idx := index().stems
	ea, eb := idx[a], idx[b]
	for len(ea) > 0 && len(eb) > 0 { // both in increasing synset order
		switch x, y := ea[0], eb[0]; {
		case x.synset < y.synset:
			ea = ea[1:]
		case x.synset > y.synset:
			eb = eb[1:]
		default:
			if min(x.rank, y.rank) <= Senses {
				return true
			}
			ea, eb = ea[1:], eb[1:]
		}
	}
	return false
}

// Synonyms returns the stems related to stem (see RelatedStems), each once.
func Synonyms(stem string) []string { return related(index(), stem) }

// Derived returns the stems WordNet derives from stem or stem from, each
// once: "describ" and "descript", "analyz" and "analysi" — one word's
// verb and noun, whose Snowball stems differ. As with synonyms, the
// derivation must join a sense among the first Senses of one of the two,
// and stems that are forms of one word (one the beginning of the other)
// are not listed.
func Derived(stem string) []string { return related(derivedIndex(), stem) }

// Antonyms returns the stems WordNet gives as opposites of stem, each once:
// "encod" and "decod", "compress" and "decompress", "pack" and "unpack" —
// words that name an operation and its reverse. As with synonyms, the
// pair must join a sense among the first Senses of one of the two.
func Antonyms(stem string) []string { return related(antonymIndex(), stem) }

func related(x *tableIndex, stem string) []string {
	var out []string
	for _, e := range x.stems[stem] {
		for _, m := range x.synsets[e.synset] {
			if min(e.rank, m.rank) <= Senses && !strings.HasPrefix(m.stem, stem) &&
				!strings.HasPrefix(stem, m.stem) && !slices.Contains(out, m.stem) {
				out = append(out, m.stem)
			}
		}
	}
	return out
}
