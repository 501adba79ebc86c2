package httptimeout

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestServer(t *testing.T) {
	t.Parallel()
	tt := Timeouts{Header: 1 * time.Second, Read: 2 * time.Second, Write: 3 * time.Second, Idle: 4 * time.Second}
	srv := Server(http.NotFoundHandler(), tt)
	if srv.ReadHeaderTimeout != tt.Header || srv.ReadTimeout != tt.Read || srv.IdleTimeout != tt.Idle {
		t.Errorf("Server() timeouts = %v, %v, %v, want %+v", srv.ReadHeaderTimeout, srv.ReadTimeout, srv.IdleTimeout, tt)
	}
	if srv.WriteTimeout != 0 {
		t.Errorf("Server().WriteTimeout = %v, want 0 (deadlines per write instead)", srv.WriteTimeout)
	}
}

// TestWriteDeadlines serves a flushed answer through a real connection:
// the wrapped writer reaches the connection (Flush through the response
// controller) and the answer arrives whole.
func TestWriteDeadlines(t *testing.T) {
	t.Parallel()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := w.(*deadlineWriter); !ok {
			t.Errorf("handler got %T, want the deadline writer", w)
		}
		io.WriteString(w, "one ")
		if err := http.NewResponseController(w).Flush(); err != nil {
			t.Errorf("Flush() error = %v", err)
		}
		io.WriteString(w, "two")
	})
	srv := httptest.NewUnstartedServer(nil)
	srv.Config = Server(h, Default)
	srv.Start()
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if string(body) != "one two" {
		t.Errorf("body = %q, want %q", body, "one two")
	}
	if got := WriteDeadlines(h, 0); got == nil {
		t.Error("WriteDeadlines(h, 0) = nil, want h")
	}
}
