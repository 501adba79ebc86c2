package cli

import (
	"context"
	"fmt"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
)

// Version is the agentnet version; release builds set it with
// -ldflags "-X github.com/agentnet/agentnet/internal/cli.Version=v1.2.3".
var Version = ""

func version() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "v0.0.0-dev"
}

// Main runs agentnet with env and returns the process exit code. It is the
// one place where errors become exit codes and messages on stderr; a panic in
// a command is reported as an internal error, never as a Go stack trace.
func Main(env *Env) int { return mainWith(env, newRootCmd) }

func mainWith(env *Env, newRoot func(*Env) *cobra.Command) (code int) {
	ctx := env.Ctx
	if ctx == nil {
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
		defer stop()
	}
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(env.Stderr, "agentnet: internal error: %v\n", r)
			code = ExitFailed
		}
	}()
	root := newRoot(env)
	root.SetArgs(env.Args)
	err := root.ExecuteContext(ctx)
	if err != nil {
		printError(env.Stderr, err)
	}
	return exitCode(err)
}

func newRootCmd(env *Env) *cobra.Command {
	root := &cobra.Command{
		Use:   "agentnet",
		Short: "A testbed for A2A agent networks built from code repositories",
		Long: `agentnet turns code repositories into A2A agents, serves and deploys them as a
fleet, registers their cards, routes multi-repo chains through an orchestrator
and scores the result (SW-A²-Bench metrics, commission tasks, audits).`,
		Version:       version(),
		SilenceErrors: true,
		SilenceUsage:  true,
		// A bare "agentnet" prints help; an unknown word is a usage error.
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError("unknown command %q for %q (see 'agentnet --help')", args[0], cmd.CommandPath())
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	root.SetIn(env.Stdin)
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return usageError("%s: %v (see '%s --help')", cmd.CommandPath(), err, cmd.CommandPath())
	})
	root.SetVersionTemplate("agentnet {{.Version}}\n")
	root.CompletionOptions.DisableDefaultCmd = true

	for _, add := range commands {
		root.AddCommand(add(env))
	}
	// Cobra reports unknown subcommands of groups without a RunE as help; make
	// them usage errors instead.
	for _, c := range root.Commands() {
		if c.HasSubCommands() && c.RunE == nil && c.Run == nil {
			c.Args = func(cmd *cobra.Command, args []string) error {
				if len(args) > 0 {
					return usageError("unknown command %q for %q (see '%s --help')", args[0], cmd.CommandPath(), cmd.CommandPath())
				}
				return nil
			}
			c.RunE = func(cmd *cobra.Command, args []string) error { return cmd.Help() }
		}
	}
	return root
}

// commands lists the constructors of the top-level commands, one per file.
var commands = []func(*Env) *cobra.Command{
	newSuiteCmd,
	newSchemaCmd,
	newServeCmd,
	newFleetCmd,
	newRegistryCmd,
	newAuditCmd,
	newReportCmd,
	newBenchCmd,
	newDemoCmd,
	newGenerateCmd,
	newRunCmd,
	newVersionCmd,
}

// exactArgs is cobra.ExactArgs with the contract's exit code for bad usage.
func exactArgs(n int, names ...string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			want := strings.Join(names, " ")
			return usageError("%s: want %d argument(s) %s, got %d (see '%s --help')", cmd.CommandPath(), n, want, len(args), cmd.CommandPath())
		}
		return nil
	}
}

// minArgs is cobra.MinimumNArgs with the contract's exit code for bad usage.
func minArgs(n int, names ...string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < n {
			return usageError("%s: want at least %d argument(s) %s, got %d (see '%s --help')", cmd.CommandPath(), n, strings.Join(names, " "), len(args), cmd.CommandPath())
		}
		return nil
	}
}
