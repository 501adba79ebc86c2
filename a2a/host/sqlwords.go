package host

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/internal/lazyregexp"
	"github.com/agentnet/agentnet/internal/vocab"
)

// A tool that runs SQL over a table it loads from a file is asked, in
// words, for what a user wants of that table ("total the hours of each crew
// member, largest first"). The rules here write the one query such a
// sentence asks for: an aggregate of a column (or of an arithmetic of two),
// grouped by another column, ordered by the aggregate. The words are data
// (internal/vocab: agg-sum, agg-avg, agg-count, agg-max, agg-min, grouping,
// lowest, times, plus, minus, divided); the columns come from the attached
// table. A sentence these rules cannot read whole gives no query.

var (
	sqlWrittenRE = lazyregexp.New(`(?is)\bselect\b.+\bfrom\b`)
	sqlNameRE    = lazyregexp.New(`(?i)\bsql\b`)
	sqlWordRE    = lazyregexp.New(`[\pL\pN_]+|\(|\)`)
	// exampleSQLRE finds, in a card example, a query's table and a file
	// operand: `tool dogs.csv "select * from t"`.
	exampleFromRE = lazyregexp.New(`(?i)\bfrom\s+["'\x60]?([\pL\pN_.-]+)`)
	exampleFileRE = lazyregexp.New(`(?i)([\pL\pN_.-]+)\.(csv|tsv|json|jsonl|ndjson)\b`)
	plainIdentRE  = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// stepSQL writes the query of a parameter that takes SQL, when the
// instruction asks in words for an aggregate of the one attached table
// and writes no query itself.
func stepSQL(s *bindState) error {
	if !s.textual || s.explicit || sqlWrittenRE.MatchString(s.text) || quoted(s.text) != "" {
		return nil
	}
	p, ok := sqlParam(s)
	if !ok {
		return nil
	}
	file, cols := attachedTable(s)
	if len(cols) == 0 {
		return nil
	}
	q, why := sqlFromWords(s.text, sqlTableName(s.Skill, file), cols)
	if q == "" {
		return nil
	}
	s.args[p.Name] = q
	s.from = "the instruction's words (" + why + ") over the columns of " + file
	return nil
}

// sqlParam is the unbound string parameter that takes SQL: a query
// parameter whose name or description, or else whose skill's
// description, names SQL.
func sqlParam(s *bindState) (bundle.Param, bool) {
	var found []bundle.Param
	for _, p := range s.params {
		if s.unbound(p) && p.Type == "string" && p.Role == bundle.RoleQuery {
			found = append(found, p)
		}
	}
	if len(found) != 1 {
		return bundle.Param{}, false
	}
	p := found[0]
	named := sqlNameRE.MatchString(strings.Join(vocab.Words(p.Name), " ") + " " + p.Description)
	return p, named || sqlNameRE.MatchString(s.Skill.Description)
}

// attachedTable is the one attached file that holds a table, and its
// columns: a CSV or TSV file's header, or the keys of a JSON array of
// records.
func attachedTable(s *bindState) (string, []string) {
	var name string
	var cols []string
	for _, f := range s.Files {
		c := tableColumns(filepath.Join(s.Workdir, f))
		if len(c) == 0 {
			continue
		}
		if name != "" {
			return "", nil // several tables: a join, which these rules do not write
		}
		name, cols = f, c
	}
	return name, cols
}

// maxTableProbe bounds what is read of a JSON file to find its records'
// keys.
const maxTableProbe = 1 << 20

// tableColumns are the columns of the table in path, or nil.
func tableColumns(path string) []string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json", ".jsonl", ".ndjson":
		return jsonRecordKeys(path)
	}
	if h := csvHeader(path); len(h) > 1 {
		return h
	}
	return jsonRecordKeys(path)
}

// jsonRecordKeys are the keys of the first record of a JSON array of
// objects (or of JSON lines), in the order written.
func jsonRecordKeys(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	dec := json.NewDecoder(io.LimitReader(f, maxTableProbe))
	tok, err := dec.Token()
	if err != nil {
		return nil
	}
	if tok != json.Delim('[') {
		if tok != json.Delim('{') {
			return nil
		}
		return objectKeys(dec) // JSON lines: the first line's object
	}
	if tok, err = dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	return objectKeys(dec)
}

// objectKeys reads the keys of the object whose '{' dec just read.
func objectKeys(dec *json.Decoder) []string {
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

// sqlTableName is the name the skill's tool gives the table it loads from
// file, as its examples show: the file's stem ("dogs.csv" queried "from
// dogs"), or the one fixed name they query ("from t"); the stem when they
// show neither.
func sqlTableName(sk *bundle.Skill, file string) string {
	stem := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	for _, ex := range sk.Examples {
		from, f := exampleFromRE.FindStringSubmatch(ex), exampleFileRE.FindStringSubmatch(ex)
		if from == nil || f == nil {
			continue
		}
		if !strings.EqualFold(from[1], filepath.Base(f[1])) {
			return from[1]
		}
		return stem
	}
	return stem
}

// A colMention is a column named by the instruction's words from word
// index at for n words.
type colMention struct {
	col   string
	at, n int
}

// sqlFromWords writes the query the instruction asks of table, whose
// columns are cols, and says what it read; "" when it cannot read an
// aggregate, its column and (when asked) its grouping.
func sqlFromWords(text, table string, cols []string) (string, string) {
	words := sqlWordRE.FindAllString(strings.ToLower(text), -1)
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
		b.WriteString(sqlIdent(group.col) + ", ")
		why += " per " + group.col
	}
	b.WriteString(agg + "(" + measure + ") as " + sqlIdent(alias) + " from " + sqlIdent(table))
	if group != nil {
		b.WriteString(" group by " + sqlIdent(group.col))
	}
	if dir := orderWords(words); dir != "" {
		b.WriteString(" order by " + sqlIdent(alias) + " " + dir)
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
			expr := sqlIdent(m.col) + " " + op + " " + sqlIdent(cand[i+1].col)
			name := m.col + "_" + cand[i+1].col
			if m.at >= 2 && words[m.at-1] == "(" && plainIdentRE.MatchString(words[m.at-2]) {
				name = words[m.at-2]
			}
			return expr, name, true
		}
	}
	return sqlIdent(m.col), m.col, true
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

// sqlIdent writes name as an SQL identifier, quoted unless plain.
func sqlIdent(name string) string {
	if name == "*" || plainIdentRE.MatchString(name) {
		return name
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}
