package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/eval"
	"github.com/agentnet/agentnet/tasks"
)

// writeComparedRun writes a run directory whose single tasks pass pass of n.
func writeComparedRun(t *testing.T, cfg eval.RunConfig, pass, n int) string {
	t.Helper()
	r := &eval.Results{Version: eval.ResultsVersion, Suite: "s"}
	for i := 0; i < n; i++ {
		st := eval.StatusFailed
		if i < pass {
			st = eval.StatusPassed
		}
		r.Tasks = append(r.Tasks, eval.TaskResult{ID: "t" + string(rune('a'+i)), Type: tasks.Single, Tier: tasks.Easy, Status: st, Pass: i < pass})
	}
	eval.Summarize(r, 1)
	dir := t.TempDir()
	for name, v := range map[string]any{"results.json": r, "config.json": cfg} {
		b, _ := json.Marshal(v)
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestCompareCmd(t *testing.T) {
	t.Parallel()
	a := writeComparedRun(t, eval.RunConfig{Generator: "static", Router: "bm25", Judge: "rules"}, 2, 4)
	b := writeComparedRun(t, eval.RunConfig{Generator: "static", Router: "llm", Judge: "rules"}, 4, 4)
	htmlPath := filepath.Join(t.TempDir(), "cmp.html")
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"text", []string{"compare", a, b}, ExitOK, "static × llm × rules", ""},
		{"diff", []string{"compare", a, b}, ExitOK, "+50.0 pp", ""},
		{"ci", []string{"compare", a, b}, ExitOK, "50.0% [15.0–85.0]", ""},
		{"json", []string{"compare", a, b, "--json"}, ExitOK, `"ci95"`, ""},
		{"html", []string{"compare", a, b, "--html", htmlPath}, ExitOK, "wrote " + htmlPath, ""},
		{"one run", []string{"compare", a}, ExitInvalid, "", "agentnet compare: want at least 2 argument(s)"},
		{"no run", []string{"compare", a, t.TempDir()}, ExitInvalid, "", "holds no finished run"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := run(t, tc.args...)
			if code != tc.code || !strings.Contains(stdout, tc.stdout) || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("agentnet %v = exit %d, stdout %q, stderr %q; want exit %d, %q, %q", tc.args, code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
			}
			if strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("agentnet %v printed more than one error line: %q", tc.args, stderr)
			}
		})
	}
}
