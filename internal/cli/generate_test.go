package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runGenerate(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &Env{Args: append([]string{"generate"}, args...), Getenv: func(string) string { return "" }, Environ: os.Environ,
		Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Ctx: t.Context()}
	return Main(env), out.String(), errb.String()
}

func TestGenerateCommand(t *testing.T) {
	t.Parallel()
	demo := "../../tasks/demo/repos/textstats"
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	os.MkdirAll(empty, 0o755)
	taken := filepath.Join(dir, "taken")
	os.MkdirAll(taken, 0o755)
	os.WriteFile(filepath.Join(taken, "x"), []byte("x"), 0o644)
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"generates", []string{demo, "--out", filepath.Join(dir, "ok")}, 0, "skills: top, count, readability", ""},
		{"json", []string{demo, "--out", filepath.Join(dir, "js"), "--json"}, 0, `"chosen": 1`, ""},
		{"no attempt passes", []string{empty, "--out", filepath.Join(dir, "e")}, 1, "repository is empty", ""},
		{"missing --out", []string{demo}, 2, "", "--out DIR is required"},
		{"unknown generator", []string{demo, "--out", filepath.Join(dir, "u"), "--generator", "magic"}, 2, "", `unknown generator "magic"`},
		{"llm without endpoint", []string{demo, "--out", filepath.Join(dir, "l"), "--generator", "llm"}, 2, "", "AGENTNET_LLM_BASE_URL"},
		{"command without builder", []string{demo, "--out", filepath.Join(dir, "c"), "--generator", "command"}, 2, "", "--builder-cmd"},
		{"zero attempts", []string{demo, "--out", filepath.Join(dir, "z"), "--attempts", "0"}, 2, "", "at least 1"},
		{"no such repo", []string{filepath.Join(dir, "nope"), "--out", filepath.Join(dir, "n")}, 2, "", "no such file"},
		{"out not empty", []string{demo, "--out", taken}, 2, "", "not empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runGenerate(t, tt.args...)
			if code != tt.code || !strings.Contains(stdout, tt.stdout) || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("agentnet generate %v = %d\nstdout: %s\nstderr: %s\nwant %d, stdout with %q, stderr with %q", tt.args, code, stdout, stderr, tt.code, tt.stdout, tt.stderr)
			}
			if tt.name == "json" {
				var rep map[string]any
				if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
					t.Errorf("--json output is not JSON: %v", err)
				}
			}
		})
	}
}
