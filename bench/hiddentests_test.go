package bench

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentnet/agentnet/deploy"
	"github.com/agentnet/agentnet/deploy/deploytest"
	"github.com/agentnet/agentnet/eval"
	"github.com/agentnet/agentnet/internal/proc/proctest"
	"github.com/agentnet/agentnet/tasks"
)

// TestRunTests runs real hidden test commands against a delivery and reads
// their results: go test -json, Python unittest, JUnit XML, a plain exit
// status, and a command that outlives its budget (killed, with the helper
// it started in the background).
func TestRunTests(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go test and python3")
	}
	e := &evaluator{suiteDir: "testdata/hidden", env: os.Environ()}
	delivery := "testdata/commission/reference"
	tests := []struct {
		name    string
		dir     string
		command []string
		timeout time.Duration
		want    eval.TestsResult
	}{
		{"go test -json", "gotest", []string{"go", "test", "-json", "./..."}, 0, eval.TestsResult{
			Outcome: eval.TestsFailed, Passed: 1, Total: 3, Format: "go-test-json",
			Failed: []string{"example.com/hidden TestAlwaysFails", "example.com/hidden TestAlwaysFails/sub"}}},
		{"unittest", "unittest", []string{"python3", "-m", "unittest", "-v"}, 0, eval.TestsResult{
			Outcome: eval.TestsFailed, Passed: 2, Total: 3, Format: "unittest", Failed: []string{"test_hidden.Hidden.test_wrong"}}},
		{"junit", "junit", []string{"cat", "report.xml"}, 0, eval.TestsResult{
			Outcome: eval.TestsFailed, Passed: 1, Total: 3, Format: "junit", Failed: []string{"api.answer", "api.errors"}}},
		{"exit status", "junit", []string{"true"}, 0, eval.TestsResult{Outcome: eval.TestsPassed, Passed: 1, Total: 1, Format: "exit-status"}},
		{"timeout", "slow", []string{"sh", "run.sh"}, 200 * time.Millisecond, eval.TestsResult{
			Outcome: eval.TestsTimeout, Passed: 1, Total: 1, Format: "tap"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := &tasks.Case{ID: "c", Tests: &tasks.HiddenTests{Dir: tt.dir, Command: tt.command}}
			if tt.timeout > 0 {
				c.Gates = &tasks.Gates{CaseTimeout: tasks.Duration{Duration: tt.timeout}}
			}
			work := t.TempDir()
			got := e.runTests(t.Context(), c, delivery, &deploy.Agent{Name: "x", Runtime: "process", URL: "http://127.0.0.1:9/"}, work)
			got.Detail, got.Log = "", ""
			if diff := cmp.Diff(tt.want, *got); diff != "" {
				t.Errorf("runTests(%s) (-want +got):\n%s", tt.name, diff)
			}
			if tt.name == "timeout" {
				data, err := os.ReadFile(filepath.Join(work, "run", "helper.pid"))
				if err != nil {
					t.Fatal(err)
				}
				pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
				if !proctest.Gone(pid, 5*time.Second) {
					t.Errorf("the tests' background helper %d outlived them", pid)
				}
			}
		})
	}
}

// TestRunTestsDocker runs hidden tests in a fresh container beside a
// delivery deployed by the docker runtime: Python unittest reaching the
// agent over A2A (its results parsed); go test -json reading the agent's
// card over HTTP, all of it passing, then with a test that fails on
// purpose; go test of a module that imports one it cannot get (the detail
// says why); and a command that outlives its budget (killed with its
// container).
func TestRunTestsDocker(t *testing.T) {
	// Not in parallel with the other docker tests of the package: runtimes
	// of their own that create the agent network at the same moment can
	// make two of them (the daemon's duplicate check is not atomic).
	self, _ := binaries(t)
	deploytest.Jobs(t)
	ctx := t.Context()
	rt, err := deploy.Open("docker", deploy.Config{Self: self, Env: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := openJobs("docker", os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { jobs.Close(context.Background()) })
	delivery := "testdata/commission/reference"
	var b [4]byte
	rand.Read(b[:])
	agent, err := rt.Up(ctx, deploy.Spec{Name: "hidden-" + hex.EncodeToString(b[:]), Bundle: delivery})
	if err != nil {
		t.Fatalf("Up() error = %v", err)
	}
	t.Cleanup(func() { rt.Down(context.Background(), agent) })
	e := &evaluator{suiteDir: "testdata/hidden", env: os.Environ(), jobs: jobs}
	tests := []struct {
		name    string
		dir     string
		command []string
		timeout time.Duration
		want    eval.TestsResult
		detail  string // in the result's detail
	}{
		{"unittest over A2A", "a2a", []string{"python3", "-m", "unittest", "-v"}, 0, eval.TestsResult{
			Outcome: eval.TestsFailed, Passed: 3, Total: 4, Format: "unittest", Failed: []string{"test_agent.Agent.test_wrong"}}, ""},
		{"go test over HTTP", "gocard", []string{"go", "test", "-json", "-run", "^TestCardName$", "./..."}, 0, eval.TestsResult{
			Outcome: eval.TestsPassed, Passed: 1, Total: 1, Format: "go-test-json"}, ""},
		{"go test over HTTP, one failing", "gocard", []string{"go", "test", "-json", "./..."}, 0, eval.TestsResult{
			Outcome: eval.TestsFailed, Passed: 1, Total: 2, Format: "go-test-json", Failed: []string{"example.com/card TestCardNameWrongOnPurpose"}},
			"1 of 2 passed; exit status 1"},
		{"go test without its module", "gomodule", []string{"go", "test", "-json", "./..."}, 0, eval.TestsResult{
			Outcome: eval.TestsFailed, Total: 1, Format: "go-test-json", Failed: []string{"example.com/needsmodule (package)"}},
			"0 of 1 passed; exit status 1: go could not get a module it needs (needs_test.go:8:2: missing go.sum entry for module providing package example.com/absent"},
		{"timeout", "slow", []string{"sh", "run.sh"}, 3 * time.Second, eval.TestsResult{
			Outcome: eval.TestsTimeout, Passed: 1, Total: 1, Format: "tap"}, ""},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := &tasks.Case{ID: "docker-" + strconv.Itoa(i) + "-" + hex.EncodeToString(b[:]), Tests: &tasks.HiddenTests{Dir: tt.dir, Command: tt.command}}
			if tt.timeout > 0 {
				c.Gates = &tasks.Gates{CaseTimeout: tasks.Duration{Duration: tt.timeout}}
			}
			got := e.runTests(ctx, c, delivery, agent, t.TempDir())
			detail := got.Detail
			got.Detail, got.Log = "", ""
			if diff := cmp.Diff(tt.want, *got); diff != "" {
				t.Errorf("runTests(%s) (-want +got):\n%s\ndetail: %s", tt.name, diff, detail)
			}
			if !strings.Contains(detail, tt.detail) {
				t.Errorf("runTests(%s) detail = %q, want it to hold %q", tt.name, detail, tt.detail)
			}
			if ids, err := jobs.Containers(context.Background(), "tests-"+c.ID); err != nil || len(ids) != 0 {
				t.Errorf("containers of the tests = %v (%v), want none", ids, err)
			}
		})
	}
}
