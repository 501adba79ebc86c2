package host_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/agentnet/agentnet/a2a/host"
	"github.com/agentnet/agentnet/bundle"
)

// TestBundleVar serves a bundle whose wrapper lives beside agent.yaml and
// whose repo lies elsewhere: {{bundle}} in check and run names the bundle
// directory, {{repo}} the repo's.
func TestBundleVar(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	dir := filepath.Join(root, "bundles", "greet")
	if err := os.MkdirAll(filepath.Join(root, "repo"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "repo", "greeting.txt"), []byte("Hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	wrapper := "import os, sys\n" +
		"if sys.argv[1] == '--check':\n    sys.exit(0 if os.path.isdir(sys.argv[2]) else 'no repo at ' + sys.argv[2])\n" +
		"here = os.path.basename(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))\n" +
		"print(open(os.path.join(sys.argv[1], 'greeting.txt')).read(), sys.argv[2], 'from', here)\n"
	yaml := `version: 1
name: greet
description: Greets through a wrapper kept in the bundle.
repo: {source: ../../repo}
check: [[python3, "{{bundle}}/wrapper/greet.py", --check, "{{repo}}"]]
skills:
  - id: greet
    name: Greet
    description: Greet someone.
    params: {type: object, properties: {name: {type: string}}, required: [name]}
    run: [python3, "{{bundle}}/wrapper/greet.py", "{{repo}}", "{{name}}"]
`
	s := serveFiles(t, dir, map[string]string{bundle.FileName: yaml, "wrapper/greet.py": wrapper})

	b, err := bundle.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	if err := host.Prepare(t.Context(), b, false, os.Environ(), &log); err != nil {
		t.Fatalf("Prepare() error = %v\n%s", err, log.String())
	}
	if want := filepath.Join(dir, "wrapper", "greet.py"); !strings.Contains(log.String(), want) {
		t.Errorf("Prepare() ran %q, want the check to name %s", log.String(), want)
	}

	c := a2aClient(t, s.URL, "1.0")
	req := textMessage("Ada")
	req.Message.SetMeta("skill", "greet")
	task := send(t, c, req)
	if task.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("task state = %s (%s), want completed", task.Status.State, statusText(task))
	}
	if got, want := artifactText(task), "Hello Ada from greet\n"; got != want {
		t.Errorf("output = %q, want %q", got, want)
	}
}
