package tasks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v4"

	"github.com/agentnet/agentnet/tasks/internal/demoarchive"
)

const demoSuite = "demo/suite.yaml"

func TestDemoSuiteValidates(t *testing.T) {
	t.Parallel()
	s, err := Load(demoSuite)
	if err != nil {
		t.Fatalf("Load(%s):\n%v", demoSuite, err)
	}
	count := map[CaseType]map[Tier]int{}
	skills := 0
	for _, r := range s.Repos {
		skills += len(r.Skills)
		if n := len(r.Skills); n < 2 || n > 4 {
			t.Errorf("repo %s has %d ground-truth skills, want 2–4", r.ID, n)
		}
	}
	for _, c := range s.Cases {
		if count[c.Type] == nil {
			count[c.Type] = map[Tier]int{}
		}
		count[c.Type][c.Tier()]++
	}
	total := func(m map[Tier]int) int { return m[Easy] + m[Medium] + m[Hard] }
	if len(s.Repos) < 8 || skills < 24 || total(count[Single]) < 24 || count[Single][Medium] < 5 ||
		count[Single][Hard] < 3 || total(count[Chain]) < 10 || count[Chain][Easy] == 0 ||
		count[Chain][Medium] == 0 || count[Chain][Hard] == 0 || total(count[Commission]) < 2 {
		t.Errorf("demo suite too small: %d repos, %d skills, tasks %v", len(s.Repos), skills, count)
	}
}

// TestDemoSuiteMatchesSchema validates the demo suite, in its JSON form,
// against the schema generated from the Go types.
func TestDemoSuiteMatchesSchema(t *testing.T) {
	t.Parallel()
	c := jsonschema.NewCompiler()
	var schemaDoc any
	if err := json.Unmarshal(SchemaJSON(), &schemaDoc); err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource("suite.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("suite.json")
	if err != nil {
		t.Fatalf("compile suite schema: %v", err)
	}
	for _, file := range []string{demoSuite, "testdata/good/suite.yaml"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		js, _ := json.Marshal(doc)
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("%s does not match the suite schema: %v", file, err)
		}
	}
	// And the schema is not vacuous: a suite with an unknown key fails it.
	bad, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"version":1,"name":"x","repos":[],"colour":"red"}`))
	if sch.Validate(bad) == nil {
		t.Error("schema accepts an unknown top-level key")
	}
	// The indicators are an enum: a misspelt one fails it.
	badIndicator, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"version":1,"name":"x","repos":[{"id":"r","source":"r","skills":[{"id":"s","description":"d"}]}],
		"tasks":[{"id":"t","type":"single","repo":"r","instruction":"i","expect":[{"contains":"x"}],"indicators":["domain_expertize"]}]}`))
	if sch.Validate(badIndicator) == nil {
		t.Error("schema accepts an unknown indicator")
	}
}

func TestDemoArchiveUpToDate(t *testing.T) {
	t.Parallel()
	want, err := demoarchive.Pack("demo")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, demoZip) {
		t.Fatal("tasks/demo.zip is out of date with tasks/demo: run `go generate ./tasks`")
	}
	dir := t.TempDir()
	suite, err := ExtractDemo(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Load(suite); err != nil {
		t.Fatalf("extracted demo suite does not load: %v", err)
	}
}

// solutions is the demo's answer key: how each task is solved by calling the
// right repo's command line directly (tasks/demo/solutions.yaml).
type solutions struct {
	Repos map[string]struct {
		Setup  [][]string        `yaml:"setup"`
		Prefix []string          `yaml:"prefix"`
		Env    map[string]string `yaml:"env"`
	} `yaml:"repos"`
	Tasks       map[string]yaml.Node `yaml:"tasks"`
	Commissions map[string]struct {
		Prefix []string            `yaml:"prefix"`
		Cases  map[string][]string `yaml:"cases"`
	} `yaml:"commissions"`
}

// TestDemoSolutions runs every single task's and every chain's intended
// commands and asserts that the task's checks pass on what they produce: the
// demo suite is verified, not hoped. Chains pass each step's standard output
// on as input.txt, with the step's output files, to the next step.
func TestDemoSolutions(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every demo tool")
	}
	s, err := Load(demoSuite)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("demo/solutions.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var sol solutions
	if err := yaml.Unmarshal(data, &sol); err != nil {
		t.Fatalf("solutions.yaml: %v", err)
	}
	bin := t.TempDir()
	repoDir := map[string]string{}
	for _, r := range s.Repos {
		dir, _ := filepath.Abs(filepath.Join(s.Dir, r.Source))
		repoDir[r.ID] = dir
		rs, ok := sol.Repos[r.ID]
		if !ok {
			t.Fatalf("solutions.yaml has no entry for repo %s", r.ID)
		}
		for _, argv := range rs.Setup {
			argv = expand(argv, dir, bin)
			cmd := osexec.CommandContext(t.Context(), argv[0], argv[1:]...)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("setup of %s: %v: %v\n%s", r.ID, argv, err, out)
			}
		}
	}
	exec := func(t *testing.T, dir string, prefix, args []string, env map[string]string, work string) (Output, error) {
		t.Helper()
		argv := expand(append(append([]string{}, prefix...), args...), dir, bin)
		before := listFiles(work)
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
		defer cancel()
		cmd := osexec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+expand([]string{v}, dir, bin)[0])
		}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			return Output{}, fmt.Errorf("%v: %w\n%s", argv, err, stderr.String())
		}
		out := Output{Text: stdout.String()}
		for name := range listFiles(work) {
			if !before[name] {
				b, _ := os.ReadFile(filepath.Join(work, name))
				out.Files = append(out.Files, File{Name: name, Data: b})
			}
		}
		return out, nil
	}
	run := func(t *testing.T, repo string, args []string, work string) Output {
		t.Helper()
		rs := sol.Repos[repo]
		out, err := exec(t, repoDir[repo], rs.Prefix, args, rs.Env, work)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, c := range s.Cases {
		if c.Type == Commission {
			t.Run(c.ID, func(t *testing.T) {
				verifyCommission(t, s, &c, sol.Commissions[c.ID].Prefix, sol.Commissions[c.ID].Cases, exec)
			})
			continue
		}
		t.Run(c.ID, func(t *testing.T) {
			node, ok := sol.Tasks[c.ID]
			if !ok {
				t.Fatalf("solutions.yaml has no solution for %s", c.ID)
			}
			var steps [][]string
			if c.Type == Single {
				var args []string
				if err := node.Decode(&args); err != nil {
					t.Fatalf("solution of %s: %v", c.ID, err)
				}
				steps = [][]string{args}
			} else if err := node.Decode(&steps); err != nil {
				t.Fatalf("solution of %s: %v", c.ID, err)
			}
			repos := []string{c.Repo}
			if c.Type == Chain {
				repos = nil
				for _, st := range c.Steps {
					repos = append(repos, st.Repo)
				}
			}
			if len(steps) != len(repos) {
				t.Fatalf("solution has %d steps, the task %d", len(steps), len(repos))
			}
			var out Output
			for i, args := range steps {
				work := t.TempDir()
				if i == 0 && c.Input != nil {
					for _, f := range c.Input.Files {
						copyFile(t, filepath.Join(s.Dir, f), filepath.Join(work, filepath.Base(f)))
					}
				} else if i > 0 {
					writeFile(t, filepath.Join(work, "input.txt"), []byte(out.Text))
					for _, f := range out.Files {
						writeFile(t, filepath.Join(work, f.Name), f.Data)
					}
				}
				out = run(t, repos[i], args, work)
			}
			if ok, res := Eval(c.Expect, out); !ok {
				for _, r := range res {
					if !r.Pass {
						t.Errorf("check %s: %s", r.Check, r.Reason)
					}
				}
				t.Logf("output:\n%s", out.Text)
			}
		})
	}
}

type execFunc func(t *testing.T, dir string, prefix, args []string, env map[string]string, work string) (Output, error)

// verifyCommission runs a commission's dev and held-out cases against its
// reference delivery, which must pass them all, and against each control,
// which must pass the dev cases (it looks complete) and fail a held-out one.
func verifyCommission(t *testing.T, s *Suite, c *Case, prefix []string, argvs map[string][]string, exec execFunc) {
	if c.Reference == "" {
		return
	}
	if len(prefix) == 0 {
		t.Fatalf("solutions.yaml has no commission entry for %s", c.ID)
	}
	passes := func(t *testing.T, delivery string, ec EvalCase) bool {
		args, ok := argvs[ec.ID]
		if !ok {
			t.Fatalf("solutions.yaml has no argv for case %s", ec.ID)
		}
		work := t.TempDir()
		if ec.Input != nil {
			for _, f := range ec.Input.Files {
				copyFile(t, filepath.Join(s.Dir, f), filepath.Join(work, filepath.Base(f)))
			}
		}
		dir, _ := filepath.Abs(filepath.Join(s.Dir, delivery))
		out, err := exec(t, dir, prefix, args, nil, work)
		if err != nil {
			t.Logf("%s on %s: %v", delivery, ec.ID, err)
			return false
		}
		ok, res := Eval(ec.Expect, out)
		if !ok {
			t.Logf("%s on %s: %+v", delivery, ec.ID, res)
		}
		return ok
	}
	for _, ec := range append(append([]EvalCase{}, c.Cases.Dev.Cases...), c.Cases.Heldout.Cases...) {
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

func expand(argv []string, repo, bin string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = strings.NewReplacer("{{repo}}", repo, "{{bin}}", bin).Replace(a)
	}
	return out
}

func listFiles(dir string) map[string]bool {
	m := map[string]bool{}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Type().IsRegular() {
			m[e.Name()] = true
		}
	}
	return m
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dst, b)
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(fmt.Errorf("write %s: %w", path, err))
	}
}
