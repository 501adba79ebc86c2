// Command mklexicon writes the lexicon's table from the WordNet database
// files (Debian's wordnet-base package: /usr/share/wordnet). It keeps the
// noun, verb and adjective synsets of two or more one-word lemmas, each
// lemma Snowball-stemmed as the matcher's words are (bm25.Stem) and paired
// with its sense rank: the place of the synset among the word's senses in
// WordNet's index, 1 for its most frequent sense.
//
// The table is gzip-compressed text, one synset a line, "stem:rank" fields
// separated by spaces, lines sorted so the output is reproducible.
//
// The derivation table (-derived) is in the same format, one line a pair of
// one-word lemmas WordNet's derivational pointers join ("+": "describe"
// and "description", "analyze" and "analysis"), each with its sense rank
// of the sense the pointer leaves from or reaches; pairs whose stems are
// equal or one the beginning of the other are left out (the matcher
// compares those as forms of one word). The antonym table (-antonyms) is
// likewise the pairs WordNet's antonym pointers join ("!": "encode" and
// "decode", "compress" and "decompress"):
//
//	go run ./internal/mklexicon -wordnet /usr/share/wordnet -out wordnet.txt.gz -derived derived.txt.gz -antonyms antonyms.txt.gz
package main

import (
	"bufio"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/agentnet/agentnet/internal/bm25"
)

// posFiles are the WordNet parts of speech read: nouns, verbs and
// adjectives (adverbs name few capabilities).
var posFiles = []string{"noun", "verb", "adj"}

// maxRank caps the sense ranks kept: a word's senses past it are rare
// readings that would relate it to words it hardly ever means.
const maxRank = 16

func main() {
	dir := flag.String("wordnet", "/usr/share/wordnet", "directory of the WordNet database files")
	out := flag.String("out", "wordnet.txt.gz", "table to write")
	derived := flag.String("derived", "derived.txt.gz", "derivation table to write")
	antonyms := flag.String("antonyms", "antonyms.txt.gz", "antonym table to write")
	flag.Parse()
	if err := run(*dir, *out, *derived, *antonyms); err != nil {
		fmt.Fprintln(os.Stderr, "mklexicon:", err)
		os.Exit(2)
	}
}

func run(dir, out, derived, antonyms string) error {
	var lines []string
	db := database{}
	for _, pos := range posFiles {
		ranks, err := readIndex(filepath.Join(dir, "index."+pos))
		if err != nil {
			return err
		}
		ls, err := readData(filepath.Join(dir, "data."+pos), ranks, db)
		if err != nil {
			return err
		}
		lines = append(lines, ls...)
	}
	if err := writeFile(out, lines); err != nil {
		return err
	}
	if err := writeFile(derived, db.pairs("+")); err != nil {
		return err
	}
	return writeFile(antonyms, db.pairs("!"))
}

// writeFile writes lines, sorted and each once, as a table.
func writeFile(out string, lines []string) error {
	slices.Sort(lines)
	lines = slices.Compact(lines)
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := write(f, lines); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func write(w io.Writer, lines []string) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	for _, l := range lines {
		if _, err := io.WriteString(zw, l+"\n"); err != nil {
			return err
		}
	}
	return zw.Close()
}

// readIndex returns each lemma's sense rank of each synset offset:
// an index line is "lemma pos synset_cnt p_cnt [ptr...] sense_cnt
// tagsense_cnt offset...", offsets in order of frequency.
func readIndex(path string) (map[string]map[string]int, error) {
	ranks := map[string]map[string]int{}
	err := eachLine(path, func(f []string) error {
		if len(f) < 4 {
			return fmt.Errorf("short index line %q", strings.Join(f, " "))
		}
		n, err1 := strconv.Atoi(f[2])
		p, err2 := strconv.Atoi(f[3])
		if err1 != nil || err2 != nil || len(f) < 6+p+n {
			return fmt.Errorf("bad index line %q", strings.Join(f, " "))
		}
		m := map[string]int{}
		for i, off := range f[6+p : 6+p+n] {
			m[off] = i + 1
		}
		ranks[f[0]] = m
		return nil
	})
	return ranks, err
}

// readData returns the table lines of a data file's synsets: a data line
// is "offset lex_filenum ss_type w_cnt(hex) word lex_id ...".
func readData(path string, ranks map[string]map[string]int, db database) ([]string, error) {
	var lines []string
	err := eachLine(path, func(f []string) error {
		if len(f) < 4 {
			return fmt.Errorf("short data line %q", strings.Join(f, " "))
		}
		n, err := strconv.ParseInt(f[3], 16, 32)
		if err != nil || len(f) < 4+2*int(n) {
			return fmt.Errorf("bad data line %q", strings.Join(f, " "))
		}
		best := map[string]int{}
		ss := &synset{}
		for i := range int(n) {
			lemma := strings.ToLower(f[4+2*i])
			if k := strings.IndexByte(lemma, '('); k >= 0 { // adjective markers: "galore(ip)"
				lemma = lemma[:k]
			}
			r := ranks[lemma][f[0]]
			ss.words = append(ss.words, sense{lemma, r})
			if !oneWord(lemma) || r == 0 || r > maxRank {
				continue
			}
			s := bm25.Stem(lemma)
			if old, ok := best[s]; !ok || r < old {
				best[s] = r
			}
		}
		ss.pointers = lexicalPointers(f[4+2*int(n):])
		db[posOf(f[2])+f[0]] = ss
		if len(best) < 2 {
			return nil
		}
		var fields []string
		for s, r := range best {
			fields = append(fields, s+":"+strconv.Itoa(r))
		}
		slices.Sort(fields)
		lines = append(lines, strings.Join(fields, " "))
		return nil
	})
	return lines, err
}

// sense is one lemma of a synset with its sense rank of it (0 when past
// the index's senses).
type sense struct {
	lemma string
	rank  int
}

// synset is what the pair tables need of a synset: its lemmas and its
// lexical pointers.
type synset struct {
	words    []sense
	pointers []pointer
}

// pointer is a lexical pointer (symbol "+", "!" ...) from the source'th
// lemma of a synset to the target'th lemma of the synset at key (part of
// speech and offset).
type pointer struct {
	symbol, key    string
	source, target int
}

// database holds the synsets read, by part of speech and offset.
type database map[string]*synset

// posOf maps a synset type to the data file it is in: adjective
// satellites ("s") are adjectives.
func posOf(t string) string {
	if t == "s" {
		return "a"
	}
	return t
}

// lexicalPointers returns the lexical pointers (those between two lemmas)
// of a data line's fields after its lemmas: "p_cnt {symbol offset pos
// source/target}", source/target 0000 for a pointer between synsets.
func lexicalPointers(f []string) []pointer {
	if len(f) == 0 {
		return nil
	}
	n, err := strconv.Atoi(f[0])
	if err != nil || len(f) < 1+4*n {
		return nil
	}
	var out []pointer
	for i := range n {
		p := f[1+4*i : 5+4*i]
		st, err := strconv.ParseUint(p[3], 16, 16)
		if err != nil || st == 0 {
			continue
		}
		out = append(out, pointer{symbol: p[0], key: posOf(p[2]) + p[1], source: int(st >> 8), target: int(st & 0xff)})
	}
	return out
}

// pairs returns the lines of the table of the lemma pairs the pointers
// of symbol join (see the package doc).
func (db database) pairs(symbol string) []string {
	var lines []string
	for _, ss := range db {
		for _, p := range ss.pointers {
			to := db[p.key]
			if p.symbol != symbol || to == nil || p.source > len(ss.words) || p.target > len(to.words) {
				continue
			}
			a, b := ss.words[p.source-1], to.words[p.target-1]
			if l, ok := pairLine(a, b); ok {
				lines = append(lines, l)
			}
		}
	}
	return lines
}

// pairLine is the table line of two lemmas a pointer joins, when both
// are one word of a kept sense and their stems are not forms of one word.
func pairLine(a, b sense) (string, bool) {
	if !oneWord(a.lemma) || !oneWord(b.lemma) || a.rank == 0 || b.rank == 0 ||
		a.rank > maxRank || b.rank > maxRank {
		return "", false
	}
	sa, sb := bm25.Stem(a.lemma), bm25.Stem(b.lemma)
	if strings.HasPrefix(sa, sb) || strings.HasPrefix(sb, sa) {
		return "", false
	}
	fields := []string{sa + ":" + strconv.Itoa(a.rank), sb + ":" + strconv.Itoa(b.rank)}
	slices.Sort(fields)
	return strings.Join(fields, " "), true
}

// oneWord reports whether a lemma is one word of letters: the matcher
// compares words, never phrases ("pull_out") or numbers.
func oneWord(s string) bool {
	if len(s) < 2 {
		return false
	}
	for _, r := range s {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// eachLine calls fn with the fields of every line of a WordNet database
// file but its license header (lines opening with two spaces).
func eachLine(path string, fn func([]string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "  ") || strings.TrimSpace(line) == "" {
			continue
		}
		if err := fn(strings.Fields(line)); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return sc.Err()
}
