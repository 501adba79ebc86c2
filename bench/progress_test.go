package bench

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// fakeClock is a clock the test moves by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }
func newFakeProgress(tty bool) (*progress, *bytes.Buffer, *fakeClock) {
	var b bytes.Buffer
	c := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	p := newProgress(&b, tty)
	p.now = c.now
	return p, &b, c
}

// TestProgressTerminal checks the bar: drawn at once, redrawn with the time
// elapsed, and an estimate of the time left once an item has finished.
func TestProgressTerminal(t *testing.T) {
	t.Parallel()
	p, b, clock := newFakeProgress(true)
	p.begin(3)
	if got, want := b.String(), "["+strings.Repeat("-", barWidth)+"] 0/3  0:00 elapsed, ETA –"; !strings.Contains(got, want) {
		t.Errorf("bar at the start = %q, want %q", got, want)
	}
	clock.advance(2 * time.Second)
	p.tick()
	if !strings.HasSuffix(b.String(), "0/3  0:02 elapsed, ETA –") {
		t.Errorf("bar after a tick = %q, want 0:02 elapsed", b.String())
	}
	clock.advance(8 * time.Second)
	p.finished("generate %s ok", "textkit")
	out := b.String()
	for _, want := range []string{"\r\033[K[1/3 0:10] generate textkit ok\n", "] 1/3  0:10 elapsed, ETA 0:20"} {
		if !strings.Contains(out, want) {
			t.Errorf("progress output %q lacks %q", out, want)
		}
	}
	p.line("deploy %s failed", "x")
	if !strings.Contains(b.String(), "[1/3 0:10] deploy x failed\n") {
		t.Errorf("an event line counts as finished: %q", b.String())
	}
	p.finished("a")
	p.finished("b")
	if !strings.Contains(b.String(), "["+strings.Repeat("#", barWidth)+"] 3/3  0:10 elapsed, ETA –") {
		t.Errorf("full bar missing: %q", b.String())
	}
	p.finish()
	if !strings.HasSuffix(b.String(), "\r\033[K") {
		t.Errorf("finish does not clear the bar: %q", b.String())
	}
}

// TestProgressLines checks the form for a log: a plain line per finished
// item with its place and the time elapsed, no bar, no control sequences.
func TestProgressLines(t *testing.T) {
	t.Parallel()
	p, b, clock := newFakeProgress(false)
	p.begin(12)
	if b.Len() != 0 {
		t.Errorf("begin printed %q off a terminal", b.String())
	}
	clock.advance(75 * time.Second)
	p.finished("single %s passed", "t1")
	clock.advance(3600 * time.Second)
	p.line("deploy %s failed", "r")
	p.finished("chain %s failed", "t2")
	p.tick() // a stray redraw prints nothing either
	p.finish()
	want := "[ 1/12 1:15] single t1 passed\n[ 1/12 1:01:15] deploy r failed\n[ 2/12 1:01:15] chain t2 failed\n"
	if got := b.String(); got != want {
		t.Errorf("progress lines = %q, want %q", got, want)
	}
}

// TestProgressQuiet checks that no writer (--quiet) means no output and no
// panic.
func TestProgressQuiet(t *testing.T) {
	t.Parallel()
	for _, p := range []*progress{nil, newProgress(nil, true), newProgress(nil, false)} {
		p.begin(2)
		p.line("x")
		p.finished("y")
		p.finish()
	}
}
