package host

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentnet/agentnet/internal/proc"
)

// runSpec is one process to run.
type runSpec struct {
	argv      []string
	dir       string
	env       []string
	timeout   time.Duration
	maxOutput int
	stdin     io.Reader // what the process reads; nil reads nothing
}

// runResult is what a finished process left.
type runResult struct {
	stdout    []byte
	truncated bool // stdout was longer than maxOutput
	stderr    []byte
	exitCode  int
	timedOut  bool
	killed    bool // stopped by kill (cancel or Close)
	elapsed   time.Duration
}

// runProcess runs spec to completion, in a proc.Group of its own, never
// through a shell. kill, once set through the register callback, stops the
// group at once; the timeout does the same; and when the process ends, the
// group's other processes (daemonised ones too) end with it. The returned error is only for
// a process that could not start.
func runProcess(ctx context.Context, spec runSpec, register func(kill func())) (*runResult, error) {
	if len(spec.argv) == 0 {
		return nil, errors.New("empty argv")
	}
	cmd := exec.Command(programs.look(spec.argv[0]), spec.argv[1:]...)
	cmd.Args[0] = spec.argv[0] // the name the program was called by
	cmd.Dir = spec.dir
	cmd.Env = spec.env
	stdout := &headBuffer{max: spec.maxOutput}
	stderr := &tailBuffer{max: stderrTail}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.Stdin = spec.stdin
	if f := devNull(); spec.stdin == nil && f != nil {
		cmd.Stdin = f // not opened anew for every run
	}
	// The group holds every process the skill starts, daemonised or not;
	// none outlives the task.
	group := proc.NewGroup()
	defer group.Kill()
	// Grandchildren may hold the output pipes open after the child exits.
	cmd.WaitDelay = 2 * time.Second
	start := time.Now()
	if err := group.Start(cmd); err != nil {
		return nil, fmt.Errorf("start %s: %w", spec.argv[0], err)
	}
	// The kill, the timeout and the caller's context stop the group, as
	// exec.CommandContext would, without a goroutine waiting on each.
	st := &stopper{group: group}
	timer := time.AfterFunc(spec.timeout, st.stop(false, true))
	defer timer.Stop()
	defer context.AfterFunc(ctx, st.stop(false, false))()
	register(st.stop(true, false))
	err := cmd.Wait()
	// Whatever the skill left running goes with it.
	_ = group.Kill()
	res := &runResult{stdout: stdout.buf, truncated: stdout.truncated, stderr: stderr.buf, elapsed: time.Since(start)}
	res.killed, res.timedOut = st.why()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		res.exitCode = ee.ExitCode()
		if res.exitCode == 0 {
			res.exitCode = -1 // killed by a signal
		}
	case errors.Is(err, exec.ErrWaitDelay):
	default:
		res.exitCode = -1
	}
	return res, nil
}

// stopper stops a run's group and remembers why: killed (cancel, Close) or
// timed out; the caller's context going away is neither.
type stopper struct {
	group    *proc.Group
	mu       sync.Mutex
	killed   bool
	timedOut bool
}

func (s *stopper) stop(byKill, byTimeout bool) func() {
	return func() {
		s.mu.Lock()
		s.killed, s.timedOut = s.killed || byKill, s.timedOut || byTimeout
		s.mu.Unlock()
		_ = s.group.Kill()
	}
}

// why reports whether the run was killed, else whether it timed out.
func (s *stopper) why() (killed, timedOut bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.killed, s.timedOut && !s.killed
}

// headBuffer keeps the first max bytes written to it.
type headBuffer struct {
	max       int
	buf       []byte
	truncated bool
}

func (b *headBuffer) Write(p []byte) (int, error) {
	room := b.max - len(b.buf)
	if room < len(p) {
		b.truncated = true
		if room > 0 {
			b.buf = append(b.buf, p[:room]...)
		}
		return len(p), nil
	}
	b.buf = append(b.buf, p...)
	return len(p), nil
}

// ReadFrom reads r to its end into the buffer, so that os/exec copies a
// process's output without a 32 KiB buffer of its own per stream.
func (b *headBuffer) ReadFrom(r io.Reader) (int64, error) {
	var total int64
	var scratch []byte
	for {
		if len(b.buf) < b.max {
			if cap(b.buf)-len(b.buf) < 512 {
				b.buf = slices.Grow(b.buf, min(max(cap(b.buf), 512), b.max-len(b.buf)))
			}
			n, err := r.Read(b.buf[len(b.buf):min(cap(b.buf), b.max)])
			b.buf = b.buf[:len(b.buf)+n]
			total += int64(n)
			if err != nil {
				return total, eofNil(err)
			}
			continue
		}
		if scratch == nil {
			scratch = make([]byte, 4096)
		}
		n, err := r.Read(scratch)
		if n > 0 {
			b.truncated = true
		}
		total += int64(n)
		if err != nil {
			return total, eofNil(err)
		}
	}
}

// devNull is the null device, open for reading for as long as this process
// runs: the standard input of every skill that reads none.
var devNull = sync.OnceValue(func() *os.File {
	f, err := os.Open(os.DevNull)
	if err != nil {
		return nil // exec opens it itself
	}
	return f
})

func eofNil(err error) error {
	if err == io.EOF {
		return nil
	}
	return err
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	max int
	buf []byte
}

// ReadFrom reads r to its end, keeping its last max bytes (see
// headBuffer.ReadFrom).
func (b *tailBuffer) ReadFrom(r io.Reader) (int64, error) {
	var total int64
	scratch := make([]byte, 1024)
	for {
		n, err := r.Read(scratch)
		if n > 0 {
			b.Write(scratch[:n])
			total += int64(n)
		}
		if err != nil {
			return total, eofNil(err)
		}
	}
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.max; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

// programs remembers where bare program names were found on PATH.
var programs = &programCache{max: maxCachedPrograms}

// maxCachedPrograms bounds the programs remembered: skills' run templates
// name a few.
const maxCachedPrograms = 256

// programCache remembers where exec.LookPath found bare program names, so
// that a run costs one stat of the program rather than one for every
// directory on PATH before it (a dozen on a developer's PATH). A program
// found is looked up again when it is no longer an executable file where
// it was found, or PATH changed; one installed meanwhile earlier on PATH
// is found when the one remembered goes. It is safe for concurrent use.
type programCache struct {
	max  int
	mu   sync.Mutex
	path string            // the PATH the entries were found on
	at   map[string]string // name → absolute path
}

// look returns where name is found: an absolute path for a bare name found
// on PATH, and name itself otherwise (a path, or a name not found: exec
// reports it as it would).
func (c *programCache) look(name string) string {
	if name == "" || strings.ContainsRune(name, filepath.Separator) {
		return name
	}
	path := os.Getenv("PATH")
	c.mu.Lock()
	if c.path != path {
		c.path, c.at = path, nil
	}
	p, ok := c.at[name]
	c.mu.Unlock()
	if ok && executable(p) {
		return p
	}
	p, err := exec.LookPath(name)
	if err != nil || !filepath.IsAbs(p) {
		return name
	}
	c.mu.Lock()
	if c.path == path && (len(c.at) < c.max || c.at[name] != "") {
		if c.at == nil {
			c.at = map[string]string{}
		}
		c.at[name] = p
	}
	c.mu.Unlock()
	return p
}

// executable reports whether p is a regular file with an execute bit.
func executable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}
