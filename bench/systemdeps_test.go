package bench

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/eval"
)

// TestInstallSystemDeps generates a suite's Python repo with the option on:
// the static generator asks apt for the Debian package of the module the
// repo imports and no interpreter has, and the bundle's environment record
// says what apt answered. It needs root and apt-get; elsewhere it skips.
func TestInstallSystemDeps(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("apt-get needs root")
	}
	if _, err := exec.LookPath("apt-get"); err != nil {
		t.Skip("no apt-get on this machine")
	}
	r := newSuiteRun(t, "testdata/systemdeps/suite.yaml", Options{InstallSystemDeps: true})
	r.matcher = eval.RulesMatcher{Threshold: eval.DefaultMatchThreshold}
	res, err := r.generate(t.Context(), r.opts.Suite.Repos[0])
	if err != nil {
		t.Fatal(err)
	}
	if !res.Generated {
		t.Fatalf("generate(probe) = %+v, want an agent", res.Attempts)
	}
	data, err := os.ReadFile(filepath.Join(r.opts.Out, res.Bundle, ".agentnet", "environment.json"))
	if err != nil {
		t.Fatal(err)
	}
	var env struct {
		Apt *struct {
			Unknown []string `json:"unknown"`
		} `json:"apt"`
	}
	if err := json.Unmarshal(data, &env); err != nil {
		t.Fatal(err)
	}
	if env.Apt == nil || !slices.Contains(env.Apt.Unknown, "python3-agentnet-absent-module") {
		t.Errorf("environment.json = %s, want apt's answer for python3-agentnet-absent-module", strings.TrimSpace(string(data)))
	}
}
