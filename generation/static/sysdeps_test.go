package static

import (
	"io"
	"os"
	"os/exec"
	"slices"
	"testing"
)

// TestSystemPackages records the packages apt-get installed and those of
// the Python environment, each once and sorted, and leaves out those this
// machine has not installed (which no image could be given).
func TestSystemPackages(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("dpkg-query"); err != nil {
		t.Skip("no dpkg-query: not a Debian system")
	}
	if err := exec.Command("dpkg-query", "-W", "jq").Run(); err != nil {
		t.Skip("jq is not installed: apt-get install jq")
	}
	opts := Options{Env: os.Environ(), apt: &aptLog{}}
	if os.Geteuid() == 0 {
		// Installed already: apt-get has nothing to do, and says so.
		if rep := opts.apt.install(t.Context(), []string{"jq"}, opts.Env, io.Discard); !slices.Contains(rep.Installed, "jq") {
			t.Fatalf("install(jq) = %+v, want jq installed", rep)
		}
	} else {
		opts.apt.uses([]string{"jq"})
	}
	py := &PythonEnv{Debian: []string{"python3-agentnet-absent-module", "jq", "--option"}}
	got := systemPackages(t.Context(), opts, py)
	if !slices.Equal(got, []string{"jq"}) {
		t.Errorf("systemPackages() = %q, want [jq]", got)
	}
	if got := systemPackages(t.Context(), Options{Env: os.Environ()}, nil); got != nil {
		t.Errorf("systemPackages(nothing) = %q, want none", got)
	}
}
