package bench

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// progress reports a run's progress on a writer (stderr) in one of two
// forms. On a terminal (tty) it keeps a live bar at the bottom — finished
// items (repos generated, tasks judged) out of all, the time elapsed and an
// estimate of the time left — redrawn every second from the start, with a
// line per notable event above it. Anywhere else it prints only those
// lines, each with its place and the time elapsed, so that a log shows the
// run advancing. It is safe for concurrent use; with a nil writer (--quiet)
// it prints nothing.
type progress struct {
	mu          sync.Mutex
	w           io.Writer
	tty         bool             // w is a terminal: draw the bar
	now         func() time.Time // the clock; time.Now unless a test sets it
	start       time.Time
	done, total int
	stop        chan struct{} // closes the redraw ticker (tty only)
}

const barWidth = 30

// newProgress returns a progress on w (nil for none), drawing a bar when tty.
func newProgress(w io.Writer, tty bool) *progress {
	return &progress{w: w, tty: tty, now: time.Now}
}

// begin starts the clock with total items to finish; on a terminal it draws
// the bar at once and redraws it every second until finish.
func (p *progress) begin(total int) {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.start, p.total = p.now(), total
	if !p.tty {
		return
	}
	p.draw()
	p.stop = make(chan struct{})
	go p.redraw(p.stop)
}

func (p *progress) redraw(stop <-chan struct{}) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			p.tick()
		}
	}
}

// tick redraws the bar with the time as it is now.
func (p *progress) tick() {
	if p == nil || p.w == nil || !p.tty {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.draw()
}

// line prints one event that finishes no item (a deployment that failed).
func (p *progress) line(format string, args ...any) { p.print(false, format, args...) }

// finished counts one finished item and prints its line.
func (p *progress) finished(format string, args ...any) { p.print(true, format, args...) }

func (p *progress) print(counts bool, format string, args ...any) {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if counts {
		p.done++
	}
	msg := fmt.Sprintf(format, args...)
	head := fmt.Sprintf("[%*d/%d %s]", len(fmt.Sprint(p.total)), p.done, p.total, clock(p.elapsed()))
	if p.tty {
		fmt.Fprintf(p.w, "\r\033[K%s %s\n", head, msg)
		p.draw()
		return
	}
	fmt.Fprintf(p.w, "%s %s\n", head, msg)
}

// finish stops the redraws and clears the bar.
func (p *progress) finish() {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stop != nil {
		close(p.stop)
		p.stop = nil
	}
	if p.tty {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

func (p *progress) elapsed() time.Duration {
	if p.start.IsZero() {
		return 0
	}
	return p.now().Sub(p.start)
}

// eta estimates the time left from the mean time per finished item; "–"
// until the first item finishes.
func (p *progress) eta() string {
	if p.done == 0 || p.done >= p.total {
		return "–"
	}
	per := p.elapsed() / time.Duration(p.done)
	return clock(per * time.Duration(p.total-p.done))
}

// draw writes the bar over the current terminal line; the caller holds mu.
func (p *progress) draw() {
	n := 0
	if p.total > 0 {
		n = min(p.done*barWidth/p.total, barWidth)
	}
	fmt.Fprintf(p.w, "\r\033[K[%s%s] %d/%d  %s elapsed, ETA %s",
		strings.Repeat("#", n), strings.Repeat("-", barWidth-n), p.done, p.total, clock(p.elapsed()), p.eta())
}

// clock formats d as m:ss, or h:mm:ss from an hour on.
func clock(d time.Duration) string {
	s := int64(d.Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
