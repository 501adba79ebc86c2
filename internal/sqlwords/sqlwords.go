// Package sqlwords writes the SQL query a sentence asks of one table: an
// aggregate of a column (or of an arithmetic of two), grouped by another
// column, ordered by the aggregate ("total the hours of each crew member,
// largest first"). The words are data (internal/vocab: agg-sum, agg-avg,
// agg-count, agg-max, agg-min, grouping, lowest, times, plus, minus,
// divided); the columns come from the table (Columns). A sentence these
// rules cannot read whole gives no query. The host's rules binder writes a
// skill's SQL with it; the BM25 router sends such a step to an agent that
// runs SQL.
package sqlwords

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentnet/agentnet/internal/lazyregexp"
	"github.com/agentnet/agentnet/internal/vocab"
)

var (
	wordRE       = lazyregexp.New(`[\pL\pN_]+|\(|\)`)
	plainIdentRE = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// MaxProbe bounds what Columns reads of a table.
const MaxProbe = 1 << 20

// Columns are the columns of the table r holds, named name: a JSON array of
// records' (or JSON lines') first keys for a .json/.jsonl/.ndjson name or
// content that reads as such, else a CSV, TSV or semicolon-separated
// header of two columns or more; nil when it holds no table.
func Columns(r io.Reader, name string) []string {
	data, err := io.ReadAll(io.LimitReader(r, MaxProbe))
	if err != nil {
		return nil
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json", ".jsonl", ".ndjson":
		return recordKeys(data)
	}
	if t := bytes.TrimSpace(data); len(t) > 0 && (t[0] == '[' || t[0] == '{') {
		return recordKeys(data)
	}
	return header(data)
}

// header is the first line's fields, when a separator splits it in two or
// more.
func header(data []byte) []string {
	line, _ := bufio.NewReader(bytes.NewReader(data)).ReadBytes('\n')
	line = bytes.TrimRight(line, "\r\n")
	for _, sep := range []rune{',', '\t', ';'} {
		if !bytes.ContainsRune(line, sep) {
			continue
		}
		r := csv.NewReader(bytes.NewReader(line))
		r.Comma, r.LazyQuotes = sep, true
		if rec, err := r.Read(); err == nil && len(rec) > 1 {
			for i := range rec {
				rec[i] = strings.TrimSpace(rec[i])
			}
			return rec
		}
	}
	return nil
}

// recordKeys are the keys of the first record of a JSON array of objects
// (or of JSON lines), in the order written.
func recordKeys(data []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil
	}
	if tok == json.Delim('[') {
		if tok, err = dec.Token(); err != nil {
			return nil
		}
	}
	if tok != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() && len(keys) < 256 {
		tok, err := dec.Token()
		k, ok := tok.(string)
		if err != nil || !ok {
			return nil
		}
		keys = append(keys, k)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return nil
		}
	}
	return keys
}

// A colMention is a column named by the instruction's words from word
// index at for n words.
type colMention struct {
	col   string
	at, n int
}

// Query writes the query the instruction asks of table, whose
// columns are cols, and says what it read; "" when it cannot read an
// aggregate, its column and (when asked) its grouping.
func Query(text, table string, cols []string) (string, string) {
	words := wordRE.FindAllString(strings.ToLower(text), -1)
	mentions := columnMentions(words, cols)
	agg, at := aggregateWord(words)
	if agg == "" {
		return "", ""
	}
	var group *colMention
	for i := range mentions {
		if m := &mentions[i]; m.at > 0 && vocab.Has("grouping", words[m.at-1]) {
			group = m
			break
		}
	}
	measure, alias := "*", "count"
	if agg != "count" {
		expr, name, ok := measureAfter(words, mentions, group, at)
		if !ok {
			return "", ""
		}
		measure, alias = expr, name
		if agg == "avg" {
			alias = "average_" + name
		}
	}
	var b strings.Builder
	b.WriteString("select ")
	why := agg + " of " + measure
	if group != nil {
		b.WriteString(ident(group.col) + ", ")
		why += " per " + group.col
	}
	b.WriteString(agg + "(" + measure + ") as " + ident(alias) + " from " + ident(table))
	if group != nil {
		b.WriteString(" group by " + ident(group.col))
	}
	if dir := orderWords(words); dir != "" {
		b.WriteString(" order by " + ident(alias) + " " + dir)
		why += ", " + dir
	}
	return b.String(), why
}

// columnMentions finds the columns the words name, the longest first where
// two start at one word: "unit price" names unit_price; "hours" names
// hours (and hour); "temp_c" names itself.
func columnMentions(words []string, cols []string) []colMention {
	var out []colMention
	taken := make([]bool, len(words))
	byLen := slices.Clone(cols)
	slices.SortStableFunc(byLen, func(a, b string) int { return len(vocab.Words(b)) - len(vocab.Words(a)) })
	for _, c := range byLen {
		cw := vocab.Words(c)
		if len(cw) == 0 {
			continue
		}
		for i := range words {
			n := matchColumn(words[i:], strings.ToLower(c), cw)
			if n == 0 || slices.Contains(taken[i:i+n], true) {
				continue
			}
			for j := i; j < i+n; j++ {
				taken[j] = true
			}
			out = append(out, colMention{col: c, at: i, n: n})
		}
	}
	slices.SortFunc(out, func(a, b colMention) int { return a.at - b.at })
	return out
}

// matchColumn is how many of words, from the first, name the column c
// (whose words are cw): its name as written, or its words in a row, each
// in the singular or the plural; 0 when they do not.
func matchColumn(words []string, c string, cw []string) int {
	if len(words) > 0 && words[0] == c {
		return 1
	}
	if len(words) < len(cw) {
		return 0
	}
	for i, w := range cw {
		if v := words[i]; v != w && v != w+"s" && v+"s" != w && v != w+"es" {
			return 0
		}
	}
	return len(cw)
}

// aggregateWord is the SQL function the words ask for and where; "how
// many" and "the number of" count.
func aggregateWord(words []string) (string, int) {
	for i, w := range words {
		if next := ""; i+1 < len(words) {
			if next = words[i+1]; w == "how" && next == "many" || w == "number" && next == "of" {
				return "count", i
			}
		}
		for _, fn := range []string{"sum", "avg", "count", "max", "min"} {
			if vocab.Has("agg-"+fn, w) {
				return fn, i
			}
		}
	}
	return "", 0
}

// measureAfter is what the aggregate at word index at is taken of: the
// first column (not the grouping one) named after it, or else before it,
// or an arithmetic of two ("units times unit price"); and the name of the
// result: the word before a parenthesis that holds the arithmetic
// ("revenue (units times unit price)"), else the column's.
func measureAfter(words []string, mentions []colMention, group *colMention, at int) (string, string, bool) {
	var cand []colMention
	for _, m := range mentions {
		if group == nil || m.at != group.at {
			cand = append(cand, m)
		}
	}
	i := slices.IndexFunc(cand, func(m colMention) bool { return m.at > at })
	if i < 0 {
		i = len(cand) - 1
	}
	if i < 0 {
		return "", "", false
	}
	m := cand[i]
	if i+1 < len(cand) {
		if op := arithmetic(words[m.at+m.n : cand[i+1].at]); op != "" {
			expr := ident(m.col) + " " + op + " " + ident(cand[i+1].col)
			name := m.col + "_" + cand[i+1].col
			if m.at >= 2 && words[m.at-1] == "(" && plainIdentRE.MatchString(words[m.at-2]) {
				name = words[m.at-2]
			}
			return expr, name, true
		}
	}
	return ident(m.col), m.col, true
}

// arithmetic is the operator the words between two columns name, or "".
func arithmetic(between []string) string {
	var ws []string
	for _, w := range between {
		if w != "by" && w != "(" && w != ")" {
			ws = append(ws, w)
		}
	}
	if len(ws) != 1 {
		return ""
	}
	for _, op := range []struct{ set, sym string }{{"times", "*"}, {"plus", "+"}, {"minus", "-"}, {"divided", "/"}} {
		if vocab.Has(op.set, ws[0]) {
			return op.sym
		}
	}
	return ""
}

// orderWords is the order the words ask the results in: "desc" for a
// superlative before "first" ("largest first", "most hours first") but a
// low one ("smallest first"), or "descending"; "asc" for a low one or
// "ascending"; "" when they ask none.
func orderWords(words []string) string {
	for i, w := range words {
		switch {
		case w == "descending":
			return "desc"
		case w == "ascending":
			return "asc"
		case w == "first" && i > 0:
			for j := i - 1; j >= 0 && j >= i-3; j-- {
				v := words[j]
				if vocab.Has("lowest", v) {
					return "asc"
				}
				if v == "most" || v == "more" || strings.HasSuffix(v, "est") {
					return "desc"
				}
			}
		}
	}
	return ""
}

// ident writes name as an SQL identifier, quoted unless plain.
func ident(name string) string {
	if name == "*" || plainIdentRE.MatchString(name) {
		return name
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}
