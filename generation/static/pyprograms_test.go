package static

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPythonPrograms compiles every Python program the generator embeds
// and writes into bundles, as the interpreter will read it: a syntax error
// in one would otherwise show only when a repository's setup runs.
func TestPythonPrograms(t *testing.T) {
	t.Parallel()
	if strings.Contains(envSource(), probeMarker) || !strings.Contains(envSource(), probeSource) {
		t.Fatal("the environment program does not carry the probe's text in place of its marker")
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on this machine")
	}
	dir := t.TempDir()
	for name, src := range map[string]string{
		"pyscan.py": pyscanSource, "pywrap.py": pywrapRuntime, "pyprobe.py": probeSource,
		"pysetup.py": envSource(), "pylaunch.py": launcherSource,
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.CommandContext(t.Context(), py, "-m", "py_compile", path).CombinedOutput(); err != nil {
			t.Errorf("%s does not compile: %v\n%s", name, err, out)
		}
	}
}
