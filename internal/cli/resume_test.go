package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/agentnet/agentnet/eval"
)

// TestDemoKilledAndResumed kills a real `agentnet demo` with SIGKILL while
// it runs tasks, then resumes the run: the trials recorded before the kill
// are kept as they were, the rest are run, and the results are complete.
func TestDemoKilledAndResumed(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the demo twice")
	}
	exe := buildAgentnet(t)
	home := t.TempDir()
	run := filepath.Join(t.TempDir(), "run")
	cmd := exec.CommandContext(t.Context(), exe, "demo", "--out", run, "--parallel", "1")
	cmd.Env = append(os.Environ(), "AGENTNET_HOME="+home)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait for a few task results (or for the demo to end on its own: no
	// wall-clock deadline, which a loaded machine would miss), then kill the
	// whole process group hard.
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var before []string
	alive := true
	for alive {
		before, _ = filepath.Glob(filepath.Join(run, "tasks", "*", "result.json"))
		if len(before) >= 3 {
			break
		}
		select {
		case <-exited:
			alive = false
		case <-time.After(20 * time.Millisecond):
		}
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if alive {
		<-exited
	}
	if len(before) < 3 {
		if _, err := os.Stat(filepath.Join(run, "results.json")); err != nil {
			t.Fatalf("the demo ended having recorded %d task results and no results.json", len(before))
		}
	}
	before, _ = filepath.Glob(filepath.Join(run, "tasks", "*", "result.json"))
	if _, err := os.Stat(filepath.Join(run, "results.json")); err == nil {
		t.Skip("the demo finished before it could be killed")
	}
	kept := map[string][]byte{}
	for _, f := range before {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		kept[f] = b
	}

	var out, errb bytes.Buffer
	env := &Env{Args: []string{"demo", "--resume", run, "--quiet"}, Stdout: &out, Stderr: &errb, Ctx: t.Context(),
		Getenv: func(k string) string { return map[string]string{"AGENTNET_HOME": home}[k] }, Environ: os.Environ, Executable: exe}
	if code := Main(env); code != ExitOK {
		t.Fatalf("demo --resume = exit %d: %s", code, errb.String())
	}
	for f, b := range kept {
		now, err := os.ReadFile(f)
		if err != nil || !bytes.Equal(now, b) {
			t.Errorf("%s changed on resume: a finished trial was run again", f)
		}
	}
	var res eval.Results
	data, err := os.ReadFile(filepath.Join(run, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Tasks) <= len(kept) {
		t.Errorf("resumed run holds %d tasks, no more than the %d kept", len(res.Tasks), len(kept))
	}
	if errb.Len() > 0 {
		t.Errorf("demo --resume --quiet wrote to stderr:\n%s", errb.String())
	}
	if p := res.Provenance; p == nil || len(p.Resumed) != 1 || p.Resumed[0].SuiteDigest != p.SuiteDigest {
		t.Errorf("resumed run provenance = %+v, want one resumption on the same suite files", res.Provenance)
	}

	// A changed configuration is refused with a clear message and exit 2.
	env = &Env{Args: []string{"demo", "--resume", run, "--router", "llm"}, Stdout: &out, Stderr: &errb, Ctx: t.Context(),
		Getenv: func(k string) string {
			return map[string]string{"AGENTNET_HOME": home, "AGENTNET_LLM_BASE_URL": "http://127.0.0.1:9", "AGENTNET_LLM_MODEL": "m"}[k]
		}, Environ: os.Environ, Executable: exe}
	errb.Reset()
	if code := Main(env); code != ExitInvalid || !bytes.Contains(errb.Bytes(), []byte("router: bm25 → llm")) {
		t.Errorf("resume with another router = exit %d, %q", code, errb.String())
	}
}
