package proxy_test

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentnet/agentnet/a2a/proxy"
)

// TestSlowClients: connections that trickle their request a byte at a time
// are dropped by the proxy's timeouts (short ones here), while an answer
// that takes longer than the read timeout still arrives; the test waits
// only for each slow connection to be closed.
func TestSlowClients(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	agent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if r.URL.Path == "/slow" {
			<-release
		}
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	}))
	t.Cleanup(agent.Close)
	srv, _ := start(t, agent.URL, proxy.WithTimeouts(proxy.Timeouts{Header: 100 * time.Millisecond, Read: 200 * time.Millisecond, Write: 200 * time.Millisecond, Idle: 200 * time.Millisecond}))
	addr := strings.TrimPrefix(srv.URL, "http://")

	// A request read in time is answered however long the agent takes:
	// the read deadline is lifted once the body is in.
	answered := make(chan error, 1)
	go func() {
		resp, err := http.Post(srv.URL+"/slow", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"x"}`))
		if err == nil {
			resp.Body.Close()
		}
		answered <- err
	}()

	heads := []string{
		"POST / HTTP/1.1\r\nHost: " + addr + "\r\n",
		"POST / HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{",
		"",
	}
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Error(err)
				return
			}
			defer conn.Close()
			io.WriteString(conn, heads[i%len(heads)])
			closed := make(chan struct{})
			go func() {
				io.Copy(io.Discard, conn)
				close(closed)
			}()
			tick := time.NewTicker(20 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-closed:
					return
				case <-tick.C:
					conn.Write([]byte(" "))
				case <-t.Context().Done():
					t.Errorf("connection %d still held when the test ended", i)
					return
				}
			}
		}()
	}
	wg.Wait()
	// Every slow connection is gone, each having taken longer than the read
	// timeout: the slow answer is released only now.
	close(release)
	if err := <-answered; err != nil {
		t.Errorf("a request whose answer took longer than the read timeout: %v", err)
	}
}
