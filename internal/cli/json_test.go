package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startReady runs a long-lived command with --json and returns its ready
// line decoded; the command is stopped when the test ends.
func startReady(t *testing.T, args ...string) map[string]any {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	var out, errb lockedBuffer
	env := &Env{Args: args, Stdout: &out, Stderr: &errb, Ctx: ctx, Getenv: func(string) string { return "" }, Environ: os.Environ}
	code := make(chan int, 1)
	go func() { code <- Main(env) }()
	t.Cleanup(func() { cancel(); <-code })
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
		select {
		case c := <-code:
			code <- c
			t.Fatalf("%v exited %d early (stderr %q)", args, c, errb.String())
		case <-time.After(20 * time.Millisecond):
		}
		if line, ok := strings.CutSuffix(out.String(), "\n"); ok {
			if strings.Contains(line, "\n") {
				t.Fatalf("%v printed more than one ready line: %q", args, out.String())
			}
			var v map[string]any
			if err := json.Unmarshal([]byte(line), &v); err != nil {
				t.Fatalf("%v ready line %q is not JSON: %v", args, line, err)
			}
			return v
		}
	}
	t.Fatalf("%v printed no ready line (stderr %q)", args, errb.String())
	return nil
}

func TestReadyLinesJSON(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "agent.yaml"), shouterYAML)
	got := startReady(t, "serve", dir, "--json")
	url, _ := got["url"].(string)
	if !strings.HasPrefix(url, "http://127.0.0.1:") || got["agent"] != "shouter" || got["listen"] == "" {
		t.Fatalf("serve --json ready line = %v", got)
	}
	if skills, _ := got["skills"].([]any); len(skills) == 0 {
		t.Errorf("serve --json ready line lists no skills: %v", got)
	}
	if resp, err := http.Get(strings.TrimSuffix(url, "/") + "/.well-known/agent-card.json"); err != nil || resp.StatusCode != 200 {
		t.Errorf("the URL of the ready line does not serve the card: %v", err)
	} else {
		resp.Body.Close()
	}

	reg := startReady(t, "registry", "serve", "--json", "--addr", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "r.db"))
	regURL, _ := reg["url"].(string)
	if !strings.HasPrefix(regURL, "http://127.0.0.1:") || reg["store"] != "sqlite" {
		t.Fatalf("registry serve --json ready line = %v", reg)
	}
	if code, out, errb := run(t, "registry", "list", "--registry", regURL, "--json"); code != ExitOK || strings.TrimSpace(out) != "[]" {
		t.Errorf("registry list against the ready line's URL = %d, %q, %q", code, out, errb)
	}
}

func TestSuiteValidateJSONProblems(t *testing.T) {
	t.Parallel()
	bad := filepath.Join(t.TempDir(), "suite.yaml")
	writeFile(t, bad, "version: 1\nname: bad\nrepos:\n  - id: Bad_Id\n    source: nowhere\n    skills: [{id: x, description: y}]\n")
	for _, tc := range []struct {
		name  string
		path  string
		field string
		line  float64
	}{
		{"invalid", bad, "repos[0].id", 4},
		{"missing", filepath.Join(t.TempDir(), "none.yaml"), "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, out, errb := run(t, "suite", "validate", "--json", tc.path)
			if code != ExitInvalid || errb != "" {
				t.Errorf("suite validate --json = exit %d, stderr %q; want 2 and nothing on stderr", code, errb)
			}
			var res struct {
				Valid    bool             `json:"valid"`
				Problems []map[string]any `json:"problems"`
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil || res.Valid || len(res.Problems) == 0 {
				t.Fatalf("suite validate --json printed %q (%v), want problems", out, err)
			}
			found := false
			for _, p := range res.Problems {
				if p["file"] != tc.path || p["message"] == "" {
					t.Errorf("problem %v lacks its file or message", p)
				}
				if tc.field == "" || (p["field"] == tc.field && p["line"] == tc.line && p["column"] != nil) {
					found = true
				}
			}
			if !found {
				t.Errorf("problems %v lack field %q at line %v", res.Problems, tc.field, tc.line)
			}
		})
	}
}
