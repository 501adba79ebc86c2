package static

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// TestPythonScanDeepNesting scans a repository one of whose modules nests
// an expression deeper than the readers' recursion (a sum of 900 tuples of
// options; 3000 is deeper than Python's own parser goes): the scan still
// reports the entry point, read as a module with no command line, instead
// of failing for the whole repository.
func TestPythonScanDeepNesting(t *testing.T) {
	if testing.Short() {
		t.Skip("runs python3; skipped under -short")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	t.Parallel()
	for _, n := range []int{900, 3000} {
		terms := make([]string, n)
		for i := range terms {
			terms[i] = fmt.Sprintf("(click.option(\"--a%d\"),)", i)
		}
		sc := scanPython(t, map[string]string{
			"pyproject.toml":   "[project]\nname = \"deep\"\nversion = \"1\"\n\n[project.scripts]\ndeep = \"deep.cli:main\"\n",
			"deep/__init__.py": "",
			"deep/cli.py": "import click\n\nopts = " + strings.Join(terms, " + ") +
				"\n\n\n@click.command()\n@opts\ndef main():\n    pass\n",
		})
		if len(sc.Entries) != 1 || sc.Entries[0].Name != "deep" {
			t.Errorf("%d terms: entries = %+v, want the one console script", n, sc.Entries)
		}
	}
}
