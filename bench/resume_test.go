package bench

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentnet/agentnet/deploy"
	"github.com/agentnet/agentnet/eval"
	"github.com/agentnet/agentnet/registry"
	"github.com/agentnet/agentnet/tasks"
)

// twoRepoSuite writes a suite of two demo repos with one single task and
// one chain.
func twoRepoSuite(t *testing.T) *tasks.Suite {
	t.Helper()
	demo, _ := filepath.Abs("../tasks/demo")
	dir := t.TempDir()
	suite := `version: 1
name: resume
repos:
  - id: textstats
    source: ` + filepath.Join(demo, "repos/textstats") + `
    skills: [{id: word-frequency, description: Count word frequencies in a text.}]
  - id: mdkit
    source: ` + filepath.Join(demo, "repos/mdkit") + `
    skills: [{id: markdown-to-html, description: Convert Markdown to HTML.}]
tasks:
  - id: top-words
    type: single
    repo: textstats
    instruction: List the most frequent words.
    input: {files: [` + filepath.Join(demo, "inputs/textstats/lighthouse.txt") + `]}
    expect: [{contains: "the"}]
  - id: md-words
    type: chain
    input: {files: [` + filepath.Join(demo, "inputs/mdkit/report.md") + `]}
    steps:
      - {repo: mdkit, instruction: Render the Markdown document as HTML.}
      - {repo: textstats, instruction: Count the word frequencies of the text.}
    expect: [{contains: "the"}]
`
	if err := os.WriteFile(filepath.Join(dir, "suite.yaml"), []byte(suite), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := tasks.Load(filepath.Join(dir, "suite.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// openRun sets up a run as Run does (created, or resumed), without
// running a stage.
func openRun(t *testing.T, opts Options) *run {
	t.Helper()
	opts.defaults()
	cfg, err := opts.runConfig()
	if err != nil {
		t.Fatal(err)
	}
	open := eval.Create
	if opts.Resume {
		open = eval.Resume
	}
	store, err := open(opts.Out, cfg)
	if err != nil {
		t.Fatal(err)
	}
	judge, err := eval.NewJudge(opts.Judge, eval.JudgeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rt, err := deploy.Open(opts.Runtime, deploy.Config{Self: opts.Self, Env: opts.Env, LogDir: filepath.Join(opts.Out, "logs")})
	if err != nil {
		t.Fatal(err)
	}
	r := &run{opts: opts, store: store, judge: judge, rt: rt, agents: map[string]*deploy.Agent{}, byURL: map[string]string{},
		bar: &progress{}, matcher: eval.RulesMatcher{Threshold: eval.DefaultMatchThreshold}}
	t.Cleanup(r.teardown)
	return r
}

// TestResumeAfterAgentsDied runs a suite whose agents die once they are
// registered: every task is the testbed's fault, recorded as an infra
// error, and the run says it measured nothing. The resumed run removes the
// dead agents' records, so its routing sees only its own agents, and runs
// the tasks again.
func TestResumeAfterAgentsDied(t *testing.T) {
	self, _ := binaries(t)
	ctx := t.Context()
	opts := Options{Suite: twoRepoSuite(t), Out: filepath.Join(t.TempDir(), "run"), Self: self, Env: os.Environ(), Parallel: 2}
	abs, _ := filepath.Abs(opts.Suite.Path)
	opts.Suite.Path, opts.Suite.Dir = abs, filepath.Dir(abs)

	first := openRun(t, opts)
	if err := first.generateAll(ctx); err != nil {
		t.Fatal(err)
	}
	if err := first.deployAll(ctx); err != nil {
		t.Fatal(err)
	}
	if err := first.startRegistry(ctx); err != nil {
		t.Fatal(err)
	}
	dead := map[string]bool{}
	for _, a := range first.agents {
		dead[norm(a.URL)] = true
		if err := first.rt.Down(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	if len(dead) != 2 {
		t.Fatalf("deployed %d agents, want 2", len(dead))
	}
	err := first.runCases(ctx)
	var all *AllInfraError
	if !errors.As(err, &all) || all.Tasks != 2 {
		t.Fatalf("runCases(agents dead) = %v, want an AllInfraError over 2 tasks", err)
	}
	for _, id := range []string{"top-words", "md-words"} {
		if tr, done := first.store.Task(id); done || tr.Status != eval.StatusInfraError {
			t.Errorf("task %s with its agents dead = %s (%s), done %v; want an infra error, run again on resume", id, tr.Status, tr.Reason, done)
		}
	}
	first.teardown()

	opts.Resume = true
	second := openRun(t, opts)
	if err := second.generateAll(ctx); err != nil {
		t.Fatal(err)
	}
	if err := second.deployAll(ctx); err != nil {
		t.Fatal(err)
	}
	if err := second.startRegistry(ctx); err != nil {
		t.Fatal(err)
	}
	page, err := registry.NewClient(second.registry.URL).List(ctx, registry.Query{Statuses: registry.Statuses})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Hits) != 2 {
		t.Errorf("the resumed run's registry lists %d agents, want its own 2", len(page.Hits))
	}
	for _, h := range page.Hits {
		if dead[norm(h.URL)] {
			t.Errorf("the resumed run's registry still lists the dead agent at %s", h.URL)
		}
	}
	if err := second.runCases(ctx); err != nil {
		t.Fatalf("runCases(resumed) = %v", err)
	}
	for _, id := range []string{"top-words", "md-words"} {
		tr, done := second.store.Task(id)
		if !done || tr.Status == eval.StatusError {
			t.Errorf("resumed task %s = %s (%s), want it run against live agents", id, tr.Status, tr.Reason)
		}
	}
}
