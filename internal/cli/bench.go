package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentnet/agentnet/a2a/binding"
	"github.com/agentnet/agentnet/bench"
	"github.com/agentnet/agentnet/deploy"
	"github.com/agentnet/agentnet/eval"
	"github.com/agentnet/agentnet/generation"
	"github.com/agentnet/agentnet/internal/llm"
	"github.com/agentnet/agentnet/orchestrator"
	"github.com/agentnet/agentnet/tasks"
)

// benchFlags are the flags bench and demo share (docs/cli.md).
type benchFlags struct {
	generator, builderCmd, runtime, router, judge, out, resume string
	binding                                                    string
	junit, tasks, repos                                        string
	attempts, parallel                                         int
	allAttempts, asJSON, systemDeps, quiet                     bool
}

func (f *benchFlags) add(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.generator, "generator", "static", "generator: "+strings.Join(generation.Generators(), ", "))
	fl.StringVar(&f.builderCmd, "builder-cmd", "", "the external coding agent's command line (for --generator command)")
	fl.IntVar(&f.attempts, "attempts", 1, "generation attempts per repo: the n of Pass@k")
	fl.BoolVar(&f.allAttempts, "all-attempts", false, "make every attempt even after a success (for Pass@k with k > 1)")
	fl.BoolVar(&f.systemDeps, "install-system-deps", false, "install the Debian packages of the repos' missing Python modules with apt-get (needs root)")
	fl.StringVar(&f.runtime, "runtime", "process", "where agents run: "+strings.Join(deploy.Runtimes(), ", "))
	fl.StringVar(&f.router, "router", "bm25", "chain router: "+strings.Join(orchestrator.Routers(), ", ")+" (a2a=URL: your own orchestrator agent)")
	fl.StringVar(&f.binding, "binding", "jsonrpc", "the A2A binding of the single and chain cases' calls: jsonrpc, rest or grpc")
	fl.StringVar(&f.judge, "judge", "rules", "judge: "+strings.Join(eval.JudgeNames(), ", "))
	fl.IntVar(&f.parallel, "parallel", 2, "trials in flight at most")
	fl.StringVar(&f.out, "out", "", "the run directory (default $AGENTNET_HOME/runs/SUITE-TIME)")
	fl.StringVar(&f.resume, "resume", "", "continue the run in `RUN_DIR`, running only what is missing")
	fl.BoolVar(&f.asJSON, "json", false, "print results.json instead of the tables")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "print no progress on stderr (by default a line per finished repo and task, and a live bar on a terminal)")
	fl.StringVar(&f.junit, "junit", "", "also write the results as JUnit XML to `FILE`: one test case per repo's generation and per task")
	fl.StringVar(&f.tasks, "tasks", "", "run only the tasks whose id matches `GLOB` (path.Match syntax, e.g. 'chain-*')")
	fl.StringVar(&f.repos, "repos", "", "run only the repos whose id matches `GLOB`, and the tasks that need no other repo")
}

// check validates the flags on their own, before any work is done.
func (f *benchFlags) check(env *Env) error {
	if f.attempts < 1 {
		return usageError("--attempts must be at least 1, got %d", f.attempts)
	}
	if f.parallel < 1 {
		return usageError("--parallel must be at least 1, got %d", f.parallel)
	}
	if !generation.IsRegistered(f.generator) {
		return usageError("unknown generator %q (want one of %s)", f.generator, strings.Join(generation.Generators(), ", "))
	}
	if f.generator == "command" && f.builderCmd == "" {
		return usageError("--generator command needs --builder-cmd")
	}
	if !contains(deploy.Runtimes(), f.runtime) {
		return usageError("unknown runtime %q (want one of %s)", f.runtime, strings.Join(deploy.Runtimes(), ", "))
	}
	routerName, _, _ := strings.Cut(f.router, "=")
	if !contains(orchestrator.Routers(), routerName) {
		return usageError("unknown router %q (want one of %s)", f.router, strings.Join(orchestrator.Routers(), ", "))
	}
	if _, err := binding.Parse(f.binding); err != nil {
		return usageError("--binding: %v", err)
	}
	if !contains(eval.JudgeNames(), f.judge) {
		return usageError("unknown judge %q (want one of %s)", f.judge, strings.Join(eval.JudgeNames(), ", "))
	}
	if _, ok := llm.ConfigFrom(env.getenv); !ok && (f.generator == "llm" || routerName == "llm" || f.judge == "llm") {
		return usageError("an llm choice needs a model: set AGENTNET_LLM_BASE_URL, AGENTNET_LLM_MODEL (and AGENTNET_LLM_API_KEY)")
	}
	if f.junit != "" {
		if fi, err := os.Stat(filepath.Dir(f.junit)); err != nil || !fi.IsDir() {
			return usageError("--junit %s: its directory does not exist", f.junit)
		}
	}
	if f.resume != "" && f.out != "" && filepath.Clean(f.out) != filepath.Clean(f.resume) {
		return usageError("--out and --resume name different run directories")
	}
	return nil
}

// options consolidates flags, AGENTNET_* variables and defaults into the
// bench's options.
func (f *benchFlags) options(env *Env, suite *tasks.Suite) (bench.Options, error) {
	if err := f.check(env); err != nil {
		return bench.Options{}, err
	}
	if err := subset(suite, f.tasks, f.repos); err != nil {
		return bench.Options{}, err
	}
	var model *llm.Config
	if cfg, ok := llm.ConfigFrom(env.getenv); ok {
		model = &cfg
	}
	self, err := env.executable()
	if err != nil {
		return bench.Options{}, err
	}
	out, resume := f.out, false
	if f.resume != "" {
		out, resume = f.resume, true
	}
	if out == "" {
		out = filepath.Join(agentnetHomeDir(env), "runs", fmt.Sprintf("%s-%s", suite.Name, time.Now().Format("20060102-150405")))
	}
	o := bench.Options{
		Suite: suite, Out: out, Resume: resume,
		Generator: f.generator, BuilderCmd: f.builderCmd, Attempts: f.attempts, AllAttempts: f.allAttempts,
		InstallSystemDeps: f.systemDeps, Runtime: f.runtime, Router: f.router, Binding: strings.ToLower(strings.TrimSpace(f.binding)), Judge: f.judge, Parallel: f.parallel,
		Self: self, Env: env.childEnv(), LLM: model, Logger: env.logger(), Build: readBuildInfo().bench(),
	}
	if !f.quiet {
		o.Progress, o.ProgressBar = env.Stderr, env.IsTerminal
	}
	return o, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// runBench runs o and prints the results: tables (or JSON) and the run
// directory.
func runBench(cmd *cobra.Command, env *Env, o bench.Options, f *benchFlags) error {
	res, err := bench.Run(cmd.Context(), o)
	if err != nil {
		if cmd.Context().Err() != nil {
			return fmt.Errorf("interrupted; the finished trials are kept: continue with --resume %s", o.Out)
		}
		var mm *eval.ConfigMismatchError
		if errors.As(err, &mm) {
			return invalidInput(err)
		}
		return fmt.Errorf("bench %s: %w", o.Suite.Name, err)
	}
	if f.junit != "" {
		if err := eval.JUnit(res).WriteFile(f.junit); err != nil {
			return err
		}
	}
	if f.asJSON {
		return writeJSON(env.Stdout, res)
	}
	if err := eval.WriteTables(env.Stdout, res); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "\nRun directory: %s (report.html, results.json, traces)\n", o.Out)
	return nil
}

func newBenchCmd(env *Env) *cobra.Command {
	var f benchFlags
	cmd := &cobra.Command{
		Use:   "bench SUITE",
		Short: "Run a suite end to end: generate, deploy, register, run, score, report",
		Long: `Bench generates every repo's agent (--attempts per repo), deploys the fleet,
registers its cards in an embedded registry, runs the single tasks against their
own repo's agent and the chains through the orchestrator and --router, scores
everything with --judge, writes the run directory (config.json, results.json,
report.html, traces, artifacts) and tears the fleet down. Each trial is saved as
it finishes; --resume continues an interrupted run.`,
		Example: `  agentnet bench suite.yaml
  agentnet bench suite.yaml --attempts 3 --all-attempts --parallel 4
  agentnet bench suite.yaml --repos 'csv*' --tasks 'csvtool-*' --junit results.xml
  agentnet bench suite.yaml --resume ~/.agentnet/runs/demo-20261129-101500`,
		Args: exactArgs(1, "SUITE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			suite, err := loadSuite(args[0])
			if err != nil {
				return err
			}
			abs, err := filepath.Abs(suite.Path)
			if err == nil {
				suite.Path, suite.Dir = abs, filepath.Dir(abs)
			}
			o, err := f.options(env, suite)
			if err != nil {
				return err
			}
			return runBench(cmd, env, o, &f)
		},
	}
	f.add(cmd)
	return cmd
}

func newDemoCmd(env *Env) *cobra.Command {
	var f benchFlags
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run the bundled demo suite end to end (no network, no Docker, no API key)",
		Long: `Demo runs the benchmark on the demo suite embedded in agentnet: eleven small
repos (Go, Python, POSIX shell, Node; tools and libraries) made into agents by the static
generator, deployed as local processes, registered in an embedded registry,
with chains routed by BM25 and outputs judged by the rules judge. It prints
the paper-style tables and the run directory, and stops everything it started.`,
		Example: "  agentnet demo\n  agentnet demo --parallel 4 --json\n  agentnet demo --tasks 'chain-*' --junit demo.xml",
		Args:    exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.check(env); err != nil {
				return err
			}
			base := f.out
			if f.resume != "" {
				base = f.resume
			}
			if base == "" {
				base = filepath.Join(agentnetHomeDir(env), "runs", "demo-"+time.Now().Format("20060102-150405"))
				f.out = base
			}
			suiteDir := filepath.Join(base, "suite")
			if err := os.RemoveAll(suiteDir); err != nil {
				return err
			}
			path, err := tasks.ExtractDemo(suiteDir)
			if err != nil {
				return err
			}
			suite, err := loadSuite(path)
			if err != nil {
				return err
			}
			o, err := f.options(env, suite)
			if err != nil {
				return err
			}
			return runBench(cmd, env, o, &f)
		},
	}
	f.add(cmd)
	return cmd
}
