package host_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/agentnet/agentnet/a2a/host"
	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/internal/proc/proctest"
)

// ownServer is the testdata A2A server, written in Python, that bundles
// with serve run in these tests.
func ownServer(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "a2aserver.py"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// syncBuffer collects a server's output while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serveOwn writes a bundle whose serve command is serveArgv and hosts it
// on httptest through host.Start.
func serveOwn(t *testing.T, serveArgv string, opts ...host.Option) (*served, *syncBuffer) {
	t.Helper()
	dir := t.TempDir()
	y := "version: 1\nname: pyshout\ndescription: Turns text into capital letters.\nserve: " + serveArgv + "\n"
	for name, text := range map[string]string{bundle.FileName: y, "server.py": ownServer(t)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := bundle.Load(dir)
	if err != nil {
		t.Fatalf("bundle.Load() error = %v", err)
	}
	out := &syncBuffer{}
	srv := httptest.NewUnstartedServer(nil)
	url := "http://" + srv.Listener.Addr().String() + "/"
	opts = append([]host.Option{host.WithEnv(os.Environ()), host.WithServerOutput(out)}, opts...)
	h, err := host.Start(t.Context(), b, url, opts...)
	if err != nil {
		srv.Close()
		t.Fatalf("host.Start() error = %v", err)
	}
	srv.Config.Handler = h
	srv.Start()
	t.Cleanup(func() {
		h.Close()
		srv.Close()
	})
	return &served{Host: h, URL: srv.URL, Dir: dir}, out
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

func TestOwnServer(t *testing.T) {
	t.Parallel()
	s, out := serveOwn(t, `[python3, server.py, --port, "{{port}}", --delay, "0.5"]`)

	t.Run("card", func(t *testing.T) {
		code, body := get(t, s.URL+host.CardPath)
		if code != http.StatusOK {
			t.Fatalf("GET card = %d %s", code, body)
		}
		var c struct {
			Name       string `json:"name"`
			URL        string `json:"url"`
			DocURL     string `json:"documentationUrl"`
			Interfaces []struct {
				URL string `json:"url"`
			} `json:"supportedInterfaces"`
			Provider struct {
				URL string `json:"url"`
			} `json:"provider"`
		}
		if err := json.Unmarshal([]byte(body), &c); err != nil {
			t.Fatal(err)
		}
		want := s.URL + "/"
		if c.Name != "pyshout" || c.URL != want || len(c.Interfaces) != 1 || c.Interfaces[0].URL != want ||
			c.DocURL != s.URL+"/docs" || c.Provider.URL != "https://example.org/" {
			t.Errorf("card = %s\nwant the server's card with its URLs rewritten to %s and others kept", body, want)
		}
		if got := s.Card().Name; got != "pyshout" {
			t.Errorf("Card().Name = %q, want pyshout", got)
		}
		if code, body := get(t, s.URL+host.HealthPath); code != http.StatusOK || body != "ok\n" {
			t.Errorf("GET health = %d %q, want 200 ok", code, body)
		}
		if code, body := get(t, s.URL+"/docs"); code != http.StatusOK || !strings.Contains(body, "send it text") {
			t.Errorf("GET /docs through the host = %d %q, want the server's page", code, body)
		}
	})

	t.Run("send", func(t *testing.T) {
		c := a2aClient(t, s.URL, "1.0")
		task := send(t, c, textMessage("hello there"))
		if task.Status.State != a2a.TaskStateCompleted || artifactText(task) != "HELLO THERE" {
			t.Errorf("SendMessage() = %s %q, want completed HELLO THERE", task.Status.State, artifactText(task))
		}
		if got, want := task.Metadata["forwarded_host"], strings.TrimPrefix(s.URL, "http://"); got != want {
			t.Errorf("the server saw X-Forwarded-Host %v, want %s", got, want)
		}
	})

	t.Run("stream", func(t *testing.T) {
		c := a2aClient(t, s.URL, "1.0")
		var states []a2a.TaskState
		var working, artifact time.Time
		for ev, err := range c.SendStreamingMessage(t.Context(), textMessage("streamed")) {
			if err != nil {
				t.Fatalf("SendStreamingMessage() error = %v", err)
			}
			switch e := ev.(type) {
			case *a2a.Task:
				states = append(states, e.Status.State)
			case *a2a.TaskStatusUpdateEvent:
				states = append(states, e.Status.State)
				if e.Status.State == a2a.TaskStateWorking {
					working = time.Now()
				}
			case *a2a.TaskArtifactUpdateEvent:
				artifact = time.Now()
			}
		}
		want := []a2a.TaskState{a2a.TaskStateSubmitted, a2a.TaskStateWorking, a2a.TaskStateCompleted}
		if fmt.Sprint(states) != fmt.Sprint(want) {
			t.Errorf("states = %v, want %v", states, want)
		}
		// The server pauses 0.5 s after its working event: an unbuffered
		// proxy hands that event over before the pause ends.
		if gap := artifact.Sub(working); gap < 300*time.Millisecond {
			t.Errorf("working came %s before the artifact, want the server's 0.5 s pause: the stream was buffered", gap)
		}
	})

	if !strings.Contains(out.String(), "a2aserver: listening on") {
		t.Errorf("server output = %q, want its start line", out.String())
	}
}

func TestOwnServerCrash(t *testing.T) {
	t.Parallel()
	s, out := serveOwn(t, `[python3, server.py, --port, "{{port}}"]`)
	c := a2aClient(t, s.URL, "1.0")
	if _, err := c.SendMessage(t.Context(), textMessage("crash")); err == nil {
		t.Fatal("SendMessage(crash) succeeded, want an error: the server died")
	}
	deadline := time.Now().Add(5 * time.Second)
	code, body := get(t, s.URL+host.CardPath)
	for code != http.StatusServiceUnavailable && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		code, body = get(t, s.URL+host.CardPath)
	}
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "exit status 3") || !strings.Contains(body, "crashing on request") {
		t.Errorf("GET card after the crash = %d %q, want 503 with the exit status and the output's tail", code, body)
	}
	if code, body := get(t, s.URL+host.HealthPath); code != http.StatusServiceUnavailable || !strings.HasPrefix(body, "down: ") {
		t.Errorf("GET health after the crash = %d %q, want 503 down", code, body)
	}
	if _, err := c.SendMessage(t.Context(), textMessage("again")); err == nil || !strings.Contains(err.Error(), "down") {
		t.Errorf("SendMessage() after the crash error = %v, want the server is down", err)
	}
	if !strings.Contains(out.String(), "crashing on request") {
		t.Errorf("server output = %q, want its last words", out.String())
	}
}

func TestOwnServerClose(t *testing.T) {
	t.Parallel()
	s, _ := serveOwn(t, `[python3, server.py, --port, "{{port}}", --pidfile, pids]`)
	data, err := os.ReadFile(filepath.Join(s.Dir, "pids"))
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		n, _ := strconv.Atoi(f)
		pids = append(pids, n)
	}
	if len(pids) != 2 {
		t.Fatalf("pid file = %q, want the server's and its child's", data)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close() error = %v", err)
	}
	for _, pid := range pids {
		if !proctest.Gone(pid, 5*time.Second) {
			t.Errorf("process %d still runs after Close", pid)
		}
	}
	if code, _ := get(t, s.URL+host.HealthPath); code != http.StatusServiceUnavailable {
		t.Errorf("GET health after Close = %d, want 503", code)
	}
}

func TestOwnServerStartFails(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		argv  string
		ready time.Duration
		want  string
	}{
		{"exits", `[python3, -c, "import sys; print('no luck', file=sys.stderr); sys.exit(5)", "{{port}}"]`, time.Minute, "exited before its card answered"},
		{"never answers", `[sleep, "{{port}}"]`, 300 * time.Millisecond, "did not answer its card within 300ms"},
		{"no such program", `[./missing, "{{port}}"]`, time.Minute, "start server"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			y := "version: 1\nname: broken\ndescription: A server that never comes up.\nserve: " + tc.argv + "\n"
			if err := os.WriteFile(filepath.Join(dir, bundle.FileName), []byte(y), 0o644); err != nil {
				t.Fatal(err)
			}
			b, err := bundle.Load(dir)
			if err != nil {
				t.Fatalf("bundle.Load() error = %v", err)
			}
			start := time.Now()
			h, err := host.Start(t.Context(), b, "http://127.0.0.1:9/", host.WithReadyTimeout(tc.ready))
			if err == nil {
				h.Close()
				t.Fatal("host.Start() succeeded, want an error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("host.Start() error = %v, want %q", err, tc.want)
			}
			if tc.name == "exits" && !strings.Contains(err.Error(), "no luck") {
				t.Errorf("host.Start() error = %v, want the server's stderr", err)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("host.Start() took %s to fail", d)
			}
		})
	}
}
