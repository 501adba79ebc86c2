package host_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/agentnet/agentnet/a2a/host"
)

// Each task runs in a directory of its own, empty when it starts, under the
// work root; the directory is gone once the task has ended, whatever the
// skill left in it, and nothing of a task's is left after Close.
func TestWorkDirPerTask(t *testing.T) {
	root := t.TempDir()
	agent := `version: 1
name: wd
description: Shows its work directory.
skills:
  - id: wd
    name: Work directory
    description: Print the work directory and what it holds, then leave a file and a tree in it.
    params: {type: object, properties: {text: {type: string}}}
    outputs: ["*.out"]
    run: [sh, -c, "pwd; ls -A; echo kept > r.out; echo left > scratch.log; mkdir -p t/u; echo x > t/u/f"]
`
	s := serve(t, agent, nil, host.WithWorkRoot(root))
	c := a2aClient(t, s.URL, "1.0")
	seen := map[string]bool{}
	for range 5 {
		task := send(t, c, textMessage("show the work directory"))
		if task.Status.State != a2a.TaskStateCompleted {
			t.Fatalf("state = %s (%s)", task.Status.State, statusText(task))
		}
		lines := strings.Split(strings.TrimSpace(task.Artifacts[0].Parts[0].Text()), "\n")
		dir := lines[0]
		if len(lines) != 1 || filepath.Dir(dir) != root || seen[dir] {
			t.Fatalf("skill printed %q, want only a new directory under %s (an empty one)", lines, root)
		}
		seen[dir] = true
	}
	host.WorkIdle(s.Host)
	for dir := range seen {
		if _, err := os.Lstat(dir); !os.IsNotExist(err) {
			t.Errorf("work directory %s after its task ended: %v, want it removed", dir, err)
		}
	}
	s.Close()
	es, _ := os.ReadDir(root)
	for _, e := range es {
		if !strings.HasPrefix(e.Name(), ".") {
			t.Errorf("%s left in the work root after Close", e.Name())
		}
	}
}

// With work directories kept, each task's is named after the task and
// keeps what the skill left.
func TestWorkDirKept(t *testing.T) {
	root := t.TempDir()
	agent := `version: 1
name: wd
description: Leaves a file.
skills:
  - id: wd
    name: Leave
    description: Leave a file in the work directory.
    params: {type: object, properties: {text: {type: string}}}
    run: [sh, -c, "echo left > scratch.log; pwd"]
`
	s := serve(t, agent, nil, host.WithWorkRoot(root), host.WithKeepWorkDirs(true))
	task := send(t, a2aClient(t, s.URL, "1.0"), textMessage("leave a file"))
	if task.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("state = %s (%s)", task.Status.State, statusText(task))
	}
	dir := filepath.Join(root, string(task.ID))
	if got := strings.TrimSpace(artifactText(task)); got != dir {
		t.Errorf("work directory = %q, want %s", got, dir)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "scratch.log")); err != nil || string(b) != "left\n" {
		t.Errorf("scratch.log = %q, %v; want it kept", b, err)
	}
}
