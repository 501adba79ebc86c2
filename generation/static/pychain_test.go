package static

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestBuilderChain generates the wrapper of a library with a fluent
// builder that its README uses in chains, and runs it: one skill takes the
// calls in order (with a subclass to start from, and arguments that call
// the library's names and apply operators), the builder's methods are no
// skills of their own, nor are those of the parts the README's examples
// build for its arguments or of classes derived from what those derive
// from, each noted, while another class's are; and a name the library only
// imports is refused.
func TestBuilderChain(t *testing.T) {
	t.Parallel()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	code := `"""Build SQL text."""
import os


def lower(text):
    """Lower the name of a table."""
    return text.lower()


class Term:
    """Any part of a query."""


class Col(Term):
    def __init__(self, name):
        self.name = name

    def __eq__(self, other):
        return Cond("%s = %r" % (self.name, other))

    def renamed(self, name):
        return Col(name)


class Cond:
    def __init__(self, text):
        self.text = text


class Neg(Term):
    """The negation of a condition."""

    def __init__(self, cond):
        self.cond = cond

    def render(self, quote):
        """Render the negated condition as SQL text with the quote."""
        return "NOT " + quote + self.cond + quote


class Stats:
    """Statistics of a text."""

    def __init__(self, text):
        self.text = text

    def longest(self, n):
        """The n longest words of the text, longest first."""
        return sorted(self.text.split(), key=len, reverse=True)[:n]


class Builder:
    def __init__(self, quote):
        self.q, self.table, self.cols, self.conds = quote, "", [], []

    def pick(self, *cols):
        self.cols += cols
        return self

    def where(self, cond):
        self.conds.append(cond.text)
        return self

    def __str__(self):
        s = "SELECT %s FROM %s" % (",".join(self.q + c + self.q for c in self.cols), self.table)
        return s + "".join(" WHERE " + c for c in self.conds)


class Sql:
    """Queries, built a call at a time."""
    quote = '"'

    @classmethod
    def from_(cls, table):
        b = Builder(cls.quote)
        b.table = table
        return b


class TickSql(Sql):
    """Queries with backticks."""
    quote = "` + "`" + `"
`
	readme := "# sqlb\n\n```python\nfrom sqlb import Sql, Col\nq = Sql.from_(lower('T')).pick('a').where(Col('a') == 1)\n```\n"
	dir := writeRepo(t, map[string]string{"sqlb.py": code, "README.md": readme})
	sc, err := pythonScan(t.Context(), mustScan(t, dir), os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	skills, spec, notes := pyLibrarySkills(sc.API, []string{py, "wrap.py"})
	var ids []string
	for _, sk := range skills {
		ids = append(ids, sk.ID)
	}
	if !slices.Contains(ids, "sql-chain") || slices.ContainsFunc(ids, func(id string) bool {
		return strings.HasPrefix(id, "tick-sql") || id == "sql" || strings.HasPrefix(id, "col") || id == "lower" || strings.HasPrefix(id, "neg") || strings.HasPrefix(id, "builder")
	}) || !slices.Contains(ids, "stats-longest") {
		t.Fatalf("pyLibrarySkills() = %v, want sql-chain, stats-longest and no skill of Sql's own, its subclass's, the parts the README's chains take (Col, lower) their kin (Neg) or the builder the chain goes through", ids)
	}
	if !slices.ContainsFunc(notes, func(n string) bool {
		return strings.Contains(n, "sqlb.Neg") && strings.Contains(n, "left out: a part the chain builder takes as an argument, as the README's Col is")
	}) {
		t.Errorf("notes %q, want Neg left out as Col's kin", notes)
	}
	if !slices.ContainsFunc(notes, func(n string) bool {
		return strings.Contains(n, "sqlb.Builder") && strings.Contains(n, "the chain skill's calls")
	}) {
		t.Errorf("notes %q, want Builder left out as the chain's builder", notes)
	}
	src, err := pythonWrapper("sqlb", spec)
	if err != nil {
		t.Fatal(err)
	}
	wrapper := filepath.Join(t.TempDir(), "wrap.py")
	if err := os.WriteFile(wrapper, src, 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, error) {
		cmd := exec.CommandContext(t.Context(), py, append([]string{wrapper, "sql-chain"}, args...)...)
		cmd.Dir, cmd.Env = t.TempDir(), append(os.Environ(), "PYTHONPATH="+dir)
		out, err := cmd.CombinedOutput()
		return strings.TrimSpace(string(out)), err
	}
	calls := `--calls=[{"method": "from_", "args": ["boats"]}, {"method": "pick", "args": ["name", "len"]},` +
		` {"method": "where", "args": [{"op": "==", "args": [{"call": "Col", "args": ["name"]}, "Skarv"]}]}]`
	for _, tc := range []struct{ start, want string }{
		{"", `SELECT "name","len" FROM boats WHERE name = 'Skarv'`},
		{"--start=TickSql", "SELECT `name`,`len` FROM boats WHERE name = 'Skarv'"},
	} {
		args := []string{calls}
		if tc.start != "" {
			args = append(args, tc.start)
		}
		if out, err := run(args...); err != nil || out != tc.want {
			t.Errorf("sql-chain %s = %q, %v; want %q", tc.start, out, err, tc.want)
		}
	}
	// A value built by a call, then a method on it.
	then := `--calls=[{"method": "from_", "args": ["boats"]}, {"method": "pick", "args": ["len"]}, {"method": "where", "args": [` +
		`{"op": "==", "args": [{"call": "Col", "args": ["x"], "then": [{"method": "renamed", "args": ["name"]}]}, "Terna"]}]}]`
	if out, err := run(then); err != nil || out != `SELECT "len" FROM boats WHERE name = 'Terna'` {
		t.Errorf("sql-chain with then = %q, %v", out, err)
	}
	for _, bad := range []string{
		`--calls=[{"method": "from_", "args": [{"call": "Col", "args": ["x"], "then": [{"method": "__init__", "args": ["y"]}]}]}]`,
		`--calls=[{"method": "from_", "args": [{"call": "os.getcwd"}]}]`,
		`--calls=[{"method": "__class__"}]`,
		`--calls=[{"method": "from_", "args": [{"op": "**", "args": [2, 3]}]}]`,
	} {
		if out, err := run(bad); err == nil {
			t.Errorf("sql-chain %s = %q, want refused", bad, out)
		}
	}
}
