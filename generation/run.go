package generation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/generation/static"
	"github.com/agentnet/agentnet/internal/llm"
)

// Defaults of Config.
const (
	DefaultGenerator = "static"
	DefaultTimeout   = 30 * time.Minute
	DefaultRepairs   = 2
)

// Config is one generation run: a repository, an output directory, a
// generator and how many attempts.
type Config struct {
	Repo string // a local path or a git URL
	Ref  string // optional commit or tag
	Out  string // the bundle directory to create
	// Generator is a registered name (default "static").
	Generator string
	// Attempts is the number of attempts (default 1); Run stops at the
	// first that passes the gate unless AllAttempts.
	Attempts    int
	AllAttempts bool
	// Force lets Run replace a non-empty Out.
	Force bool
	// Timeout bounds each attempt (default 30 minutes).
	Timeout time.Duration
	// Env is the environment of every process started (git, builds,
	// probes, coding agents), "KEY=value".
	Env []string
	// InstallSystemDeps installs, with apt-get, the Debian packages that
	// provide the modules the repository imports and the interpreter
	// lacks (the --install-system-deps option). The static generator does
	// it while it analyses; for the others it is done before the first
	// attempt.
	InstallSystemDeps bool
	// Logger receives diagnostics (default: discard); Progress, when set,
	// gets one line per attempt.
	Logger   *slog.Logger
	Progress io.Writer

	// LLM configures the llm generator; Repairs bounds its repair
	// round-trips per attempt (0 means DefaultRepairs, -1 none).
	LLM     *llm.Config
	Repairs int
	// BuilderCmd is the command line of the command generator's coding
	// agent; Upstreams overrides where its metering proxy forwards
	// ("openai", "anthropic" → base URL).
	BuilderCmd string
	Upstreams  map[string]string
	// Sandbox, when set, contains the command generator's coding agent
	// (see InSandbox); docker.Jobs.Sandbox (deploy/docker) makes one of Docker containers.
	Sandbox Sandbox
}

// ErrOutNotEmpty is returned when Out holds files and Force is not set.
var ErrOutNotEmpty = errors.New("output directory is not empty")

// Run performs the attempts of cfg and returns their report; the bundle of
// the first attempt that passed is left in cfg.Out. The error is for a run
// that could not start (bad configuration, unusable output directory);
// failed attempts are reported in the Report, not as an error.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Generator == "" {
		cfg.Generator = DefaultGenerator
	}
	if cfg.Attempts <= 0 {
		cfg.Attempts = 1
	}
	// Env is shared by concurrent runs: appending to it must copy.
	cfg.Env = slices.Clip(cfg.Env)
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	switch {
	case cfg.Repairs == 0:
		cfg.Repairs = DefaultRepairs
	case cfg.Repairs < 0:
		cfg.Repairs = 0
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Out == "" {
		return nil, errors.New("no output directory")
	}
	if cfg.Repo == "" {
		return nil, errors.New("no repository")
	}
	gen, err := newGenerator(&cfg)
	if err != nil {
		return nil, err
	}
	out, err := filepath.Abs(cfg.Out)
	if err != nil {
		return nil, fmt.Errorf("output directory: %w", err)
	}
	if err := prepareOut(out, cfg.Force); err != nil {
		return nil, err
	}
	isGit := bundle.IsGitURL(cfg.Repo) || cfg.Ref != ""
	repoArg := cfg.Repo
	if !bundle.IsGitURL(repoArg) {
		abs, err := filepath.Abs(repoArg)
		if err != nil {
			return nil, fmt.Errorf("repository %s: %w", repoArg, err)
		}
		if within(abs, out) {
			return nil, fmt.Errorf("output directory %s is inside the repository %s", cfg.Out, cfg.Repo)
		}
		repoArg = abs
	}
	name := repoName(cfg.Repo)
	rep := &Report{Repo: cfg.Repo, Out: cfg.Out, Generator: cfg.Generator}
	log := cfg.Logger.With("repo", name, "generator", cfg.Generator)

	// The source is fetched once; each attempt starts from a fresh copy.
	source := filepath.Join(out, ".agentnet", "source")
	srcLog, _ := os.Create(filepath.Join(out, ".agentnet", "source.log"))
	ref, srcErr := fetchSource(ctx, repoArg, cfg.Ref, source, cfg.Env, orDiscard(srcLog))
	if srcErr == nil && cfg.InstallSystemDeps && cfg.Generator != "static" {
		// The static generator installs while it analyses; the others get
		// the packages before their first attempt.
		pe, err := static.Environment(ctx, source, static.Options{Env: cfg.Env, Log: orDiscard(srcLog), InstallSystemDeps: true})
		switch {
		case err != nil:
			log.Warn("system packages", "err", err)
		case pe != nil && pe.Apt != nil:
			log.Info("system packages", "installed", pe.Apt.Installed, "unknown", pe.Apt.Unknown, "error", pe.Apt.Error)
		}
	}
	if srcLog != nil {
		srcLog.Close()
	}
	defer os.RemoveAll(source)

	for n := 1; n <= cfg.Attempts; n++ {
		if ctx.Err() != nil {
			break
		}
		a := attempt(ctx, &cfg, gen, n, out, source, name, isGit, ref, srcErr, feedback(rep))
		rep.Attempts = append(rep.Attempts, a)
		log.Info("attempt", "n", n, "ok", a.OK, "stage", a.Stage, "reason", a.Reason, "duration", a.Duration)
		if cfg.Progress != nil {
			status := "ok"
			if !a.OK {
				status = "failed at " + a.Stage + ": " + firstLine(a.Reason)
			}
			fmt.Fprintf(cfg.Progress, "attempt %d/%d (%s): %s, %.1fs\n", n, cfg.Attempts, cfg.Generator, status, a.Duration)
		}
		if a.OK && rep.Chosen == 0 {
			rep.Chosen = n
			if err := promote(out, n); err != nil {
				return rep, fmt.Errorf("keep the bundle of attempt %d: %w", n, err)
			}
			if !cfg.AllAttempts {
				break
			}
		}
		if srcErr != nil {
			// The same source fails the same way every time.
			break
		}
	}
	cleanAttempts(out)
	data, _ := json.MarshalIndent(rep, "", "  ")
	os.WriteFile(filepath.Join(out, ".agentnet", "report.json"), append(data, '\n'), 0o644)
	return rep, nil
}

func orDiscard(f *os.File) io.Writer {
	if f == nil {
		return io.Discard
	}
	return f
}

func feedback(rep *Report) string {
	if len(rep.Attempts) == 0 {
		return ""
	}
	last := rep.Attempts[len(rep.Attempts)-1]
	if last.OK {
		return ""
	}
	return fmt.Sprintf("attempt %d failed at %s: %s", last.N, last.Stage, last.Reason)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// prepareOut makes sure out exists and is empty (or is emptied with force).
func prepareOut(out string, force bool) error {
	entries, err := os.ReadDir(out)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return fmt.Errorf("output directory %s: %w", out, err)
	case len(entries) > 0 && !force:
		return fmt.Errorf("%w: %s (use --force to replace it)", ErrOutNotEmpty, out)
	case len(entries) > 0:
		for _, e := range entries {
			if err := os.RemoveAll(filepath.Join(out, e.Name())); err != nil {
				return fmt.Errorf("empty %s: %w", out, err)
			}
		}
	}
	if err := os.MkdirAll(filepath.Join(out, ".agentnet", "attempts"), 0o755); err != nil {
		return fmt.Errorf("output directory: %w", err)
	}
	return nil
}

func attemptDir(out string, n int) string {
	return filepath.Join(out, ".agentnet", "attempts", fmt.Sprint(n))
}

// attempt runs one attempt in Out/.agentnet/attempts/N/bundle and records it.
func attempt(ctx context.Context, cfg *Config, gen Generator, n int, out, source, name string, isGit bool, ref string, srcErr error, fb string) Attempt {
	start := time.Now()
	a := Attempt{N: n, Generator: cfg.Generator, Started: start.UTC().Truncate(time.Second), Tokens: Known(0, 0, "none")}
	dir := attemptDir(out, n)
	a.Log = filepath.ToSlash(filepath.Join(".agentnet", "attempts", fmt.Sprint(n), "generate.log"))
	finish := func(stage string, err error) Attempt {
		a.Duration = time.Since(start).Seconds()
		a.Duration = float64(int64(a.Duration*1000)) / 1000
		if err != nil {
			a.Stage, a.Reason = stage, err.Error()
		} else {
			a.OK = true
		}
		data, _ := json.MarshalIndent(a, "", "  ")
		os.WriteFile(filepath.Join(dir, "attempt.json"), append(data, '\n'), 0o644)
		return a
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return finish("source", err)
	}
	logf, err := os.Create(filepath.Join(dir, "generate.log"))
	if err != nil {
		return finish("source", err)
	}
	defer logf.Close()
	if srcErr != nil {
		fmt.Fprintf(logf, "# fetching the repository failed: %v\n", srcErr)
		return finish("source", srcErr)
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	bdir := filepath.Join(dir, "bundle")
	job := &Job{Bundle: bdir, Name: name, Attempt: n, Feedback: fb, Env: cfg.Env, Log: logf, InstallSystemDeps: cfg.InstallSystemDeps,
		Logger: cfg.Logger.With("attempt", n), Deadline: start.Add(cfg.Timeout)}
	if isGit {
		job.RepoDir = filepath.Join(bdir, ".agentnet", "repo")
		job.RepoSource, job.RepoRef = cfg.Repo, ref
	} else {
		job.RepoDir = filepath.Join(bdir, "repo")
		job.RepoSource = "repo"
	}
	if _, err := copyTree(source, job.RepoDir); err != nil {
		return finish("source", fmt.Errorf("copy the repository: %w", err))
	}
	fmt.Fprintf(logf, "# attempt %d with the %s generator\n", n, cfg.Generator)
	o, err := safeGenerate(ctx, gen, job)
	if o != nil {
		a.Tokens, a.Missing, a.Notes = o.Tokens, o.Missing, o.Notes
	}
	if err != nil {
		fmt.Fprintf(logf, "# generation failed: %v\n", err)
		return finish("generate", withMissing(err, a.Missing))
	}
	gr, err := Gate(ctx, bdir, cfg.Env, logf)
	if gr != nil {
		a.Dropped = gr.Dropped
	}
	if err != nil {
		fmt.Fprintf(logf, "# gate failed: %v\n", err)
		stage := "gate"
		var ge *GateError
		if errors.As(err, &ge) {
			stage = ge.Stage
			err = ge.Err
		}
		return finish(stage, withMissing(err, a.Missing))
	}
	a.Skills = gr.Skills
	return finish("", nil)
}

// withMissing adds the missing modules, with their Debian packages, to a
// failure's reason: they are the likely cause.
func withMissing(err error, missing []MissingModule) error {
	if len(missing) == 0 {
		return err
	}
	var parts []string
	for _, m := range missing {
		if m.Debian != "" {
			parts = append(parts, fmt.Sprintf("%s (Debian: %s)", m.Module, m.Debian))
		} else {
			parts = append(parts, m.Module)
		}
	}
	return fmt.Errorf("%w\nmissing Python modules: %s", err, strings.Join(parts, ", "))
}

// safeGenerate runs a generator, turning a panic into an error.
func safeGenerate(ctx context.Context, gen Generator, job *Job) (o *Output, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("generator panicked: %v", r)
		}
	}()
	return gen.Generate(ctx, job)
}

// promote moves attempt n's bundle into out.
func promote(out string, n int) error {
	src := filepath.Join(attemptDir(out, n), "bundle")
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() == ".agentnet" {
			sub, err := os.ReadDir(filepath.Join(src, ".agentnet"))
			if err != nil {
				return err
			}
			for _, s := range sub {
				if err := os.Rename(filepath.Join(src, ".agentnet", s.Name()), filepath.Join(out, ".agentnet", s.Name())); err != nil {
					return err
				}
			}
			continue
		}
		if err := os.Rename(filepath.Join(src, e.Name()), filepath.Join(out, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// cleanAttempts removes the attempts' repository copies, keeping their
// records, logs and agent.yaml files.
func cleanAttempts(out string) {
	dirs, _ := os.ReadDir(filepath.Join(out, ".agentnet", "attempts"))
	for _, d := range dirs {
		b := filepath.Join(out, ".agentnet", "attempts", d.Name(), "bundle")
		if data, err := os.ReadFile(filepath.Join(b, bundle.FileName)); err == nil {
			os.WriteFile(filepath.Join(out, ".agentnet", "attempts", d.Name(), bundle.FileName), data, 0o644)
		}
		os.RemoveAll(b)
	}
}
