package host

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/agentnet/agentnet/bundle"
)

// PrepareTimeout bounds one setup command (builds, installs); CheckTimeout
// one check command, which proves the environment and should be quick: a
// check that never exits (a server's --help, say) fails the bundle after it.
const (
	PrepareTimeout = 15 * time.Minute
	CheckTimeout   = 2 * time.Minute
)

// checkTimeout is CheckTimeout; tests shorten it.
var checkTimeout = CheckTimeout

// Prepare runs the bundle's setup commands (when setup is true) and then its
// check commands in the repo directory, each in its own process group, and
// stops at the first that fails. Their output goes to log (which may be
// nil). env is the commands' environment, as for WithEnv.
func Prepare(ctx context.Context, b *bundle.Bundle, setup bool, env []string, log io.Writer) error {
	if env == nil {
		env = []string{"PATH=/usr/local/bin:/usr/bin:/bin"}
	}
	var steps []struct {
		kind string
		cmd  bundle.Command
	}
	if setup {
		for _, c := range b.Setup {
			steps = append(steps, struct {
				kind string
				cmd  bundle.Command
			}{"setup", c})
		}
	}
	for _, c := range b.Check {
		steps = append(steps, struct {
			kind string
			cmd  bundle.Command
		}{"check", c})
	}
	repo := b.RepoDir()
	for i, st := range steps {
		argv, err := bundle.Expand(st.cmd, bundle.Vars{Repo: repo, Bundle: b.AbsDir()}, nil)
		if err != nil {
			return fmt.Errorf("%s command %d of bundle %s: %w", st.kind, i+1, b.Name, err)
		}
		if log != nil {
			fmt.Fprintf(log, "$ %s\n", strings.Join(argv, " "))
		}
		limit := PrepareTimeout
		if st.kind == "check" {
			limit = checkTimeout
		}
		res, err := runProcess(ctx, runSpec{argv: argv, dir: repo, env: env, timeout: limit, maxOutput: 1 << 20}, func(func()) {})
		if err != nil {
			return fmt.Errorf("%s of bundle %s: %w", st.kind, b.Name, err)
		}
		if log != nil {
			log.Write(res.stdout)
			log.Write(res.stderr)
		}
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case res.timedOut:
			return fmt.Errorf("%s of bundle %s: %q timed out after %s", st.kind, b.Name, strings.Join(argv, " "), limit)
		case res.exitCode != 0:
			return fmt.Errorf("%s of bundle %s: %q exited with status %d%s", st.kind, b.Name, strings.Join(argv, " "), res.exitCode, tail(res.stderr))
		}
	}
	return nil
}
