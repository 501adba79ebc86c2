package host

import (
	"context"
	"fmt"
)

// acquire waits for one of the WithMaxRunning slots for a skill run and
// returns its release. When every slot is taken and WithMaxQueued tasks
// already wait, it fails at once: the agent is busy. It gives up, as
// killed, when ctx ends or the host closes. While it waits it says so
// through progress (which may be nil).
func (h *Host) acquire(ctx context.Context, progress func(string)) (release func(), err error) {
	release = func() { <-h.slots }
	select {
	case h.slots <- struct{}{}:
		return release, nil
	default:
	}
	if n := h.queue.Add(1); n > int64(h.cfg.maxQueued) {
		h.queue.Add(-1)
		return nil, failf("the agent is busy: %d skills are running and %d tasks are waiting, its limits (--max-running, --max-queued); try again later",
			cap(h.slots), h.cfg.maxQueued)
	}
	defer h.queue.Add(-1)
	if progress != nil {
		progress(fmt.Sprintf("waiting: %d skills are running, this agent's limit (--max-running)", cap(h.slots)))
	}
	select {
	case h.slots <- struct{}{}:
		return release, nil
	case <-ctx.Done():
		return nil, errKilled
	case <-h.done:
		return nil, errKilled
	}
}
