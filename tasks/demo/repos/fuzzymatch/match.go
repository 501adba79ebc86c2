package main

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
)

// Candidate is one line (or CSV cell) of an input file.
type Candidate struct {
	Text string // the text as shown in results (trimmed)
	Key  string // the text as compared (see Normalize)
	Line int    // 1-based line number in the file
	Row  string // the whole CSV row when reading a column, else Text
}

// LoadCandidates reads the non-blank lines of a text file, or, when column
// is set, the non-empty values of that column of a CSV file with a header
// row. column is a header name (case-insensitive) or a 1-based index. The
// CSV delimiter (comma, semicolon or tab) is taken from the header line.
func LoadCandidates(path, column string, normalize, foldCase bool) ([]Candidate, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, errors.Unwrap(err) // drop the "open PATH:" prefix; the caller names the file
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	key := func(s string) string {
		if !normalize {
			return s
		}
		return Normalize(s, foldCase)
	}
	var out []Candidate
	if column == "" {
		for i, line := range strings.Split(string(data), "\n") {
			text := strings.TrimSpace(line)
			if text == "" {
				continue
			}
			out = append(out, Candidate{Text: text, Key: key(text), Line: i + 1, Row: text})
		}
		return out, nil
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = sniffDelimiter(data)
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	header, err := r.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("empty CSV file")
	}
	if err != nil {
		return nil, err
	}
	col, err := findColumn(header, column)
	if err != nil {
		return nil, err
	}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if col >= len(rec) {
			continue
		}
		text := strings.TrimSpace(rec[col])
		if text == "" {
			continue
		}
		line, _ := r.FieldPos(col)
		out = append(out, Candidate{Text: text, Key: key(text), Line: line, Row: joinCSV(rec, r.Comma)})
	}
	return out, nil
}

func sniffDelimiter(data []byte) rune {
	first, _, _ := bytes.Cut(data, []byte("\n"))
	best, bestN := ',', bytes.Count(first, []byte(","))
	for _, d := range []rune{';', '\t'} {
		if n := bytes.Count(first, []byte(string(d))); n > bestN {
			best, bestN = d, n
		}
	}
	return best
}

func findColumn(header []string, name string) (int, error) {
	for i, h := range header {
		if strings.EqualFold(strings.TrimSpace(h), strings.TrimSpace(name)) {
			return i, nil
		}
	}
	if n, err := strconv.Atoi(name); err == nil && n >= 1 && n <= len(header) {
		return n - 1, nil
	}
	return 0, fmt.Errorf("no column %q (columns: %s)", name, strings.Join(header, ", "))
}

func joinCSV(rec []string, comma rune) string {
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.Comma = comma
	_ = w.Write(rec)
	w.Flush()
	return strings.TrimRight(b.String(), "\r\n")
}

// Match is a candidate scored against a query.
type Match struct {
	Candidate
	Distance int
	Score    float64
}

// Best scores every candidate against query (already prepared like the
// candidates' keys) and returns those scoring at least minScore, best
// first; equal scores keep file order. n <= 0 means all.
func Best(query string, cands []Candidate, n int, minScore float64) []Match {
	q := []rune(query)
	var ms []Match
	for _, c := range cands {
		k := []rune(c.Key)
		d := distanceRunes(q, k)
		score := 1.0
		if l := max(len(q), len(k)); l > 0 {
			score = 1 - float64(d)/float64(l)
		}
		if score >= minScore {
			ms = append(ms, Match{Candidate: c, Distance: d, Score: score})
		}
	}
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].Score > ms[j].Score })
	if n > 0 && len(ms) > n {
		ms = ms[:n]
	}
	return ms
}

// Variant is one spelling found in a cluster.
type Variant struct {
	Text  string `json:"text"`
	Count int    `json:"count"`
	first int
}

// Cluster is a group of near-duplicate lines.
type Cluster struct {
	Representative string    `json:"representative"`
	Size           int       `json:"size"`
	Variants       []Variant `json:"variants"`
	first          int
}

// Dedupe groups candidates whose keys have a similarity ratio of at least
// threshold. Grouping is transitive (single linkage): if a~b and b~c then
// a, b and c form one cluster. Each cluster's representative is its most
// frequent spelling (the earliest on a tie). Clusters are returned in
// order of first appearance.
func Dedupe(cands []Candidate, threshold float64) []Cluster {
	// Collapse identical keys first; only distinct keys are compared.
	type group struct {
		key   []rune
		first int
	}
	var groups []group
	groupOf := map[string]int{}
	variantGroup := map[string]int{}
	variants := map[string]*Variant{}
	var variantOrder []string
	for i, c := range cands {
		g, ok := groupOf[c.Key]
		if !ok {
			g = len(groups)
			groupOf[c.Key] = g
			groups = append(groups, group{key: []rune(c.Key), first: i})
		}
		if v, ok := variants[c.Text]; ok {
			v.Count++
		} else {
			variants[c.Text] = &Variant{Text: c.Text, Count: 1, first: i}
			variantOrder = append(variantOrder, c.Text)
			variantGroup[c.Text] = g
		}
	}

	parent := make([]int, len(groups))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for i := range groups {
		for j := i + 1; j < len(groups); j++ {
			a, b := groups[i].key, groups[j].key
			longest := max(len(a), len(b))
			if longest == 0 {
				continue
			}
			// The length difference alone bounds the ratio from above.
			if 1-float64(abs(len(a)-len(b)))/float64(longest) < threshold {
				continue
			}
			if ratioRunes(a, b) >= threshold {
				ri, rj := find(i), find(j)
				if ri != rj {
					parent[max(ri, rj)] = min(ri, rj)
				}
			}
		}
	}

	byRoot := map[int]*Cluster{}
	var clusters []*Cluster
	for _, text := range variantOrder {
		v := variants[text]
		root := find(variantGroup[text])
		c, ok := byRoot[root]
		if !ok {
			c = &Cluster{first: v.first}
			byRoot[root] = c
			clusters = append(clusters, c)
		}
		c.Variants = append(c.Variants, *v)
		c.Size += v.Count
	}
	out := make([]Cluster, len(clusters))
	for i, c := range clusters {
		sort.SliceStable(c.Variants, func(a, b int) bool { return c.Variants[a].Count > c.Variants[b].Count })
		c.Representative = c.Variants[0].Text
		out[i] = *c
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].first < out[b].first })
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
