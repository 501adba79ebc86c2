package cli

import (
	"context"
	"fmt"
	"os/signal"
	"runtime/debug"
	"strconv"
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
		Args:                       unknownCommand,
		RunE:                       func(cmd *cobra.Command, args []string) error { return cmd.Help() },
		SuggestionsMinimumDistance: 2,
	}
	root.SetIn(env.Stdin)
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return usageError("%s: %v (see '%s --help')", cmd.CommandPath(), err, cmd.CommandPath())
	})
	root.SetVersionTemplate("agentnet {{.Version}}\n")

	for _, add := range commands {
		root.AddCommand(add(env))
	}
	// Cobra's completion command (bash, zsh, fish, powershell), added here
	// rather than on Execute so that it is part of the tree like any other.
	root.InitDefaultCompletionCmd()
	// Cobra reports unknown subcommands of groups without a RunE as help, or
	// as "unknown command" without the exit code; make them usage errors.
	for _, c := range root.Commands() {
		if c.HasSubCommands() && c.RunE == nil && c.Run == nil {
			c.Args = unknownCommand
			c.SuggestionsMinimumDistance = 2
			c.RunE = func(cmd *cobra.Command, args []string) error { return cmd.Help() }
		}
	}
	return root
}

// unknownCommand is the Args of a command that only groups others: any
// argument is a subcommand it does not have, a usage error that names the
// nearest ones (cobra's suggestions, within SuggestionsMinimumDistance).
func unknownCommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	hint := ""
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		hint = "; did you mean " + strings.Join(quoteAll(s), " or ") + "?"
	}
	return usageError("%s: unknown command %q%s (see '%s --help')", cmd.CommandPath(), args[0], hint, cmd.CommandPath())
}

func quoteAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = strconv.Quote(s)
	}
	return out
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
	newCompareCmd,
	newSendCmd,
	newKeysCmd,
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
