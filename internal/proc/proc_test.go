package proc

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentnet/agentnet/internal/proc/proctest"
)

// TestRunKillsTheGroup runs a program that leaves a grandchild behind and
// outlives its timeout: Run must report the timeout and leave no process of
// the group running.
func TestRunKillsTheGroup(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "pid")
	script := "sleep 30 & echo $! > " + pidFile + "; echo started; sleep 30"
	res := Run(t.Context(), Spec{Argv: []string{"sh", "-c", script}, Env: os.Environ(), Timeout: 500 * time.Millisecond})
	if !res.TimedOut || res.Err == nil || !strings.Contains(res.Err.Error(), "timed out") {
		t.Fatalf("Run = %+v, want a timeout", res)
	}
	if !strings.Contains(string(res.Stdout), "started") {
		t.Errorf("stdout = %q, want what was printed before the kill", res.Stdout)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	if !proctest.Gone(pid, 5*time.Second) {
		t.Errorf("grandchild %d survived the group kill", pid)
	}
}

func TestRunBoundsOutputAndReportsExit(t *testing.T) {
	t.Parallel()
	res := Run(t.Context(), Spec{Argv: []string{"sh", "-c", "head -c 100000 /dev/zero; echo oops >&2; exit 3"}, Env: os.Environ(), MaxOutput: 1000, Timeout: 10 * time.Second})
	if res.ExitCode != 3 || len(res.Stdout) > 1000 || res.Err == nil || !strings.Contains(res.Err.Error(), "oops") {
		t.Errorf("Run = exit %d, %d bytes of stdout, err %v", res.ExitCode, len(res.Stdout), res.Err)
	}
	if res := Run(t.Context(), Spec{Argv: []string{"/nonexistent/program"}}); res.Err == nil || !strings.Contains(res.Err.Error(), "start") {
		t.Errorf("a missing program gave %v", res.Err)
	}
}

// TestRunNamesTheCallersDeadline runs a program under a caller's deadline
// shorter than the spec's timeout: the error names the limit that killed it.
func TestRunNamesTheCallersDeadline(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	res := Run(ctx, Spec{Argv: []string{"sleep", "30"}, Env: os.Environ(), Timeout: 10 * time.Minute})
	if !res.TimedOut || res.Err == nil {
		t.Fatalf("Run = %+v, want a timeout", res)
	}
	if msg := res.Err.Error(); strings.Contains(msg, "10m0s") || !strings.Contains(msg, "timed out after 2s") {
		t.Errorf("Run(deadline 2s, timeout 10m).Err = %q, want the caller's limit", msg)
	}
}
