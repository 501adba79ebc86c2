package answerkey

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/tasks"
)

func TestLoadRejects(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct{ yaml, want string }{
		"unknown field": {"repos:\n  a: {prefix: [x], colour: red}\n", "colour"},
		"no prefix":     {"repos:\n  a: {debian: [python3-lxml]}\n", "repo a has no prefix"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "answers.yaml")
			if err := os.WriteFile(path, []byte(tc.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := Load(path); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Load(%q) = %v, want an error naming %q", tc.yaml, err, tc.want)
			}
		})
	}
}

func TestSteps(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "answers.yaml")
	data := "repos:\n  a: {prefix: [x]}\ntasks:\n  one: [--flag, v]\n  two: [[a], [b]]\n"
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	k, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	single := &tasks.Case{ID: "one", Type: tasks.Single}
	if got, err := k.Steps(single); err != nil || len(got) != 1 || strings.Join(got[0], " ") != "--flag v" {
		t.Errorf("Steps(single) = %v, %v, want [[--flag v]]", got, err)
	}
	chain := &tasks.Case{ID: "two", Type: tasks.Chain, Steps: []tasks.Step{{Repo: "a"}, {Repo: "a"}, {Repo: "a"}}}
	if _, err := k.Steps(chain); err == nil || !strings.Contains(err.Error(), "has 2 steps, the chain 3") {
		t.Errorf("Steps(3-step chain, 2 answers) = %v, want a step-count error", err)
	}
	if _, err := k.Steps(&tasks.Case{ID: "three", Type: tasks.Single}); err == nil {
		t.Error("Steps(a case without an answer) = nil error")
	}
}

func TestExpand(t *testing.T) {
	t.Parallel()
	got := Expand([]string{"{{bin}}/tool", "--root={{repo}}", "plain"}, "/r", "/b")
	if want := "/b/tool --root=/r plain"; strings.Join(got, " ") != want {
		t.Errorf("Expand = %q, want %q", got, want)
	}
}
