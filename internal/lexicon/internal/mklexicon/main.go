// Command mklexicon writes the lexicon's table from the WordNet database
// files (Debian's wordnet-base package: /usr/share/wordnet). It keeps the
// noun, verb and adjective synsets of two or more one-word lemmas, each
// lemma Snowball-stemmed as the matcher's words are (bm25.Stem) and paired
// with its sense rank: the place of the synset among the word's senses in
// WordNet's index, 1 for its most frequent sense.
//
// The table is gzip-compressed text, one synset a line, "stem:rank" fields
// separated by spaces, lines sorted so the output is reproducible:
//
//	go run ./internal/mklexicon -wordnet /usr/share/wordnet -out wordnet.txt.gz
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
	flag.Parse()
	if err := run(*dir, *out); err != nil {
		fmt.Fprintln(os.Stderr, "mklexicon:", err)
		os.Exit(2)
	}
}

func run(dir, out string) error {
	var lines []string
	for _, pos := range posFiles {
		ranks, err := readIndex(filepath.Join(dir, "index."+pos))
		if err != nil {
			return err
		}
		ls, err := readData(filepath.Join(dir, "data."+pos), ranks)
		if err != nil {
			return err
		}
		lines = append(lines, ls...)
	}
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
func readData(path string, ranks map[string]map[string]int) ([]string, error) {
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
		for i := range int(n) {
			lemma := strings.ToLower(f[4+2*i])
			if k := strings.IndexByte(lemma, '('); k >= 0 { // adjective markers: "galore(ip)"
				lemma = lemma[:k]
			}
			r := ranks[lemma][f[0]]
			if !oneWord(lemma) || r == 0 || r > maxRank {
				continue
			}
			s := bm25.Stem(lemma)
			if old, ok := best[s]; !ok || r < old {
				best[s] = r
			}
		}
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
