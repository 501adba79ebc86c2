package static

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestPretendVersion installs a package whose build reads its version
// from git history the copy lacks, the way a versioning plugin does: the
// first install fails saying it could not determine the version, the
// second states one through the plugins' variables and succeeds.
func TestPretendVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a Python environment")
	}
	t.Parallel()
	dir := writeRepo(t, map[string]string{
		"setup.py": "import os, sys\nfrom setuptools import setup\n\n" +
			"version = os.environ.get(\"PBR_VERSION\")\n" +
			"if not version:\n    sys.exit(\"error: could not determine version: not a git checkout\")\n\n" +
			"setup(name=\"tally\", version=version, py_modules=[\"tally\"])\n",
		"tally.py": "\"\"\"Count things.\"\"\"\n\n\ndef count_words(text: str) -> int:\n    \"\"\"Count the words of a text.\"\"\"\n    return len(text.split())\n",
	})
	res, err := Generate(t.Context(), dir, Options{Name: "tally", Env: os.Environ(), ProbeTimeout: 20 * time.Second})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if res.Python == nil || !res.Python.Installed {
		t.Fatalf("the package was not installed (notes %q)", res.Notes)
	}
	if !strings.Contains(strings.Join(res.Notes, "\n"), "installed as version 0+unknown") {
		t.Errorf("notes = %q, want one saying the version was stated", res.Notes)
	}
}
