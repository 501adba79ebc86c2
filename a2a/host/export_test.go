package host

import (
	"context"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// StoredVersion returns the version of task id in h's task store (how many
// times it was written), or 0 when the store does not hold it.
func StoredVersion(h *Host, id a2a.TaskID) int64 {
	st, err := h.store.Get(context.Background(), id)
	if err != nil {
		return 0
	}
	return int64(st.Version)
}

// WorkIdle waits until every ended task's work directory is removed.
func WorkIdle(h *Host) { h.work.idle() }
