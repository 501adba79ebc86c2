package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentnet/agentnet/eval"
	"github.com/agentnet/agentnet/tasks"
)

// TestDemo runs `agentnet demo` for real — the embedded suite, the static
// generator, agents as child processes, the embedded registry, BM25 routing,
// the rules judge — and checks the run directory: results.json matches its
// schema, every task of the suite has a recorded outcome, the report and
// the traces are there, and no agent process is left.
func TestDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole demo")
	}
	exe := buildAgentnet(t)
	runDir := filepath.Join(t.TempDir(), "run")
	var out, errb bytes.Buffer
	env := &Env{
		Args: []string{"demo", "--out", runDir}, Stdout: &out, Stderr: &errb, Ctx: t.Context(),
		Getenv: func(k string) string { return map[string]string{"HOME": t.TempDir()}[k] }, Environ: os.Environ,
		Executable: exe,
	}
	if code := Main(env); code != ExitOK {
		t.Fatalf("agentnet demo = exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
	}
	for _, want := range []string{"Table 1", "Table 4", "Run directory: " + runDir} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("demo output lacks %q:\n%s", want, out.String())
		}
	}

	data, err := os.ReadFile(filepath.Join(runDir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	var schemaDoc any
	if err := json.Unmarshal(eval.ResultsSchemaJSON(), &schemaDoc); err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource("results.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("results.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("results.json does not match its schema: %v", err)
	}

	var res eval.Results
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	suite, err := tasks.Load(filepath.Join(runDir, "suite", tasks.DemoSuiteFile))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, tr := range res.Tasks {
		got[tr.ID] = tr.Status
	}
	known := map[string]bool{eval.StatusPassed: true, eval.StatusFailed: true, eval.StatusError: true,
		eval.StatusGated: true, eval.StatusInfraError: true, eval.StatusSkipped: true}
	for _, c := range suite.Cases {
		if !known[got[c.ID]] {
			t.Errorf("task %s has no recorded outcome (status %q)", c.ID, got[c.ID])
		}
	}
	if len(res.Repos) != len(suite.Repos) {
		t.Errorf("results hold %d repos, the suite %d", len(res.Repos), len(suite.Repos))
	}
	// Off a terminal, stderr has one progress line per repo and task, with
	// its place and the time elapsed, and no bar.
	total := len(suite.Repos) + len(suite.Cases)
	progress := map[string]int{}
	line := regexp.MustCompile(`(?m)^\[ *\d+/\d+ [\d:]+\] \S+ +(\S+) `)
	for _, m := range line.FindAllStringSubmatch(errb.String(), -1) {
		progress[m[1]]++
	}
	for _, r := range suite.Repos {
		if progress[r.ID] != 1 {
			t.Errorf("stderr has %d progress lines for repo %s, want 1", progress[r.ID], r.ID)
		}
	}
	for _, c := range suite.Cases {
		if progress[c.ID] != 1 {
			t.Errorf("stderr has %d progress lines for task %s, want 1", progress[c.ID], c.ID)
		}
	}
	if !regexp.MustCompile(fmt.Sprintf(`(?m)^\[ *0/%d 0:0\d\] start `, total)).MatchString(errb.String()) {
		t.Errorf("stderr lacks the run's start line:\n%s", errb.String())
	}
	if want := fmt.Sprintf("[%d/%d ", total, total); !strings.Contains(errb.String(), want) || strings.Contains(errb.String(), "\r") {
		t.Errorf("stderr lacks %q or holds a bar:\n%s", want, errb.String())
	}
	// The run's provenance is recorded.
	if p := res.Provenance; p == nil || p.Agentnet == "" || p.Host == "" || p.Finished == nil || !strings.HasPrefix(p.SuiteDigest, "sha256:") {
		t.Errorf("results.json provenance = %+v", res.Provenance)
	}
	if c := res.Config; c == nil || c.Generator != "static" || c.Router != "bm25" || c.Judge != "rules" {
		t.Errorf("results.json config = %+v", res.Config)
	}
	for _, f := range []string{"report.html", "config.json"} {
		if _, err := os.Stat(filepath.Join(runDir, f)); err != nil {
			t.Errorf("run directory lacks %s", f)
		}
	}
	traces, _ := filepath.Glob(filepath.Join(runDir, "tasks", "*", "trace.jsonl"))
	if len(traces) == 0 {
		t.Error("no trace in the run directory")
	}
	// Every agent was a child process of the built binary; none may remain.
	if pids, _ := exec.Command("pgrep", "-f", exe).Output(); len(bytes.TrimSpace(pids)) > 0 {
		t.Errorf("demo left processes running: %s", pids)
	}
}
