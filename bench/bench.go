package bench

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/agentnet/agentnet/a2a/binding"
	"github.com/agentnet/agentnet/deploy"
	"github.com/agentnet/agentnet/deploy/docker"
	_ "github.com/agentnet/agentnet/deploy/runtimes" // every runtime, for deploy.Open
	"github.com/agentnet/agentnet/eval"
	"github.com/agentnet/agentnet/internal/fetchpolicy"
	"github.com/agentnet/agentnet/internal/llm"
	"github.com/agentnet/agentnet/registry"
	"github.com/agentnet/agentnet/tasks"
)

// Options configure a run.
type Options struct {
	Suite *tasks.Suite
	// Out is the run directory (created); with Resume, the run to continue.
	Out    string
	Resume bool

	Generator   string // registered generator name (default "static")
	BuilderCmd  string // the command generator's coding agent
	Attempts    int    // generation attempts per repo: the n of pass@k (default 1)
	AllAttempts bool   // make every attempt even after a success (needed for pass@k > pass@1)
	Runtime     string // deploy runtime (default "process")
	Router      string // orchestrator router (default "bm25")
	// Binding is the A2A binding of the single and chain cases' calls:
	// jsonrpc (default), rest or grpc.
	Binding  string
	Judge    string // judge (default "rules")
	Parallel int    // trials in flight at most (default 2)

	// InstallSystemDeps lets generation install, with apt-get, the Debian
	// packages of the Python modules a repo imports and the interpreter
	// lacks (the --install-system-deps option), for every repo.
	InstallSystemDeps bool

	// Submissions and BuildTimeout are a commission builder's budget:
	// submissions at most (default 3) and time for all of them (default 30
	// minutes).
	Submissions  int
	BuildTimeout time.Duration

	// Self is the agentnet executable (its "serve" hosts bundles).
	Self string
	// Env is the environment of every process the run starts.
	Env []string
	// LLM is the model configuration when a model-backed choice is used.
	LLM *llm.Config
	// Build identifies the agentnet making the run (recorded as its
	// provenance).
	Build Build

	// Progress receives a line per finished repo and task (and per notable
	// event), with the time elapsed; nil for none. With ProgressBar
	// (Progress is a terminal) a live bar of finished items with the time
	// elapsed and left stays below those lines.
	Progress    io.Writer
	ProgressBar bool
	Logger      *slog.Logger
}

func (o *Options) defaults() {
	// Env is shared by every goroutine of the run: appending to it must copy.
	o.Env = slices.Clip(o.Env)
	if o.Generator == "" {
		o.Generator = "static"
	}
	if o.Attempts <= 0 {
		o.Attempts = 1
	}
	if o.Runtime == "" {
		o.Runtime = "process"
	}
	if o.Router == "" {
		o.Router = "bm25"
	}
	if o.Binding == "" {
		o.Binding = string(binding.JSONRPC)
	}
	if o.Judge == "" {
		o.Judge = "rules"
	}
	if o.Parallel <= 0 {
		o.Parallel = 2
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
}

// runConfig is the part of the options that decides the results.
func (o *Options) runConfig() (eval.RunConfig, error) {
	data, err := os.ReadFile(o.Suite.Path)
	if err != nil {
		return eval.RunConfig{}, fmt.Errorf("hash suite: %w", err)
	}
	sum := sha256.Sum256(data)
	cfg := eval.RunConfig{
		Suite: o.Suite.Name, SuiteSHA256: hex.EncodeToString(sum[:]),
		Generator: o.Generator, BuilderCmd: o.BuilderCmd, Attempts: o.Attempts, AllAttempts: o.AllAttempts,
		Runtime: o.Runtime, Router: o.Router, Binding: o.Binding, Judge: o.Judge,
	}
	if o.LLM != nil {
		cfg.Model = o.LLM.Model
	}
	return cfg, nil
}

// run is one bench run's state.
type run struct {
	opts    Options
	store   *eval.Store
	judge   eval.Judge
	rt      deploy.Runtime
	fileKey []byte // shared by the run's agents and chains (fetchpolicy)

	bar      *progress
	jobs     *docker.Jobs // coding agents and hidden tests in containers (docker runtime); nil otherwise
	llm      *llm.Client
	matcher  eval.SkillMatcher // the skill matcher: the llm one with --judge llm
	registry *registry.Server

	mu     sync.Mutex
	agents map[string]*deploy.Agent // repo id → its deployed agent
	byURL  map[string]string        // agent base URL → repo id
}

// Run executes the suite and returns its results, also written to the run
// directory. Stages that already have results in a resumed run are skipped.
func Run(ctx context.Context, opts Options) (*eval.Results, error) {
	started := time.Now()
	opts.defaults()
	cfg, err := opts.runConfig()
	if err != nil {
		return nil, err
	}
	prov, err := opts.provenance(started)
	if err != nil {
		return nil, err
	}
	var store *eval.Store
	if opts.Resume {
		store, err = eval.Resume(opts.Out, cfg)
	} else {
		store, err = eval.Create(opts.Out, cfg)
	}
	if err != nil {
		return nil, err
	}
	if err := store.Stamp(prov); err != nil {
		return nil, err
	}
	var model *llm.Client
	if opts.LLM != nil {
		model = llm.New(*opts.LLM)
	}
	judge, err := eval.NewJudge(opts.Judge, eval.JudgeOptions{LLM: model})
	if err != nil {
		return nil, err
	}
	// The run's agents and its chains share a key with which the chains
	// vouch for the file URLs they pass from agent to agent.
	fileKey, err := fetchpolicy.NewKey()
	if err != nil {
		return nil, err
	}
	rt, err := deploy.Open(opts.Runtime, deploy.Config{
		Self: opts.Self, Env: append(slices.Clip(opts.Env), fetchpolicy.KeyEnv+"="+hex.EncodeToString(fileKey)), LogDir: filepath.Join(opts.Out, "logs"),
	})
	if err != nil {
		return nil, err
	}
	r := &run{opts: opts, store: store, judge: judge, rt: rt, llm: model, agents: map[string]*deploy.Agent{}, byURL: map[string]string{}, fileKey: fileKey}
	if r.jobs, err = openJobs(opts.Runtime, opts.Env); err != nil {
		return nil, err
	}
	r.bar = newProgress(opts.Progress, opts.ProgressBar)
	repos, cases := 0, 0
	for _, repo := range opts.Suite.Repos {
		if _, ok := store.Repo(repo.ID); !ok {
			repos++
		}
	}
	for _, c := range opts.Suite.Cases {
		if _, ok := store.Task(c.ID); !ok {
			cases++
		}
	}
	r.bar.begin(repos + cases)
	defer r.bar.finish()
	// A first line at once, so that a log shows the run has started long
	// before its first repo is generated.
	r.bar.line("start      %d repo(s) to generate and %d task(s) to run; run directory %s", repos, cases, opts.Out)
	r.matcher = eval.RulesMatcher{Threshold: eval.DefaultMatchThreshold}
	if opts.Judge == "llm" && model != nil {
		r.matcher = &eval.LLMMatcher{Client: model}
	}
	defer r.teardown()

	if err := r.generateAll(ctx); err != nil {
		return nil, err
	}
	if err := r.deployAll(ctx); err != nil {
		return nil, err
	}
	if err := r.startRegistry(ctx); err != nil {
		return nil, err
	}
	if err := r.runCases(ctx); err != nil {
		return nil, err
	}
	if err := r.runCommissions(ctx); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res := store.Results(opts.Suite, opts.Attempts)
	if err := store.WriteResults(res); err != nil {
		return nil, err
	}
	return res, nil
}

// seconds formats a duration in milliseconds for a progress line.
func seconds(ms int64) string {
	return (time.Duration(ms) * time.Millisecond).Round(100 * time.Millisecond).String()
}

// since formats the time since start for a progress line.
func since(start time.Time) string { return time.Since(start).Round(100 * time.Millisecond).String() }

// because is a progress line's tail for a task that did not pass: why.
func because(t eval.TaskResult) string {
	if t.Pass || t.Reason == "" {
		return ""
	}
	return ": " + oneLine(t.Reason)
}

// oneLine shortens a reason to one line of a progress report.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 160 {
		return string(r[:159]) + "…"
	}
	return s
}

// teardown stops every agent the run deployed. It runs on every exit path
// with a context of its own, so that Ctrl-C still cleans up.
func (r *run) teardown() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if r.registry != nil {
		if err := r.registry.Close(); err != nil {
			r.opts.Logger.Warn("stop the registry", "err", err)
		}
	}
	r.mu.Lock()
	agents := r.agents
	r.agents = map[string]*deploy.Agent{}
	r.mu.Unlock()
	var g errgroup.Group
	for _, a := range agents {
		g.Go(func() error { return r.rt.Down(ctx, a) })
	}
	if err := g.Wait(); err != nil {
		r.opts.Logger.Warn("tear down", "err", err)
	}
	if r.jobs != nil {
		if err := r.jobs.Close(ctx); err != nil {
			r.opts.Logger.Warn("remove the job images", "err", err)
		}
	}
}

// guard runs fn, turning a panic into an error: work that runs repo code or
// plugins must not take the run down.
func guard(fn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error: %v", p)
		}
	}()
	return fn()
}

var errNoAgent = errors.New("no agent")
