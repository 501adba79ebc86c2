package cli

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentnet/agentnet/a2a/host"
	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/registry"
)

const (
	runBacktestYAML = `version: 1
name: backtest
description: Backtest trading strategies on daily price series.
skills:
  - id: sma-crossover
    name: Moving-average crossover backtest
    description: Backtest a moving-average crossover strategy on daily closing prices from a CSV file and write the equity curve to a CSV file.
    tags: [finance, backtest]
    params: {type: object, properties: {prices: {type: string, format: path}}, required: [prices]}
    run: [sh, "{{repo}}/bt.sh", "{{prices}}"]
`
	runBacktestSh = `awk -F, 'NR==1{next} {n++; if(n==1) first=$2; printf "%d,%.2f\n", n, 10000*$2/first > "equity.tmp"} END{printf "final equity computed over %d days\n", n}' "$1"
{ echo "day,equity"; cat equity.tmp; } > equity.csv; rm equity.tmp
`
	runPlotYAML = `version: 1
name: imgtool
description: Draw charts of CSV data.
skills:
  - id: plot
    name: Line chart
    description: Draw a line chart of the last column of a CSV file as an SVG image.
    tags: [chart, plot]
    params: {type: object, properties: {data: {type: string, format: path}}, required: [data]}
    run: [sh, "{{repo}}/plot.sh", "{{data}}"]
`
	runPlotSh = `awk -F, 'NR==1{next} {n++} END{printf "chart.svg: %d points\n", n}' "$1"; echo '<svg/>' > chart.svg
`
	runSuite = `version: 1
name: cli-run
repos:
  - {id: backtest, source: repos/backtest, skills: [{id: sma, description: Backtest a moving-average crossover.}]}
  - {id: imgtool, source: repos/imgtool, skills: [{id: plot, description: Plot a CSV column.}]}
tasks:
  - id: backtest-chart
    type: chain
    input: {files: [prices.csv]}
    steps:
      - {repo: backtest, instruction: Backtest a moving-average crossover on these daily closing prices and write the equity curve to a CSV file.}
      - {repo: imgtool, instruction: Draw a line chart of the equity column of the CSV.}
    expect:
      - contains: "3 points"
      - file: {name: "*.svg"}
  - id: backtest-only
    type: single
    repo: backtest
    instruction: Backtest a moving-average crossover on these daily closing prices.
    input: {files: [prices.csv]}
    expect: [{contains: "over 99 days"}]
`
)

// runFleet writes a suite and two bundles, hosts the bundles and registers
// them in a registry; it returns the suite file and the registry's URL.
func runFleet(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write("suite.yaml", runSuite)
	write("prices.csv", "date,close\n2024-01-01,100\n2024-01-02,104\n2024-01-03,103\n")
	write("repos/backtest/"+bundle.FileName, runBacktestYAML)
	write("repos/backtest/bt.sh", runBacktestSh)
	write("repos/imgtool/"+bundle.FileName, runPlotYAML)
	write("repos/imgtool/plot.sh", runPlotSh)

	store, err := registry.OpenSQLite(context.Background(), ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	reg := httptest.NewServer(registry.NewHandler(registry.NewService(store, registry.CardsValidator)))
	t.Cleanup(func() {
		reg.Close()
		store.Close()
	})
	rc := registry.NewClient(reg.URL)
	for _, name := range []string{"backtest", "imgtool"} {
		b, err := bundle.Load(filepath.Join(dir, "repos", name))
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewUnstartedServer(nil)
		h, err := host.New(b, "http://"+srv.Listener.Addr().String()+"/", host.WithEnv(os.Environ()), host.WithHeartbeat(50*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		srv.Config.Handler = h
		srv.Start()
		t.Cleanup(func() {
			srv.Close()
			h.Close()
		})
		if _, _, err := rc.Register(t.Context(), srv.URL); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "suite.yaml"), reg.URL
}

func TestRun(t *testing.T) {
	t.Parallel()
	suite, reg := runFleet(t)
	out := filepath.Join(t.TempDir(), "run")

	code, stdout, stderr := run(t, "run", "backtest-chart", "--suite", suite, "--registry", reg, "--out", out)
	if code != ExitOK {
		t.Fatalf("run = exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"STEP  ROUTED    EXPECTED  OUTCOME  TIME", "1     backtest  backtest  ok", "2     imgtool   imgtool   ok",
		"orchestration: ok", "checks: 2/2 passed", "trace: " + filepath.Join(out, "trace.jsonl")} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	for _, f := range []string{"trace.jsonl", "result.json", "steps/1/equity.csv", "steps/1/output.txt", "steps/2/chart.svg"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("--out: %v", err)
		}
	}

	code, stdout, _ = run(t, "run", "backtest-chart", "--suite", suite, "--registry", reg, "--json")
	var res struct {
		Case            string `json:"case"`
		OrchestrationOK bool   `json:"orchestration_ok"`
		ChecksPassed    bool   `json:"checks_passed"`
		Steps           []struct {
			Routed   struct{ Name string } `json:"routed"`
			Expected string                `json:"expected"`
			Outcome  string                `json:"outcome"`
		} `json:"steps"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || code != ExitOK {
		t.Fatalf("run --json = exit %d, %v:\n%s", code, err, stdout)
	}
	if !res.OrchestrationOK || !res.ChecksPassed || len(res.Steps) != 2 || res.Steps[1].Routed.Name != "imgtool" || res.Steps[1].Outcome != "ok" {
		t.Errorf("run --json = %+v", res)
	}

	// A single case whose check fails: the command ran and failed.
	code, stdout, _ = run(t, "run", "backtest-only", "--suite", suite, "--registry", reg)
	if code != ExitFailed || !strings.Contains(stdout, "checks: 0/1 passed") || !strings.Contains(stdout, "1     backtest  backtest  ok") {
		t.Errorf("run backtest-only = exit %d:\n%s", code, stdout)
	}
}

func TestRunUsage(t *testing.T) {
	t.Parallel()
	suite, reg := runFleet(t)
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"run", "nope", "--suite", suite, "--registry", reg}, ExitInvalid, `no case "nope" (cases: backtest-chart, backtest-only)`},
		{[]string{"run", "backtest-chart", "--registry", reg}, ExitInvalid, "--suite is required"},
		{[]string{"run", "backtest-chart", "--suite", suite, "--router", "magic"}, ExitInvalid, `unknown router "magic"`},
		{[]string{"run", "backtest-chart", "--suite", suite, "--router", "llm"}, ExitInvalid, "AGENTNET_LLM_BASE_URL"},
		{[]string{"run"}, ExitInvalid, "want 1 argument"},
		// The registry is not there: the chain runs and fails at step 1.
		{[]string{"run", "backtest-chart", "--suite", suite, "--registry", "http://127.0.0.1:1", "--timeout", "3s"}, ExitFailed, ""},
	} {
		code, stdout, stderr := run(t, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.stderr) {
			t.Errorf("agentnet %v = exit %d, stderr %q; want %d and %q (stdout %s)", tc.args, code, stderr, tc.code, tc.stderr, stdout)
		}
		if tc.code == ExitFailed && !strings.Contains(stdout, "registry_failed") {
			t.Errorf("agentnet %v stdout = %q, want the registry failure", tc.args, stdout)
		}
	}
}
