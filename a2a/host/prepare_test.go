package host

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentnet/agentnet/bundle"
)

// A check that never exits (a server started by its --help, say) fails the
// bundle at the check timeout, its process group killed, instead of
// holding the generation gate forever.
func TestPrepareCheckTimeout(t *testing.T) {
	old := checkTimeout
	checkTimeout = 500 * time.Millisecond
	defer func() { checkTimeout = old }()

	dir := t.TempDir()
	agent := `version: 1
name: hangs
description: A bundle whose check never exits.
check: [[sh, -c, "sleep 600 & wait"]]
skills:
  - id: noop
    name: Noop
    description: Does nothing.
    run: ["true"]
`
	if err := os.WriteFile(filepath.Join(dir, bundle.FileName), []byte(agent), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := bundle.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	err = Prepare(t.Context(), b, true, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "check of bundle hangs") || !strings.Contains(err.Error(), "timed out after 500ms") {
		t.Fatalf("Prepare() error = %v, want the check timed out", err)
	}
}
