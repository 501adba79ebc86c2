package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentnet/agentnet/eval"
	"github.com/agentnet/agentnet/tasks"
)

// TestDemoKilledAfterRegistrationResumesLikeUninterrupted SIGKILLs a real
// `agentnet demo` once its agents are registered and its first task is
// under way, resumes it, and compares the resumed run's task results with
// an uninterrupted demo's: the same statuses, the same routing, step by
// step. The killed run's registry records (agents on ports nothing serves
// any more) must not be routed to.
func TestDemoKilledAfterRegistrationResumesLikeUninterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the demo twice and a half")
	}
	exe := buildAgentnet(t)
	home := t.TempDir()
	demo := func(args ...string) (int, string) {
		var out, errb bytes.Buffer
		env := &Env{Args: append([]string{"demo", "--parallel", "1"}, args...), Stdout: &out, Stderr: &errb, Ctx: t.Context(),
			Getenv: func(k string) string { return map[string]string{"AGENTNET_HOME": home}[k] }, Environ: os.Environ, Executable: exe}
		code := Main(env)
		return code, out.String() + errb.String()
	}

	// The uninterrupted run, alongside the one that is killed.
	whole := filepath.Join(t.TempDir(), "whole")
	wholeDone := make(chan string, 1)
	go func() {
		code, out := demo("--out", whole)
		if code != ExitOK {
			wholeDone <- fmt.Sprintf("uninterrupted demo = exit %d: %s", code, out)
			return
		}
		wholeDone <- ""
	}()

	killed := filepath.Join(t.TempDir(), "killed")
	cmd := exec.CommandContext(t.Context(), exe, "demo", "--out", killed, "--parallel", "1")
	cmd.Env = append(os.Environ(), "AGENTNET_HOME="+home)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// A task directory appears once the fleet is deployed and registered
	// and the first task runs: kill the demo itself (its agents die with it).
	// However long a busy machine takes to get there; the demo ending first
	// is told apart below.
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	for running := true; running; {
		if dirs, _ := filepath.Glob(filepath.Join(killed, "tasks", "*")); len(dirs) > 0 {
			break
		}
		select {
		case <-exited:
			running = false
		case <-t.Context().Done():
			running = false
		case <-time.After(10 * time.Millisecond):
		}
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	<-exited
	if _, err := os.Stat(filepath.Join(killed, "registry.db")); err != nil {
		t.Fatalf("the demo was killed before it registered its agents: %v", err)
	}
	if _, err := os.Stat(filepath.Join(killed, "results.json")); err == nil {
		t.Skip("the demo finished before it could be killed")
	}

	if code, out := demo("--resume", killed); code != ExitOK {
		t.Fatalf("demo --resume = exit %d: %s", code, out)
	}
	if msg := <-wholeDone; msg != "" {
		t.Fatal(msg)
	}
	got, want := taskOutcomes(t, killed), taskOutcomes(t, whole)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resumed run's tasks differ from an uninterrupted run's (-uninterrupted +resumed):\n%s", diff)
	}
}

// taskOutcomes reads a run's results: per single and chain task, its
// status and pass, and per chain step the repo whose agent got it and the
// outcome.
func taskOutcomes(t *testing.T, run string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(run, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res eval.Results
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, tr := range res.Tasks {
		if tr.Type != tasks.Single && tr.Type != tasks.Chain {
			continue
		}
		var steps []string
		for _, st := range tr.Steps {
			steps = append(steps, fmt.Sprintf("%d:%s→%s %s", st.Index, st.Expected, st.Routed, st.Outcome))
		}
		sort.Strings(steps)
		orch := "-"
		if tr.OrchOK != nil {
			orch = fmt.Sprint(*tr.OrchOK)
		}
		out[tr.ID] = fmt.Sprintf("%s pass=%v orch=%s [%s]", tr.Status, tr.Pass, orch, strings.Join(steps, "; "))
	}
	if len(out) == 0 {
		t.Fatalf("%s holds no single or chain task", run)
	}
	return out
}
