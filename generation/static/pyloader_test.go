package static

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLoaderClass generates the wrapper of a library whose object is made
// empty and filled by a loader that returns it, and runs it: the export
// skill takes the loader's input (read from a file, as its documentation
// says it may be file-like), the loader is no skill of its own, and a
// builder (several methods that return self) keeps its methods as they
// were.
func TestLoaderClass(t *testing.T) {
	t.Parallel()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	code := `"""Tables of rows."""
import csv
import io
import json


class Table:
    """A table of rows."""

    def __init__(self, *rows, **options):
        self.rows = list(rows)

    def load(self, in_stream, format=None):
        """Import CSV into the table.
        in_stream can be a file-like object or a string."""
        if not isinstance(in_stream, str):
            in_stream = in_stream.read()
        self.rows = list(csv.reader(io.StringIO(in_stream)))
        return self

    def export(self, format):
        """Export the table's rows as text in the format given."""
        if format == "json":
            return json.dumps(self.rows)
        return "\n".join(",".join(r) for r in self.rows)


class Steps:
    """Steps, added one at a time."""

    def __init__(self):
        self.steps = []

    def add(self, step):
        """Add a step."""
        self.steps.append(step)
        return self

    def skip(self, step):
        """Skip a step."""
        self.steps.remove(step)
        return self

    def plan(self, sep):
        """The steps joined by a separator."""
        return sep.join(self.steps)
`
	dir := writeRepo(t, map[string]string{"tabl.py": code, "setup.py": "from setuptools import setup\nsetup(name='tabl', py_modules=['tabl'])\n"})
	sc, err := pythonScan(t.Context(), mustScan(t, dir), os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	skills, spec, _ := pyLibrarySkills(sc.API, []string{py, "wrap.py"})
	var ids []string
	for _, sk := range skills {
		ids = append(ids, sk.ID)
	}
	c, ok := spec["table-export"]
	if !ok || c.Fill != "load" || len(c.CtorParams) == 0 || c.CtorParams[0].Name != "in_stream" || c.CtorParams[0].Conv != "stream" {
		t.Fatalf("skills %v, table-export %+v; want it filled by load from in_stream, a stream", ids, c)
	}
	if slices.Contains(ids, "table-load") {
		t.Errorf("skills %v: the loader is a skill of its own", ids)
	}
	if s := spec["steps-plan"]; s.Fill != "" {
		t.Errorf("steps-plan %+v: a builder's step taken as its loader", s)
	}
	src, err := pythonWrapper("tabl", spec)
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	wrapper := filepath.Join(work, "wrap.py")
	if err := os.WriteFile(wrapper, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "t.csv"), []byte("a,b\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), py, wrapper, "table-export", "--in_stream=t.csv", "--format=json")
	cmd.Dir, cmd.Env = work, append(os.Environ(), "PYTHONPATH="+dir)
	out, err := cmd.CombinedOutput()
	if got := strings.TrimSpace(string(out)); err != nil || got != `[["a", "b"], ["1", "2"]]` {
		t.Errorf("table-export = %q, %v; want the loaded rows as JSON", got, err)
	}
}

// TestPlainRST: a docstring's roles and literals become plain words in
// a skill's description.
func TestPlainRST(t *testing.T) {
	for in, want := range map[string]string{
		"Export :class:`Dataset` object to `format`.": "Export Dataset object to format.",
		"See :meth:`~tabl.Table.load` and ``rows``.":  "See load and rows.",
		"Calls :func:`reader <csv.reader>` on it.":    "Calls reader on it.",
		"No markup here.": "No markup here.",
		"Odd `one.":       "Odd `one.",
	} {
		if got := plainRST(in); got != want {
			t.Errorf("plainRST(%q) = %q, want %q", in, got, want)
		}
	}
}
