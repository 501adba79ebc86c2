package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSuiteVerify runs `agentnet suite verify` for real: the demo suite's
// references pass and its controls fail (exit 0); a suite whose control is
// its reference is unsound (exit 1); a suite that does not load is invalid
// (exit 2).
func TestSuiteVerify(t *testing.T) {
	if testing.Short() {
		t.Skip("deploys the deliveries as processes")
	}
	t.Parallel()
	exe := buildAgentnet(t)
	// The bench tests' commission, with its reference as its only control.
	unsound := filepath.Join(t.TempDir(), "unsound")
	if out, err := exec.Command("cp", "-r", "../../bench/testdata/commission", unsound).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	suite := filepath.Join(unsound, "suite.yaml")
	data, _ := os.ReadFile(suite)
	if err := os.WriteFile(suite, bytes.Replace(data, []byte("controls: [hollow]"), []byte("controls: [reference]"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		suite string
		code  int
		want  []string
	}{
		{"demo", "../../tasks/demo/suite.yaml", ExitOK, []string{
			"slug-agent       reference  commissions/slug/reference", "6/6 passed", "commissions/csv-stats/overfit",
			"every reference passes, every control fails"}},
		{"unsound", suite, ExitFailed, []string{"WRONG", "it controls nothing", "1 of 1 commission(s) unsound"}},
		{"invalid", "/nonexistent/suite.yaml", ExitInvalid, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var out, errb bytes.Buffer
			env := &Env{
				Args: []string{"suite", "verify", tc.suite}, Stdout: &out, Stderr: &errb, Ctx: t.Context(),
				Getenv: func(string) string { return "" }, Environ: os.Environ, Executable: exe,
			}
			if code := Main(env); code != tc.code {
				t.Fatalf("agentnet suite verify %s = exit %d, want %d\nstdout:\n%s\nstderr:\n%s", tc.suite, code, tc.code, out.String(), errb.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
		})
	}
}
