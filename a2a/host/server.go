package host

import (
	"net/http"
	"time"

	"github.com/agentnet/agentnet/internal/httptimeout"
)

// Timeouts bound how long one connection may hold the server (see
// httptimeout.Timeouts): a stream may run as long as its task, but a
// reader that stops reading is cut.
type Timeouts = httptimeout.Timeouts

// DefaultTimeouts are the timeouts of `agentnet serve`.
var DefaultTimeouts = httptimeout.Default

// httptimeoutServer is httptimeout.Server, the base of Server.
var httptimeoutServer = httptimeout.Server

// endReadDeadline lifts the read deadline once the request is read: the
// server's ReadTimeout bounds sending the request, and left in place it
// would cancel a task's request that is still being answered.
func endReadDeadline(w http.ResponseWriter) {
	_ = http.NewResponseController(w).SetReadDeadline(time.Time{})
}
