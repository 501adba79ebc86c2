package proc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// DefaultMaxOutput bounds the standard output and error kept from a run.
const DefaultMaxOutput = 1 << 20

// Spec is one process to run.
type Spec struct {
	Argv      []string
	Dir       string
	Env       []string // nil means a minimal PATH
	Timeout   time.Duration
	MaxOutput int       // bytes of stdout (and of stderr) kept; 0 means DefaultMaxOutput
	Stdin     io.Reader // nil means no input
	// Tee, when set, also receives stdout and stderr as they come (unbounded).
	Tee io.Writer
}

// Result is what a finished process left.
type Result struct {
	Stdout   []byte
	Stderr   []byte
	ExitCode int
	TimedOut bool
	Elapsed  time.Duration
	// Err is nil only when the process started and exited with status 0; it
	// says why not (could not start, timed out, canceled, exit status with
	// the tail of stderr).
	Err error
}

// Run runs spec to completion. It never returns a nil Result.
func Run(ctx context.Context, spec Spec) *Result {
	res := &Result{ExitCode: -1}
	if len(spec.Argv) == 0 {
		res.Err = errors.New("empty command")
		return res
	}
	if spec.Timeout <= 0 {
		spec.Timeout = time.Minute
	}
	max := spec.MaxOutput
	if max <= 0 {
		max = DefaultMaxOutput
	}
	env := spec.Env
	if env == nil {
		env = []string{"PATH=/usr/local/bin:/usr/bin:/bin"}
	}
	// The limit that applies is the earlier of the spec's and the caller's
	// deadline (an attempt's budget): a timeout names that one.
	limit := spec.Timeout
	if d, ok := ctx.Deadline(); ok && time.Until(d) < limit {
		limit = time.Until(d).Round(time.Millisecond)
		if limit >= time.Second {
			limit = limit.Round(time.Second)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, spec.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, spec.Argv[0], spec.Argv[1:]...)
	cmd.Dir = spec.Dir
	cmd.Env = env
	cmd.Stdin = spec.Stdin
	stdout, stderr := &Limited{Max: max}, &Limited{Max: max}
	if spec.Tee != nil {
		cmd.Stdout, cmd.Stderr = io.MultiWriter(stdout, spec.Tee), io.MultiWriter(stderr, spec.Tee)
	} else {
		cmd.Stdout, cmd.Stderr = stdout, stderr
	}
	group := NewGroup()
	defer group.Kill()
	cmd.Cancel = group.Kill
	// Grandchildren may hold the pipes open after the child exits.
	cmd.WaitDelay = 2 * time.Second
	start := time.Now()
	if err := group.Start(cmd); err != nil {
		res.Err = fmt.Errorf("start %s: %w", spec.Argv[0], err)
		return res
	}
	err := cmd.Wait()
	// Whatever the program left running, daemonised or not, goes with it.
	_ = group.Kill()
	res.Elapsed = time.Since(start)
	res.Stdout, res.Stderr = stdout.Buf, stderr.Buf
	res.TimedOut = errors.Is(ctx.Err(), context.DeadlineExceeded)
	var ee *exec.ExitError
	switch {
	case err == nil:
		res.ExitCode = 0
	case errors.As(err, &ee):
		res.ExitCode = ee.ExitCode()
	case errors.Is(err, exec.ErrWaitDelay):
		res.ExitCode = 0
	}
	name := strings.Join(spec.Argv, " ")
	if len(name) > 200 {
		name = name[:200] + "…"
	}
	switch {
	case res.TimedOut:
		res.Err = fmt.Errorf("%q timed out after %s and was killed", name, limit)
	case ctx.Err() != nil:
		res.Err = fmt.Errorf("%q: %w", name, ctx.Err())
	case res.ExitCode != 0:
		res.Err = fmt.Errorf("%q exited with status %d%s", name, res.ExitCode, Tail(res.Stderr, 2000))
	}
	return res
}

// Tail returns ": " and the last n bytes of out, trimmed, or "" for none.
func Tail(out []byte, n int) string {
	s := strings.TrimSpace(strings.ToValidUTF8(string(out), "?"))
	if s == "" {
		return ""
	}
	if len(s) > n {
		s = "…" + s[len(s)-n:]
	}
	return ": " + s
}

// Limited keeps the first Max bytes written to it in Buf and drops the
// rest, never failing a write: a bounded capture of a program's output.
type Limited struct {
	Max int
	Buf []byte
}

func (b *Limited) Write(p []byte) (int, error) {
	if room := b.Max - len(b.Buf); room > 0 {
		b.Buf = append(b.Buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}
