package answerkey

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v4"

	"github.com/agentnet/agentnet/tasks"
)

// Key is an answer key.
type Key struct {
	Repos       map[string]Repo       `yaml:"repos"`
	Tasks       map[string]yaml.Node  `yaml:"tasks"`
	Commissions map[string]Commission `yaml:"commissions"`
}

// Repo says how a repo's real tool is set up and called.
type Repo struct {
	Debian []string          `yaml:"debian"`
	Setup  [][]string        `yaml:"setup"`
	Env    map[string]string `yaml:"env"`
	Prefix []string          `yaml:"prefix"`
}

// Commission gives the command that runs a commission's reference delivery
// and each evaluation case's arguments.
type Commission struct {
	Prefix []string            `yaml:"prefix"`
	Cases  map[string][]string `yaml:"cases"`
}

// Load reads an answer key; an unknown field is an error.
func Load(path string) (*Key, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var k Key
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&k); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for id, r := range k.Repos {
		if len(r.Prefix) == 0 {
			return nil, fmt.Errorf("%s: repo %s has no prefix", path, id)
		}
	}
	return &k, nil
}

// Expand replaces {{repo}} and {{bin}} in every argument.
func Expand(argv []string, repo, bin string) []string {
	rep := strings.NewReplacer("{{repo}}", repo, "{{bin}}", bin)
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = rep.Replace(a)
	}
	return out
}

// Steps returns the argv of each step of a single task (one) or a chain
// (one per step), checked against the case's number of steps.
func (k *Key) Steps(c *tasks.Case) ([][]string, error) {
	node, ok := k.Tasks[c.ID]
	if !ok {
		return nil, fmt.Errorf("the answer key has no answer for %s", c.ID)
	}
	var steps [][]string
	if c.Type == tasks.Single {
		var args []string
		if err := node.Decode(&args); err != nil {
			return nil, fmt.Errorf("answer of %s: %w", c.ID, err)
		}
		return [][]string{args}, nil
	}
	if err := node.Decode(&steps); err != nil {
		return nil, fmt.Errorf("answer of %s: %w", c.ID, err)
	}
	if len(steps) != len(c.Steps) {
		return nil, fmt.Errorf("answer of %s has %d steps, the chain %d", c.ID, len(steps), len(c.Steps))
	}
	return steps, nil
}

// Runner runs a suite's answers. Dirs maps each repo id to its directory;
// Bin is the directory {{bin}} expands to. Timeout bounds each command
// (two minutes when zero). A Runner is not safe for concurrent Setup.
type Runner struct {
	Key     *Key
	Suite   *tasks.Suite
	Dirs    map[string]string
	Bin     string
	Timeout time.Duration
}

// Setup runs every repo's setup commands in its directory.
func (r *Runner) Setup(ctx context.Context) error {
	for _, repo := range r.Suite.Repos {
		rk, ok := r.Key.Repos[repo.ID]
		if !ok {
			return fmt.Errorf("the answer key has no entry for repo %s", repo.ID)
		}
		dir := r.Dirs[repo.ID]
		for _, argv := range rk.Setup {
			argv = Expand(argv, dir, r.Bin)
			cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
			cmd.Dir = dir
			cmd.Env = r.env(rk.Env, dir)
			if out, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("setup of %s: %v: %w\n%s", repo.ID, argv, err, out)
			}
		}
	}
	return nil
}

// Run runs a single task's or a chain's answer and returns the last step's
// output. newDir returns a fresh empty work directory for each step.
func (r *Runner) Run(ctx context.Context, c *tasks.Case, newDir func() string) (tasks.Output, error) {
	steps, err := r.Key.Steps(c)
	if err != nil {
		return tasks.Output{}, err
	}
	repos := []string{c.Repo}
	if c.Type == tasks.Chain {
		repos = repos[:0]
		for _, st := range c.Steps {
			repos = append(repos, st.Repo)
		}
	}
	var out tasks.Output
	for i, args := range steps {
		work := newDir()
		if i == 0 && c.Input != nil {
			for _, f := range c.Input.Files {
				if err := copyFile(filepath.Join(r.Suite.Dir, f), filepath.Join(work, filepath.Base(f))); err != nil {
					return out, err
				}
			}
		} else if i > 0 {
			if err := os.WriteFile(filepath.Join(work, "input.txt"), []byte(out.Text), 0o644); err != nil {
				return out, err
			}
			for _, f := range out.Files {
				if err := os.WriteFile(filepath.Join(work, f.Name), f.Data, 0o644); err != nil {
					return out, err
				}
			}
		}
		rk, ok := r.Key.Repos[repos[i]]
		if !ok {
			return out, fmt.Errorf("the answer key has no entry for repo %s", repos[i])
		}
		if out, err = r.Exec(ctx, r.Dirs[repos[i]], rk.Prefix, args, rk.Env, work); err != nil {
			return out, fmt.Errorf("step %d: %w", i+1, err)
		}
	}
	return out, nil
}

// Exec runs prefix+args, expanded for the repo at dir, in work and returns
// its standard output and the regular files it created there.
func (r *Runner) Exec(ctx context.Context, dir string, prefix, args []string, env map[string]string, work string) (tasks.Output, error) {
	argv := Expand(append(append([]string{}, prefix...), args...), dir, r.Bin)
	before := listFiles(work)
	timeout := r.Timeout
	if timeout == 0 {
		timeout = 2 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = work
	cmd.Env = r.env(env, dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return tasks.Output{}, fmt.Errorf("%v: %w\n%s", argv, err, stderr.String())
	}
	out := tasks.Output{Text: stdout.String()}
	for name := range listFiles(work) {
		if !before[name] {
			b, err := os.ReadFile(filepath.Join(work, name))
			if err != nil {
				return out, err
			}
			out.Files = append(out.Files, tasks.File{Name: name, Data: b})
		}
	}
	return out, nil
}

func (r *Runner) env(extra map[string]string, dir string) []string {
	// PWD is left out: exec.Cmd sets it to the command's own directory only
	// when the environment has none, and tools such as go trust it.
	env := []string{"PYTHONDONTWRITEBYTECODE=1"}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PWD=") {
			env = append(env, kv)
		}
	}
	for k, v := range extra {
		env = append(env, k+"="+Expand([]string{v}, dir, r.Bin)[0])
	}
	return env
}

// Failures evaluates the checks on out and returns one line per failed check.
func Failures(expect []tasks.Check, out tasks.Output) []string {
	ok, res := tasks.Eval(expect, out)
	if ok {
		return nil
	}
	var fails []string
	for _, r := range res {
		if !r.Pass {
			fails = append(fails, fmt.Sprintf("check %s: %s", r.Check, r.Reason))
		}
	}
	return fails
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

func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}
