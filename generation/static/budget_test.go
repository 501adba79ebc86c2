package static

import (
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestBuildBudget checks how a setup's budget scales with the work and
// the machine's load, within its bounds.
func TestBuildBudget(t *testing.T) {
	t.Parallel()
	const base = 10 * time.Minute
	for _, tc := range []struct {
		name          string
		sources, deps int
		load          float64
		cores         int
		want          time.Duration
	}{
		{"small repo, quiet machine", 0, 0, 0.3, 2, base},
		{"load below the cores", 0, 0, 1.5, 2, base},
		{"load twice the cores", 0, 0, 4, 2, 2 * base},
		{"load far above the cores", 0, 0, 27, 2, 4 * base},
		{"many sources", 2000, 0, 0, 2, 2 * base},
		{"many dependencies", 0, 100, 0, 2, 15 * time.Minute},
		{"huge work on a busy machine", 100000, 5000, 27, 2, 12 * base},
		{"load unknown", 0, 0, 0, 0, base},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := buildBudget{base: base, sources: tc.sources, deps: tc.deps, load: tc.load, cores: tc.cores}
			if got := b.limit(); got != tc.want {
				t.Errorf("buildBudget{sources: %d, deps: %d, load: %.1f, cores: %d}.limit() = %s, want %s", tc.sources, tc.deps, tc.load, tc.cores, got, tc.want)
			}
		})
	}
}

// TestProbeLimit: a help probe's time scales with the machine's load as a
// build's does, from 20 s on a quiet machine to at most four times that.
func TestProbeLimit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		load  float64
		cores int
		want  time.Duration
	}{{0.5, 2, 20 * time.Second}, {6, 2, 60 * time.Second}, {40, 2, 80 * time.Second}, {0, 0, 20 * time.Second}} {
		if got := probeLimit(tc.load, tc.cores); got != tc.want {
			t.Errorf("probeLimit(%.1f, %d) = %s, want %s", tc.load, tc.cores, got, tc.want)
		}
	}
}

// TestSetupSaysWhatWasSlow checks that a setup command that runs out of
// its budget is reported with the budget's reasons and the last thing it
// printed.
func TestSetupSaysWhatWasSlow(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	tool := &Tool{Name: "slow", Setup: [][]string{{"sh", "-c", "echo compiling part 7; exec sleep 120"}}}
	limit := setupLimit{d: 2 * time.Second, why: "2s: 3 source files, 0 dependencies, load 9.0 on 2 cores"}
	err := runSetup(t.Context(), dir, dir, tool, nil, limit, io.Discard, map[string]bool{})
	if !errors.Is(err, errSlow) {
		t.Fatalf("runSetup() = %v, want a setup that ran out of time", err)
	}
	for _, want := range []string{limit.why, `it was at: "compiling part 7"`, "timed out"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("runSetup() = %q, want it to say %q", err, want)
		}
	}
}
