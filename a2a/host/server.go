package host

import (
	"net/http"
	"time"
)

// Timeouts bound how long one connection may hold the server: Header to
// send the request's header, Read to send the whole request (its body
// included), Write for each write of the response to be taken (a stream
// may run as long as its task, but a reader that stops reading is cut), and
// Idle between requests on a kept-alive connection. Zero means no limit.
type Timeouts struct {
	Header, Read, Write, Idle time.Duration
}

// DefaultTimeouts are the timeouts of `agentnet serve`.
var DefaultTimeouts = Timeouts{Header: 10 * time.Second, Read: time.Minute, Write: time.Minute, Idle: 2 * time.Minute}

// Server returns an http.Server that serves h with the given timeouts;
// the caller sets its address or gives it a listener, and shuts it down.
func (h *Host) Server(t Timeouts) *http.Server {
	return &http.Server{
		Handler:           WriteDeadlines(h, t.Write),
		ReadHeaderTimeout: t.Header,
		ReadTimeout:       t.Read,
		IdleTimeout:       t.Idle,
	}
}

// WriteDeadlines gives every write of a response d to complete, from the
// moment it starts: a long stream lives as long as it keeps being read.
// d of zero returns next.
func WriteDeadlines(next http.Handler, d time.Duration) http.Handler {
	if d <= 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(&deadlineWriter{ResponseWriter: w, rc: http.NewResponseController(w), d: d}, r)
	})
}

type deadlineWriter struct {
	http.ResponseWriter
	rc *http.ResponseController
	d  time.Duration
}

func (w *deadlineWriter) extend() { _ = w.rc.SetWriteDeadline(time.Now().Add(w.d)) }

func (w *deadlineWriter) WriteHeader(code int) { w.extend(); w.ResponseWriter.WriteHeader(code) }

func (w *deadlineWriter) Write(p []byte) (int, error) { w.extend(); return w.ResponseWriter.Write(p) }

func (w *deadlineWriter) Flush() { w.extend(); _ = w.rc.Flush() }

// Unwrap lets http.ResponseController reach the connection.
func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// endReadDeadline lifts the read deadline once the request is read: the
// server's ReadTimeout bounds sending the request, and left in place it
// would cancel a task's request that is still being answered.
func endReadDeadline(w http.ResponseWriter) {
	_ = http.NewResponseController(w).SetReadDeadline(time.Time{})
}
