package static

import (
	"fmt"
	"os"
	"path"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/agentnet/agentnet/internal/proc"
)

// defaultSetupBase is a setup command's budget for a small repository
// on a quiet machine.
const defaultSetupBase = 10 * time.Minute

// setupLimit is the time each setup command may take, and why that much.
type setupLimit struct {
	d   time.Duration
	why string
}

// buildBudget is how long one setup command (a build, an environment)
// may run when the caller set no limit: a base for a small repository on
// a quiet machine, scaled by the work (the source files to compile, the
// dependencies to fetch and build) and by the machine's load, so that a
// build that takes seconds on a quiet machine is not killed on a busy one.
type buildBudget struct {
	base    time.Duration
	sources int     // files a build compiles
	deps    int     // modules it fetches (go.sum)
	load    float64 // runnable processes, averaged over a minute
	cores   int
}

// Bounds of the scaling: the work at most triples the base, the load at
// most quadruples it.
const (
	maxWorkFactor  = 3.0
	maxLoadFactor  = 4.0
	sourcesPerUnit = 2000 // source files that add one base
	depsPerUnit    = 200  // dependencies that add one base
)

// limit is the budget's duration.
func (b buildBudget) limit() time.Duration {
	work := min(1+float64(b.sources)/sourcesPerUnit+float64(b.deps)/depsPerUnit, maxWorkFactor)
	busy := 1.0
	if b.cores > 0 {
		busy = min(max(b.load/float64(b.cores), 1), maxLoadFactor)
	}
	return time.Duration(float64(b.base) * work * busy).Round(time.Second)
}

// String says what the budget was made of, for a timeout's message.
func (b buildBudget) String() string {
	return fmt.Sprintf("%s: %d source files, %d dependencies, load %.1f on %d cores", b.limit(), b.sources, b.deps, b.load, b.cores)
}

// sourceExts are the files a build compiles.
var sourceExts = map[string]bool{".go": true, ".c": true, ".h": true, ".cc": true, ".cpp": true, ".cxx": true, ".hpp": true,
	".rs": true, ".py": true, ".pyx": true, ".ts": true, ".tsx": true, ".js": true, ".mjs": true, ".java": true, ".kt": true}

// repoBudget measures a repository's work for a budget of base on this
// machine.
func repoBudget(r *repo, base time.Duration) buildBudget {
	b := buildBudget{base: base, load: loadAverage(), cores: runtime.NumCPU()}
	for _, f := range r.files {
		if sourceExts[path.Ext(f)] {
			b.sources++
		}
	}
	if data, ok := r.read("go.sum", 8<<20); ok {
		mods := map[string]bool{}
		for _, ln := range strings.Split(string(data), "\n") {
			if f := strings.Fields(ln); len(f) > 0 {
				mods[f[0]] = true
			}
		}
		b.deps = len(mods)
	}
	return b
}

// defaultProbeBase is the time one help probe (a program's --help, an
// import check) may take on a quiet machine.
const defaultProbeBase = 20 * time.Second

// probeLimit is the time a probe may take on this machine now: the base,
// scaled by the load as a build's budget is (at most four times), so that
// a program that answers in a second on a quiet machine is not taken for
// one that hangs on a busy one.
func probeLimit(load float64, cores int) time.Duration {
	return buildBudget{base: defaultProbeBase, load: load, cores: cores}.limit()
}

// loadAverage is the one-minute load average (Linux), or 0 when unknown.
var loadAverage = func() float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}

// slowError says what was slow when a setup command ran out of time: the
// command, its budget and what the budget was made of, and the last line
// it printed (what it was doing). Other results pass through as err.
func slowError(res *proc.Result, err error, budget string) error {
	if !res.TimedOut {
		return err
	}
	last := lastOutputLine(res.Stderr)
	if l := lastOutputLine(res.Stdout); last == "" {
		last = l
	}
	msg := fmt.Sprintf("%v (budget %s)", err, budget)
	if last != "" {
		msg += fmt.Sprintf("; it was at: %q", last)
	}
	return fmt.Errorf("%s: %w", msg, errSlow)
}

// errSlow marks a setup that ran out of time.
var errSlow = fmt.Errorf("setup ran out of time")

func lastOutputLine(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			if len(l) > 200 {
				l = l[:200] + "…"
			}
			return l
		}
	}
	return ""
}
