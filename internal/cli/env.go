package cli

import (
	"context"
	"io"
	"log/slog"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/agentnet/agentnet/internal/fetchpolicy"
)

// Env is the process state a command runs with. Main is the only reader of
// the real process; tests build their own Env.
type Env struct {
	Args   []string            // command-line arguments, without the program name
	Getenv func(string) string // environment lookup
	// Environ lists the environment ("KEY=value") handed on to the processes
	// agentnet starts (skills, setup commands); nil means none.
	Environ func() []string
	Stdin   io.Reader
	Stdout  io.Writer
	Stderr  io.Writer
	// Ctx is cancelled on interrupt; nil means context.Background().
	Ctx context.Context
	// Logger receives diagnostics; nil means a text logger on Stderr at warn level.
	Logger *slog.Logger
	// Executable is the agentnet binary that hosts agents in child processes;
	// empty means the running executable.
	Executable string
	// IsTerminal reports whether Stderr is a terminal (progress output is shown only then).
	IsTerminal bool
}

// OSEnv returns the Env of the running process.
func OSEnv() *Env {
	// Progress goes to stderr, so that is the stream that must be a terminal.
	tty := term.IsTerminal(int(os.Stderr.Fd()))
	return &Env{
		Args:       os.Args[1:],
		Getenv:     os.Getenv,
		Environ:    os.Environ,
		Stdin:      os.Stdin,
		Stdout:     os.Stdout,
		Stderr:     os.Stderr,
		IsTerminal: tty,
	}
}

func (e *Env) getenv(key string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(key)
}

// childEnv is the environment of child processes: the process's own minus
// agentnet's secrets, which no skill needs to see.
func (e *Env) childEnv() []string {
	if e.Environ == nil {
		return nil
	}
	var out []string
	for _, kv := range e.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "AGENTNET_LLM_API_KEY" || k == "AGENTNET_REGISTRY_TOKEN" || k == fetchpolicy.KeyEnv {
			continue
		}
		out = append(out, kv)
	}
	return out
}

func (e *Env) logger() *slog.Logger {
	if e.Logger != nil {
		return e.Logger
	}
	return slog.New(slog.NewTextHandler(e.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}
