package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/deploy"
	"github.com/agentnet/agentnet/deploy/docker"
	"github.com/agentnet/agentnet/generation"
	"github.com/agentnet/agentnet/internal/llm"
)

func newGenerateCmd(env *Env) *cobra.Command {
	var (
		out, gen, ref, builder string
		runtime                string
		attempts               int
		all, asJSON, force     bool
		systemDeps             bool
		timeout                time.Duration
	)
	cmd := &cobra.Command{
		Use:   "generate REPO --out DIR",
		Short: "Make an agent bundle from a repo (a path or a git URL)",
		Long: `Generate turns a repository into an agent bundle (agent.yaml and a copy of the
repository) in DIR, and checks it with the generation gate: the bundle must
load, set up, pass its check, be served by the host, and its card must pass
validation and lint with at least one skill.

REPO is a local directory (copied, never modified) or a git URL, cloned with
the system git so your credentials, mirrors and proxies apply; --ref picks a
commit or tag.

Generators: static (the default: analysis of entry points, builds and --help,
no model), llm (an OpenAI-compatible model; needs AGENTNET_LLM_BASE_URL and
AGENTNET_LLM_MODEL), command (an external coding agent run with --builder-cmd;
its model traffic is metered through a local proxy set in OPENAI_BASE_URL and
ANTHROPIC_BASE_URL). With --runtime docker, that coding agent runs in a Docker
container that sees the attempt's bundle directory (with the repository's copy)
and nothing else of this machine, and reaches the proxy and no other network.

Python repositories get a virtual environment (with the system's site
packages) built by the interpreter that sees most of their imports; the
repository is installed into it with pip, offline, or runs from source. The
Debian packages of missing modules are reported, and installed with apt-get
when --install-system-deps is given. Libraries without a command line get
skills through a wrapper generated into the bundle.

Up to --attempts attempts run; generation stops at the first that passes the
gate unless --all-attempts (for Pass@k). Each attempt's record and log are
kept in DIR/.agentnet/attempts/N. The exit status is 0 when an attempt
passed, 1 when none did.`,
		Example: `  agentnet generate ./tools/textkit --out out/textkit
  agentnet generate https://github.com/owner/tool.git --ref v1.2.0 --out out/tool
  agentnet generate ./pylib --out out/pylib --install-system-deps
  agentnet generate ./repo --out out/repo --generator llm --attempts 3 --all-attempts --json
  agentnet generate ./repo --out out/repo --generator command --builder-cmd 'claude -p "$(cat {prompt_file})"'`,
		Args: exactArgs(1, "REPO"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usageError("generate: --out DIR is required (see 'agentnet generate --help')")
			}
			if attempts < 1 {
				return usageError("generate: --attempts must be at least 1, got %d", attempts)
			}
			if !generation.IsRegistered(gen) {
				return usageError("generate: unknown generator %q (one of %s)", gen, strings.Join(generation.Generators(), ", "))
			}
			repo := args[0]
			if !bundle.IsGitURL(repo) {
				fi, err := os.Stat(repo)
				if err != nil {
					return invalidInput(fmt.Errorf("generate: repository %s: %w", repo, errors.Unwrap(err)))
				}
				if !fi.IsDir() {
					return invalidInput(fmt.Errorf("generate: repository %s is not a directory", repo))
				}
			}
			cfg := generation.Config{
				Repo: repo, Ref: ref, Out: out, Generator: gen, Attempts: attempts, AllAttempts: all,
				Force: force, Timeout: timeout, Env: env.childEnv(), Logger: env.logger(), BuilderCmd: builder,
				InstallSystemDeps: systemDeps,
			}
			if cfg.Env == nil {
				cfg.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin"}
			}
			switch gen {
			case "llm":
				c, ok := llm.ConfigFrom(env.Getenv)
				if !ok {
					return usageError("generate: the llm generator needs AGENTNET_LLM_BASE_URL and AGENTNET_LLM_MODEL")
				}
				cfg.LLM = &c
			case "command":
				if strings.TrimSpace(builder) == "" {
					return usageError("generate: the command generator needs --builder-cmd CMD")
				}
			}
			switch runtime {
			case "process":
			case "docker":
				jobs, err := docker.NewJobs(deploy.Config{Env: cfg.Env})
				if err != nil {
					return err
				}
				defer jobs.Close(context.WithoutCancel(cmd.Context()))
				cfg.Sandbox = jobs.Sandbox("generate-" + filepath.Base(filepath.Clean(repo)))
			default:
				return usageError("generate: unknown runtime %q (want process or docker)", runtime)
			}
			if env.IsTerminal && !asJSON {
				cfg.Progress = env.Stderr
			}
			rep, err := generation.Run(cmd.Context(), cfg)
			if err != nil {
				if errors.Is(err, generation.ErrOutNotEmpty) {
					return usageError("generate: %v", err)
				}
				return err
			}
			if asJSON {
				if err := writeJSON(env.Stdout, rep); err != nil {
					return err
				}
			} else {
				printReport(env.Stdout, rep)
			}
			if !rep.OK() {
				return silentFailure{code: ExitFailed}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVarP(&out, "out", "o", "", "the bundle directory to create (required; must be empty or absent)")
	f.StringVarP(&gen, "generator", "g", generation.DefaultGenerator, "generator: "+strings.Join(generation.Generators(), ", "))
	f.IntVarP(&attempts, "attempts", "n", 1, "generation attempts (the n of Pass@k)")
	f.BoolVar(&all, "all-attempts", false, "run every attempt even after one passes (for Pass@k)")
	f.StringVar(&ref, "ref", "", "commit or tag to check out (git URLs, or a local git repository)")
	f.StringVar(&builder, "builder-cmd", "", "command line of the coding agent for --generator command; {prompt_file}, {prompt} and {bundle_dir} are replaced")
	f.StringVar(&runtime, "runtime", "process", "where the command generator's coding agent runs: process, or docker (a container that sees only the attempt's bundle)")
	f.DurationVar(&timeout, "timeout", generation.DefaultTimeout, "time budget of one attempt")
	f.BoolVar(&force, "force", false, "replace the contents of a non-empty --out directory")
	f.BoolVar(&asJSON, "json", false, "print the attempts as JSON")
	f.BoolVar(&systemDeps, "install-system-deps", false, "install the Debian packages of missing Python modules with apt-get (needs root)")
	return cmd
}

func printReport(w io.Writer, rep *generation.Report) {
	for _, a := range rep.Attempts {
		status := "ok"
		if !a.OK {
			status = "failed at " + a.Stage
		}
		fmt.Fprintf(w, "attempt %d (%s): %s in %.1fs, tokens %s\n", a.N, a.Generator, status, a.Duration, a.Tokens)
		if a.OK {
			fmt.Fprintf(w, "  skills: %s\n", strings.Join(a.Skills, ", "))
			// What was left out, and why, matters as much as what made it.
			for _, n := range a.Notes {
				fmt.Fprintf(w, "  note: %s\n", n)
			}
		} else {
			for _, ln := range strings.Split(strings.TrimSpace(a.Reason), "\n") {
				fmt.Fprintf(w, "  %s\n", ln)
			}
		}
		for _, m := range a.Missing {
			fmt.Fprintf(w, "  missing Python module %s (Debian package %s)\n", m.Module, m.Debian)
		}
		fmt.Fprintf(w, "  log: %s\n", a.Log)
	}
	if rep.OK() {
		fmt.Fprintf(w, "bundle: %s (attempt %d of %d passed the gate)\n", rep.Out, rep.Chosen, len(rep.Attempts))
	} else {
		fmt.Fprintf(w, "no attempt passed the gate (%d tried); see the logs above\n", len(rep.Attempts))
	}
}
