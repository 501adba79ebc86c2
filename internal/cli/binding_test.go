package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/a2a/proxy"
	"github.com/agentnet/agentnet/eval"
)

// TestDemoBindingGRPC runs part of the demo with --binding grpc: a single
// and a chain case pass over gRPC, results.json records the binding, and
// every message in the traces went over gRPC.
func TestDemoBindingGRPC(t *testing.T) {
	if testing.Short() {
		t.Skip("runs part of the demo")
	}
	t.Parallel()
	exe := buildAgentnet(t)
	dir := t.TempDir()
	runDir := filepath.Join(dir, "run")
	var out, errb bytes.Buffer
	env := &Env{
		Args:   []string{"demo", "--out", runDir, "--repos", "[ht][te]*", "--tasks", "*-top-words", "--binding", "grpc", "--json"},
		Stdout: &out, Stderr: &errb, Ctx: t.Context(),
		Getenv: func(k string) string { return map[string]string{"HOME": dir}[k] }, Environ: os.Environ, Executable: exe,
	}
	if code := Main(env); code != ExitOK {
		t.Fatalf("agentnet %v = exit %d\nstderr:\n%s", env.Args, code, errb.String())
	}
	var res eval.Results
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("stdout is not results.json: %v", err)
	}
	if res.Config == nil || res.Config.Binding != "grpc" {
		t.Errorf("results config = %+v, want binding grpc", res.Config)
	}
	chains, sends := 0, 0
	for _, tr := range res.Tasks {
		if !tr.Pass {
			t.Errorf("task %s over gRPC: %s %s", tr.ID, tr.Status, tr.Reason)
		}
		if strings.HasPrefix(tr.ID, "chain-") {
			chains++
		}
		f, err := os.Open(filepath.Join(runDir, "tasks", tr.ID, "trace.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		entries, err := proxy.ReadLog(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.Kind == proxy.KindRequest && e.RPCMethod != "" {
				sends++
				if e.Binding != proxy.BindingGRPC {
					t.Errorf("task %s: %s went over %q, want grpc", tr.ID, e.RPCMethod, e.Binding)
				}
			}
		}
	}
	if chains != 1 || sends < 3 {
		t.Errorf("ran %d chains and traced %d calls, want the chain and a call per step", chains, sends)
	}
}

// TestBindingFlag: an unknown binding is a usage error.
func TestBindingFlag(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	env := &Env{Args: []string{"demo", "--binding", "soap"}, Stdout: &out, Stderr: &errb, Ctx: t.Context(),
		Getenv: func(string) string { return "" }, Environ: os.Environ}
	if code := Main(env); code != ExitInvalid || !strings.Contains(errb.String(), `binding "soap"`) {
		t.Errorf("demo --binding soap = exit %d, %q; want a usage error naming it", code, errb.String())
	}
}
