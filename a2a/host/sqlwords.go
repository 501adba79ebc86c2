package host

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/internal/lazyregexp"
	"github.com/agentnet/agentnet/internal/sqlwords"
	"github.com/agentnet/agentnet/internal/vocab"
)

// A tool that runs SQL over a table it loads from a file is asked, in
// words, for what a user wants of that table ("total the hours of each crew
// member, largest first"); package sqlwords writes the query.

var (
	sqlWrittenRE = lazyregexp.New(`(?is)\bselect\b.+\bfrom\b`)
	sqlNameRE    = lazyregexp.New(`(?i)\bsql\b`)
	// exampleFromRE and exampleFileRE find, in a card example, a query's table and a file
	// operand: `tool dogs.csv "select * from t"`.
	exampleFromRE = lazyregexp.New(`(?i)\bfrom\s+["'\x60]?([\pL\pN_.-]+)`)
	exampleFileRE = lazyregexp.New(`(?i)([\pL\pN_.-]+)\.(csv|tsv|json|jsonl|ndjson)\b`)
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
	q, why := sqlwords.Query(s.text, sqlTableName(s.Skill, file), cols)
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

// tableColumns are the columns of the table in path, or nil.
func tableColumns(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	return sqlwords.Columns(f, path)
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
