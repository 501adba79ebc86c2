// Package httptimeout gives agentnet's HTTP servers every timeout a server
// has: the request's header, the whole request, each write of the answer,
// and idle kept-alive connections.
//
// A write deadline runs from the moment each write starts, so a long
// stream lives as long as it keeps being read while a reader that stops
// is cut:
//
//	srv := httptimeout.Server(handler, httptimeout.Default)
//	go srv.Serve(ln)
package httptimeout

import (
	"net/http"
	"time"
)

// Timeouts bound how long one connection may hold a server: Header to send
// the request's header, Read to send the whole request (its body
// included), Write for each write of the answer to be taken, and Idle
// between requests on a kept-alive connection. Zero means no limit.
type Timeouts struct {
	Header, Read, Write, Idle time.Duration
}

// Default are the timeouts of agentnet's servers unless a flag says
// otherwise.
var Default = Timeouts{Header: 10 * time.Second, Read: time.Minute, Write: time.Minute, Idle: 2 * time.Minute}

// Server returns an http.Server that serves h with t; the caller sets its
// address or gives it a listener, and shuts it down.
func Server(h http.Handler, t Timeouts) *http.Server {
	return &http.Server{
		Handler:           WriteDeadlines(h, t.Write),
		ReadHeaderTimeout: t.Header,
		ReadTimeout:       t.Read,
		IdleTimeout:       t.Idle,
	}
}

// WriteDeadlines gives every write of a response d to complete, from the
// moment it starts. d of zero returns next.
func WriteDeadlines(next http.Handler, d time.Duration) http.Handler {
	if d <= 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(Writer(w, d), r)
	})
}

// Writer wraps w so that each of its writes gets d to complete.
func Writer(w http.ResponseWriter, d time.Duration) http.ResponseWriter {
	return &deadlineWriter{ResponseWriter: w, rc: http.NewResponseController(w), d: d}
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
