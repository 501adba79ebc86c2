package bench

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentnet/agentnet/deploy"
	"github.com/agentnet/agentnet/deploy/deploytest"
	"github.com/agentnet/agentnet/eval"
	"github.com/agentnet/agentnet/internal/llm"
	"github.com/agentnet/agentnet/internal/llm/llmtest"
	"github.com/agentnet/agentnet/tasks"
)

// What the builder must never see: markers in the held-out cases, a
// held-out input file and the hidden tests of testdata/commission.
var heldoutMarkers = []string{"HELDOUT-SECRET", "FILE-SECRET", "TESTS-SECRET", "heldout.yaml", "heldout-inputs", "quiet words"}

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// binaries builds agentnet (whose serve command hosts the deliveries) and
// the fake coding agent once per test binary.
func binaries(t *testing.T) (agentnet, fakebuilder string) {
	t.Helper()
	if testing.Short() {
		t.Skip("deploys agents as processes")
	}
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "agentnet-bench-test-")
		if buildErr != nil {
			return
		}
		for pkg, name := range map[string]string{"github.com/agentnet/agentnet/cmd/agentnet": "agentnet", "./testdata/fakebuilder": "fakebuilder"} {
			if out, err := exec.Command("go", "build", "-o", filepath.Join(binDir, name), pkg).CombinedOutput(); err != nil {
				buildErr = fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return filepath.Join(binDir, "agentnet"), filepath.Join(binDir, "fakebuilder")
}

// newTestRun sets up a run of testdata/commission as Run does, up to the
// commissions: store, judge, runtime (process unless opts.Runtime says
// otherwise; docker skips the test when no Docker daemon answers), embedded
// registry.
func newTestRun(t *testing.T, opts Options) *run {
	t.Helper()
	return newSuiteRun(t, "testdata/commission/suite.yaml", opts)
}

// newSuiteRun is newTestRun for another suite of testdata.
func newSuiteRun(t *testing.T, suite string, opts Options) *run {
	t.Helper()
	self, _ := binaries(t)
	if opts.Runtime == "docker" {
		deploytest.Jobs(t)
	}
	s, err := tasks.Load(suite)
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(s.Path)
	s.Path, s.Dir = abs, filepath.Dir(abs)
	opts.Suite, opts.Out, opts.Self = s, filepath.Join(t.TempDir(), "run"), self
	if opts.Env == nil {
		opts.Env = os.Environ()
	}
	opts.defaults()
	cfg, err := opts.runConfig()
	if err != nil {
		t.Fatal(err)
	}
	store, err := eval.Create(opts.Out, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var model *llm.Client
	if opts.LLM != nil {
		model = llm.New(*opts.LLM)
	}
	judge, err := eval.NewJudge(opts.Judge, eval.JudgeOptions{LLM: model})
	if err != nil {
		t.Fatal(err)
	}
	rt, err := deploy.Open(opts.Runtime, deploy.Config{Self: self, Env: opts.Env, LogDir: filepath.Join(opts.Out, "logs")})
	if err != nil {
		t.Fatal(err)
	}
	r := &run{opts: opts, store: store, judge: judge, rt: rt, llm: model, agents: map[string]*deploy.Agent{}, byURL: map[string]string{}}
	if r.jobs, err = openJobs(opts.Runtime, opts.Env); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.teardown)
	if err := r.startRegistry(t.Context()); err != nil {
		t.Fatal(err)
	}
	return r
}

// commissionResult runs the suite's commission and returns its result.
func commissionResult(t *testing.T, r *run) eval.TaskResult {
	t.Helper()
	if err := r.runCommissions(t.Context()); err != nil {
		t.Fatal(err)
	}
	res, ok := r.store.Task("shout")
	if !ok {
		t.Fatal("no result for the commission")
	}
	return res
}

// noHeldoutBytes fails when a held-out marker appears in a file under dir.
func noHeldoutBytes(t *testing.T, dir string) {
	t.Helper()
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		n++
		data, _ := os.ReadFile(p)
		for _, m := range heldoutMarkers {
			if bytes.Contains(data, []byte(m)) || strings.Contains(p, m) {
				t.Errorf("%s holds held-out bytes %q", p, m)
			}
		}
		return nil
	})
	if n == 0 {
		t.Errorf("%s is empty", dir)
	}
}

// TestCommissionCommandBuilder runs a fake coding agent as the builder: it
// works in a workspace holding the brief and the dev cases only, gets the
// feedback on its first (wrong) submission, submits again, and its last
// accepted submission is frozen and judged on the held-out cases and the
// hidden tests.
func TestCommissionCommandBuilder(t *testing.T) {
	t.Parallel()
	_, fake := binaries(t)
	r := newTestRun(t, Options{Generator: "command", BuilderCmd: fake, Submissions: 3, BuildTimeout: 2 * time.Minute})
	res := commissionResult(t, r)
	cr := res.Commission
	if res.Status != eval.StatusPassed {
		t.Fatalf("status = %s (%s), want passed; cases %+v", res.Status, res.Reason, cr.Cases)
	}
	if len(cr.Submissions) != 2 {
		t.Fatalf("submissions = %+v, want 2 (a wrong one, then the right one)", cr.Submissions)
	}
	if s := cr.Submissions[0]; !s.Accepted || s.DevResult == nil || *s.DevResult != 0 {
		t.Errorf("submission 1 = %+v, want accepted with dev result 0", s)
	}
	if s := cr.Submissions[1]; !s.Accepted || s.DevResult == nil || *s.DevResult != 100 || s.TokensIn == nil || *s.TokensIn != 100 {
		t.Errorf("submission 2 = %+v, want accepted with dev result 100 and 100 tokens in", s)
	}
	if res.TokensIn != 200 || res.TokensOut != 40 {
		t.Errorf("tokens = %d in, %d out, want 200, 40", res.TokensIn, res.TokensOut)
	}
	if cr.Result == nil || *cr.Result != 100 || cr.DevResult == nil || *cr.DevResult != 100 || cr.Gap == nil || *cr.Gap != 0 {
		t.Errorf("result, dev, gap = %v, %v, %v, want 100, 100, 0", cr.Result, cr.DevResult, cr.Gap)
	}
	if cr.Tests == nil || cr.Tests.Outcome != eval.TestsPassed || cr.Tests.Passed != 3 || cr.Tests.Total != 3 || cr.Tests.Format != "tap" {
		t.Errorf("tests = %+v, want 3 of 3 passed, read as TAP", cr.Tests)
	}
	if cr.Reward == nil || *cr.Reward != 1 || cr.TestsPassed == nil || *cr.TestsPassed != 100 {
		t.Errorf("reward, tests passed = %v, %v, want 1, 100", cr.Reward, cr.TestsPassed)
	}
	// Frozen: the delivery is the second submission, hashed.
	delivery := filepath.Join(r.opts.Out, cr.Delivery)
	sum, err := hashTree(delivery)
	if err != nil || sum != cr.DeliverySHA || sum != cr.Submissions[1].SHA256 {
		t.Errorf("delivery %s hashes to %s (%v), recorded %s, submission 2 %s", delivery, sum, err, cr.DeliverySHA, cr.Submissions[1].SHA256)
	}
	// No held-out byte reached the workspace, nor what the builder saw
	// (its prompt, environment and files, recorded by the fake).
	ws := filepath.Join(r.store.TaskDir("shout"), builderDir, workspaceDir)
	noHeldoutBytes(t, ws)
	seen, err := os.ReadFile(filepath.Join(ws, "seen-2.txt"))
	if err != nil || !bytes.Contains(seen, []byte("Feedback on submission 1")) || !bytes.Contains(seen, []byte("hello there")) {
		t.Errorf("the builder's second view lacks the feedback or the dev case (%v):\n%s", err, seen)
	}
	if _, err := os.Stat(filepath.Join(ws, devDir, "inputs", "greeting.txt")); err != nil {
		t.Errorf("the dev input file is not in the workspace: %v", err)
	}
}

// TestCommissionBuilderDocker runs the fake coding agent as the builder
// with the docker runtime: it works in a container where it reads every
// file it can reach and its environment, and finds the development case
// but no held-out byte; its deliveries run in containers, and the hidden
// tests in a fresh container beside the frozen delivery, which they reach
// over the network; no container of the builder or the tests is left.
func TestCommissionBuilderDocker(t *testing.T) {
	// Not in parallel with the other docker tests of the package: runtimes
	// of their own that create the agent network at the same moment can
	// make two of them (the daemon's duplicate check is not atomic).
	_, fake := binaries(t)
	r := newTestRun(t, Options{Generator: "command", BuilderCmd: fake, Runtime: "docker", Submissions: 3, BuildTimeout: 5 * time.Minute,
		Env: append(os.Environ(), "FAKE_SCAN=1")})
	res := commissionResult(t, r)
	cr := res.Commission
	if res.Status != eval.StatusPassed || len(cr.Submissions) != 2 {
		t.Fatalf("status = %s (%s), submissions %+v: want passed after 2; cases %+v", res.Status, res.Reason, cr.Submissions, cr.Cases)
	}
	ws := filepath.Join(r.store.TaskDir("shout"), builderDir, workspaceDir)
	for _, n := range []string{"1", "2"} {
		seen, err := os.ReadFile(filepath.Join(ws, "seen-"+n+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		_, scan, ok := strings.Cut(string(seen), "## scan\n")
		var files int
		if ok {
			fmt.Sscanf(scan, "files read: %d", &files)
		}
		if !ok || files < 10 || !strings.Contains(scan, "development text found: true") || !strings.Contains(scan, "held-out markers found: none\n") {
			t.Errorf("submission %s: the builder's scan of its container = %q; want many files read, the development text found and no held-out marker", n, scan)
		}
	}
	noHeldoutBytes(t, ws)
	if cr.Tests == nil || cr.Tests.Outcome != eval.TestsPassed || cr.Tests.Passed != 3 || cr.Tests.Format != "tap" {
		t.Errorf("tests = %+v, want 3 of 3 passed (the card reached from the tests' container), read as TAP", cr.Tests)
	}
	for _, job := range []string{"build-shout", "tests-shout"} {
		if ids, err := r.jobs.Containers(context.Background(), job); err != nil || len(ids) != 0 {
			t.Errorf("containers of job %s = %v (%v), want none", job, ids, err)
		}
	}
}

// TestCommissionNoSubmission: a builder that writes nothing has no
// delivery; every case is gated and the hidden tests record it.
func TestCommissionNoSubmission(t *testing.T) {
	t.Parallel()
	_, fake := binaries(t)
	r := newTestRun(t, Options{Generator: "command", BuilderCmd: fake, Submissions: 2, BuildTimeout: time.Minute,
		Env: append(os.Environ(), "FAKE_MODE=nothing")})
	res := commissionResult(t, r)
	cr := res.Commission
	if res.Status != eval.StatusGated || !strings.Contains(res.Reason, "giving up") {
		t.Errorf("status = %s (%s), want gated with the builder's reason", res.Status, res.Reason)
	}
	if len(cr.Submissions) != 2 || cr.Delivery != "" {
		t.Errorf("submissions %+v, delivery %q: want 2 failed submissions and no delivery", cr.Submissions, cr.Delivery)
	}
	for _, c := range cr.Cases {
		if c.Status != eval.StatusGated {
			t.Errorf("case %s = %s, want gated", c.ID, c.Status)
		}
	}
	if cr.Result == nil || *cr.Result != 0 || cr.Tests == nil || cr.Tests.Outcome != eval.TestsNoSubmission || cr.Reward == nil || *cr.Reward != 0 {
		t.Errorf("result %v, tests %+v, reward %v: want 0, no_submission, 0", cr.Result, cr.Tests, cr.Reward)
	}
}

// TestCommissionLLMBuilder runs the llm generator as the builder against a
// fake chat-completions server: its first answer is wrong, the feedback
// reaches the model, its second answer is right; no request carries a
// held-out byte.
func TestCommissionLLMBuilder(t *testing.T) {
	t.Parallel()
	const bundleYAML = "version: 1\nname: shouter\ndescription: Answers with the text in upper case.\nskills:\n" +
		"  - id: shout\n    name: Shout\n    description: Turn the given text into upper-case letters.\n" +
		"    params: {type: object, properties: {text: {type: string}}, required: [text]}\n" +
		"    run: [sh, \"{{repo}}/shout.sh\", \"{{text}}\"]\n"
	answer := func(script string) string {
		return "<file path=\"agent.yaml\">\n" + bundleYAML + "</file>\n<file path=\"shout.sh\">\n#!/bin/sh\n" + script + "\n</file>\n"
	}
	model := llmtest.NewFakeServer(func(req *llm.Request) llm.Message {
		last := req.Messages[len(req.Messages)-1].Content
		if strings.Contains(last, "Feedback on submission 1") {
			return llm.Message{Content: answer(`printf '%s\n' "$1" | tr '[:lower:]' '[:upper:]'`)}
		}
		return llm.Message{Content: answer(`printf '%s\n' "$1"`)}
	})
	defer model.Close()
	cfg := model.Config()
	r := newTestRun(t, Options{Generator: "llm", LLM: &cfg, Submissions: 3, BuildTimeout: 2 * time.Minute})
	res := commissionResult(t, r)
	cr := res.Commission
	if res.Status != eval.StatusPassed || len(cr.Submissions) != 2 {
		t.Fatalf("status = %s (%s), submissions %+v: want passed after 2", res.Status, res.Reason, cr.Submissions)
	}
	if res.TokensIn != 20 || res.TokensOut != 10 {
		t.Errorf("tokens = %d in, %d out, want 20, 10 (the fake's usage, twice)", res.TokensIn, res.TokensOut)
	}
	for _, req := range model.Requests() {
		for _, m := range req.Messages {
			for _, marker := range heldoutMarkers {
				if strings.Contains(m.Content, marker) {
					t.Errorf("a model request holds held-out bytes %q", marker)
				}
			}
		}
	}
	noHeldoutBytes(t, filepath.Join(r.store.TaskDir("shout"), builderDir, workspaceDir))
}

// TestCommissionNoBuilder: the static generator cannot build from a
// requirement; the commission is skipped, never scored, and the task's own
// validation (reference passes, hollow control fails) is recorded.
func TestCommissionNoBuilder(t *testing.T) {
	t.Parallel()
	r := newTestRun(t, Options{Generator: "static"})
	res := commissionResult(t, r)
	cr := res.Commission
	if res.Status != eval.StatusSkipped || !strings.Contains(res.Reason, "cannot build one from a requirement") || cr.Result != nil {
		t.Errorf("status = %s (%s), result %v: want skipped, no result", res.Status, res.Reason, cr.Result)
	}
	v := cr.Validation
	if v == nil || !v.Sound || len(v.Deliveries) != 2 {
		t.Fatalf("validation = %+v, want sound with 2 deliveries", v)
	}
	ref, ctl := v.Deliveries[0], v.Deliveries[1]
	if !ref.Passes || ref.Tests == nil || ref.Tests.Passed != 3 {
		t.Errorf("reference = %+v, want it to pass every case and 3 tests", ref)
	}
	if ctl.Passes || !ctl.OK || ctl.HeldPassed != 0 || ctl.Tests == nil || ctl.Tests.Outcome != eval.TestsFailed || ctl.Tests.Passed != 1 {
		t.Errorf("control = %+v, want it to fail the held-out cases and 2 of 3 tests", ctl)
	}
}

// TestVerifyDocker runs the task validation with the docker runtime: the
// reference and the hollow control are deployed in containers and the
// hidden tests run in containers beside them; the reference passes every
// case and test, the control fails.
func TestVerifyDocker(t *testing.T) {
	// Not in parallel with the other docker tests of the package: runtimes
	// of their own that create the agent network at the same moment can
	// make two of them (the daemon's duplicate check is not atomic).
	self, _ := binaries(t)
	deploytest.Jobs(t)
	s, err := tasks.Load("testdata/commission/suite.yaml")
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(s.Path)
	s.Path, s.Dir = abs, filepath.Dir(abs)
	res, err := Verify(t.Context(), VerifyOptions{Suite: s, Self: self, Env: os.Environ(), Runtime: "docker", Work: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Validation == nil || !res[0].Validation.Sound || len(res[0].Validation.Deliveries) != 2 {
		t.Fatalf("Verify() = %+v, want one sound validation of 2 deliveries", res)
	}
	ref, ctl := res[0].Validation.Deliveries[0], res[0].Validation.Deliveries[1]
	if !ref.Passes || ref.Tests == nil || ref.Tests.Outcome != eval.TestsPassed || ref.Tests.Passed != 3 {
		t.Errorf("reference = %+v (tests %+v), want it to pass every case and 3 tests", ref, ref.Tests)
	}
	if ctl.Passes || !ctl.OK || ctl.Tests == nil || ctl.Tests.Passed != 1 {
		t.Errorf("control = %+v (tests %+v), want it to fail, passing 1 of 3 tests", ctl, ctl.Tests)
	}
}

// TestVerifySwarm runs the task validation with the swarm runtime: the
// reference and the hollow control are Swarm services and the hidden tests
// Swarm jobs on their overlay network; the reference passes every case and
// test, the control fails.
func TestVerifySwarm(t *testing.T) {
	self, _ := binaries(t)
	deploytest.Jobs(t)
	deploytest.Swarm(t)
	s, err := tasks.Load("testdata/commission/suite.yaml")
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(s.Path)
	s.Path, s.Dir = abs, filepath.Dir(abs)
	res, err := Verify(t.Context(), VerifyOptions{Suite: s, Self: self, Env: os.Environ(), Runtime: "swarm", Work: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Validation == nil || !res[0].Validation.Sound || len(res[0].Validation.Deliveries) != 2 {
		t.Fatalf("Verify() = %+v, want one sound validation of 2 deliveries", res)
	}
	ref, ctl := res[0].Validation.Deliveries[0], res[0].Validation.Deliveries[1]
	if !ref.Passes || ref.Tests == nil || ref.Tests.Outcome != eval.TestsPassed || ref.Tests.Passed != 3 {
		t.Errorf("reference = %+v (tests %+v), want it to pass every case and 3 tests", ref, ref.Tests)
	}
	if ctl.Passes || !ctl.OK || ctl.Tests == nil || ctl.Tests.Passed != 1 {
		t.Errorf("control = %+v (tests %+v), want it to fail, passing 1 of 3 tests", ctl, ctl.Tests)
	}
}
