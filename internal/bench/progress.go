package bench

import (
	"fmt"
	"io"
	"strings"
	"sync"
)

// progress shows a run's progress on a terminal: a line per notable event
// above a bar of finished items (repos generated, tasks judged). It is safe
// for concurrent use; with a nil writer it prints nothing.
type progress struct {
	mu          sync.Mutex
	w           io.Writer
	done, total int
}

const barWidth = 30

// line prints one line above the bar.
func (p *progress) line(format string, args ...any) {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "\r\033[K"+format+"\n", args...)
	p.draw()
}

// advance counts one finished item.
func (p *progress) advance() {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.draw()
}

// finish clears the bar.
func (p *progress) finish() {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprint(p.w, "\r\033[K")
}

func (p *progress) draw() {
	if p.total <= 0 {
		return
	}
	n := min(p.done*barWidth/p.total, barWidth)
	fmt.Fprintf(p.w, "\r\033[K[%s%s] %d/%d", strings.Repeat("#", n), strings.Repeat("-", barWidth-n), p.done, p.total)
}
