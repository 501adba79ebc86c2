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

// Server returns an http.Server that serves h with the given timeouts over
// HTTP/1.1 and cleartext HTTP/2 (for gRPC); the caller sets its address or
// gives it a listener, and shuts it down.
func (h *Host) Server(t Timeouts) *http.Server {
	srv := httptimeout.Server(h, t)
	srv.Protocols = new(http.Protocols)
	srv.Protocols.SetHTTP1(true)
	srv.Protocols.SetUnencryptedHTTP2(true)
	return srv
}

// endReadDeadline lifts the read deadline once the request is read: the
// server's ReadTimeout bounds sending the request, and left in place it
// would cancel a task's request that is still being answered.
func endReadDeadline(w http.ResponseWriter) {
	_ = http.NewResponseController(w).SetReadDeadline(time.Time{})
}
