package host

import (
	"context"
)

// acquire waits for one of the WithMaxRunning slots for a skill run and
// returns its release. When every slot is taken and WithMaxQueued tasks
// already wait, it fails at once: the agent is busy. It gives up, as
// killed, when ctx ends or the host closes.
func (h *Host) acquire(ctx context.Context) (release func(), err error) {
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
	select {
	case h.slots <- struct{}{}:
		return release, nil
	case <-ctx.Done():
		return nil, errKilled
	case <-h.done:
		return nil, errKilled
	}
}
