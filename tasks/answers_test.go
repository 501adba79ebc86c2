package tasks_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/tasks"
	"github.com/agentnet/agentnet/tasks/internal/answerkey"
)

// TestDemoSolutions runs every single task's and every chain's intended
// commands (tasks/demo/solutions.yaml) and asserts that the task's checks
// pass on what they produce: the demo suite is verified, not hoped. Chains
// pass each step's standard output on as input.txt, with the step's output
// files, to the next step.
func TestDemoSolutions(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every demo tool")
	}
	s, err := tasks.Load("demo/suite.yaml")
	if err != nil {
		t.Fatal(err)
	}
	key, err := answerkey.Load("demo/solutions.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dirs := map[string]string{}
	for _, r := range s.Repos {
		dirs[r.ID], _ = filepath.Abs(filepath.Join(s.Dir, r.Source))
	}
	runAnswers(t, s, key, dirs)
}

// TestRealdevAnswers verifies the real-repository development suite
// (tasks/realdev): every answer of each half that exists runs against the
// real tool in the clones that scripts/realdev/provision made, and the
// task's checks must pass. It runs only when AGENTNET_REALDEV_REPOS names
// the provisioned clones (OWNER/NAME under it); AGENTNET_REALDEV_HALF picks
// tune, holdout or all (the default).
func TestRealdevAnswers(t *testing.T) {
	root := os.Getenv("AGENTNET_REALDEV_REPOS")
	if root == "" {
		t.Skip("AGENTNET_REALDEV_REPOS is not set: run scripts/realdev/verify")
	}
	halves := []string{"tune", "holdout"}
	if h := os.Getenv("AGENTNET_REALDEV_HALF"); h != "" && h != "all" {
		halves = []string{h}
	}
	ran := 0
	for _, half := range halves {
		suite := filepath.Join("realdev", half, "suite.yaml")
		if _, err := os.Stat(suite); err != nil {
			continue
		}
		ran++
		t.Run(half, func(t *testing.T) {
			s, err := tasks.Load(suite)
			if err != nil {
				t.Fatal(err)
			}
			key, err := answerkey.Load(filepath.Join("realdev", half, "answers.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			dirs := map[string]string{}
			for _, r := range s.Repos {
				slug, ok := strings.CutPrefix(r.Source, "https://github.com/")
				if !ok || r.Ref == "" {
					t.Fatalf("repo %s: source %q is not a pinned https://github.com/OWNER/NAME", r.ID, r.Source)
				}
				dir := filepath.Join(root, strings.TrimSuffix(slug, ".git"))
				head, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
				if err != nil || strings.TrimSpace(string(head)) != r.Ref {
					t.Fatalf("repo %s: %s is not a clone at %s: run scripts/realdev/provision", r.ID, dir, r.Ref)
				}
				dirs[r.ID] = dir
			}
			runAnswers(t, s, key, dirs)
		})
	}
	if ran == 0 {
		t.Fatalf("no realdev half among %v has a suite.yaml", halves)
	}
}

// runAnswers sets the suite's repos up and runs every case's answer as a
// subtest, checking its output; commissions run through verifyCommission.
func runAnswers(t *testing.T, s *tasks.Suite, key *answerkey.Key, dirs map[string]string) {
	t.Helper()
	r := &answerkey.Runner{Key: key, Suite: s, Dirs: dirs, Bin: t.TempDir()}
	if err := r.Setup(t.Context()); err != nil {
		t.Fatal(err)
	}
	for _, c := range s.Cases {
		t.Run(c.ID, func(t *testing.T) {
			if c.Type == tasks.Commission {
				verifyCommission(t, s, &c, r, key.Commissions[c.ID])
				return
			}
			out, err := r.Run(t.Context(), &c, t.TempDir)
			if err != nil {
				t.Fatal(err)
			}
			if fails := answerkey.Failures(c.Expect, out); fails != nil {
				for _, f := range fails {
					t.Error(f)
				}
				t.Logf("output:\n%s", out.Text)
			}
		})
	}
}

// verifyCommission runs a commission's dev and held-out cases against its
// reference delivery, which must pass them all, and against each control,
// which must pass the dev cases (it looks complete) and fail a held-out one.
func verifyCommission(t *testing.T, s *tasks.Suite, c *tasks.Case, r *answerkey.Runner, ck answerkey.Commission) {
	if c.Reference == "" {
		return
	}
	if len(ck.Prefix) == 0 {
		t.Fatalf("the answer key has no commission entry for %s", c.ID)
	}
	passes := func(t *testing.T, delivery string, ec tasks.EvalCase) bool {
		args, ok := ck.Cases[ec.ID]
		if !ok {
			t.Fatalf("the answer key has no argv for case %s", ec.ID)
		}
		work := t.TempDir()
		if ec.Input != nil {
			for _, f := range ec.Input.Files {
				b, err := os.ReadFile(filepath.Join(s.Dir, f))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(work, filepath.Base(f)), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		dir, _ := filepath.Abs(filepath.Join(s.Dir, delivery))
		out, err := r.Exec(t.Context(), dir, ck.Prefix, args, nil, work)
		if err != nil {
			t.Logf("%s on %s: %v", delivery, ec.ID, err)
			return false
		}
		if fails := answerkey.Failures(ec.Expect, out); fails != nil {
			t.Logf("%s on %s: %v", delivery, ec.ID, fails)
			return false
		}
		return true
	}
	for _, ec := range append(append([]tasks.EvalCase{}, c.Cases.Dev.Cases...), c.Cases.Heldout.Cases...) {
		if !passes(t, c.Reference, ec) {
			t.Errorf("reference %s fails case %s", c.Reference, ec.ID)
		}
	}
	for _, ctl := range c.Controls {
		for _, ec := range c.Cases.Dev.Cases {
			if !passes(t, ctl, ec) {
				t.Errorf("control %s fails dev case %s: it should look complete", ctl, ec.ID)
			}
		}
		failed := false
		for _, ec := range c.Cases.Heldout.Cases {
			failed = failed || !passes(t, ctl, ec)
		}
		if !failed {
			t.Errorf("control %s passes every held-out case: it does not control anything", ctl)
		}
	}
}

// TestProvisionNamesMissingRepos runs scripts/realdev/provision against an
// empty mirror: it must stop with exit status 1 and one line for every repo
// of the suite, naming it and what to do, before it clones or configures
// anything.
func TestProvisionNamesMissingRepos(t *testing.T) {
	t.Parallel()
	s, err := tasks.Load("realdev/tune/suite.yaml")
	if err != nil {
		t.Fatal(err)
	}
	home, mirror := t.TempDir(), t.TempDir()
	cmd := exec.CommandContext(t.Context(), "bash", "../scripts/realdev/provision", mirror)
	cmd.Env = append(os.Environ(), "AGENTNET_HOME="+home, "HOME="+home)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("provision with an empty mirror: %v, want exit status 1\n%s", err, stderr.String())
	}
	for _, r := range s.Repos {
		slug := strings.TrimPrefix(r.Source, "https://github.com/")
		if want := slug + " not in " + mirror + ": fetch it first"; !strings.Contains(stderr.String(), want) {
			t.Errorf("provision stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	if _, err := os.Stat(filepath.Join(home, ".gitconfig")); err == nil {
		t.Error("provision wrote a git configuration although repos were missing")
	}
	cmd = exec.CommandContext(t.Context(), "bash", "../scripts/realdev/provision", filepath.Join(mirror, "absent"))
	cmd.Env = append(os.Environ(), "AGENTNET_HOME="+home, "HOME="+home)
	out, err := cmd.CombinedOutput()
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(out), "does not exist") {
		t.Errorf("provision with a missing mirror directory: %v, %s; want exit status 1 naming it", err, out)
	}
}
