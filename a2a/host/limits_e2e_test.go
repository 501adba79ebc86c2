package host_test

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/agentnet/agentnet/a2a/host"
)

// waiter is a skill that runs until its release file exists.
func waiter(release string) string {
	return `version: 1
name: waiter
description: Wait for a release.
skills:
  - id: wait
    name: wait
    description: Wait until released.
    run: [python3, -c, "import os, time\nwhile not os.path.exists('` + release + `'): time.sleep(0.01)\nprint('released')"]
`
}

// waitFor polls the task until its status says want.
func waitFor(t *testing.T, s interface {
	Get(id a2a.TaskID) (*a2a.Task, error)
}, id a2a.TaskID, want string) {
	t.Helper()
	for {
		task, err := s.Get(id)
		if err != nil {
			t.Fatalf("GetTask(%s) error = %v", id, err)
		}
		if strings.Contains(statusText(task), want) {
			return
		}
		if task.Status.State.Terminal() {
			t.Fatalf("task %s is %s (%s), want a status saying %q", id, task.Status.State, statusText(task), want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

type getter func(id a2a.TaskID) (*a2a.Task, error)

func (g getter) Get(id a2a.TaskID) (*a2a.Task, error) { return g(id) }

// TestBusy: with every slot taken and the queue full, a task fails at once
// saying the agent is busy; queued tasks run once a slot frees.
func TestBusy(t *testing.T) {
	t.Parallel()
	release := filepath.Join(t.TempDir(), "release")
	s := serve(t, waiter(release), nil, host.WithMaxRunning(1), host.WithMaxQueued(1))
	c := a2aClient(t, s.URL, "1.0")
	get := getter(func(id a2a.TaskID) (*a2a.Task, error) {
		return c.GetTask(t.Context(), &a2a.GetTaskRequest{ID: id})
	})
	later := func() *a2a.Task {
		req := textMessage("wait")
		req.Config = &a2a.SendMessageConfig{ReturnImmediately: true}
		return send(t, c, req)
	}
	first := later()
	waitFor(t, get, first.ID, "running skill wait")
	second := later()
	waitFor(t, get, second.ID, "waiting: 1 skills are running")

	third := send(t, c, textMessage("wait"))
	if third.Status.State != a2a.TaskStateFailed || !strings.Contains(statusText(third), "the agent is busy") {
		t.Errorf("third task = %s (%s), want failed: busy", third.Status.State, statusText(third))
	}
	if err := os.WriteFile(release, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, id := range []a2a.TaskID{first.ID, second.ID} {
		for {
			task, err := get(id)
			if err != nil {
				t.Fatal(err)
			}
			if task.Status.State.Terminal() {
				if task.Status.State != a2a.TaskStateCompleted {
					t.Errorf("task %s = %s (%s), want completed", id, task.Status.State, statusText(task))
				}
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// TestFinishedTasksForgotten: beyond WithMaxTasks finished tasks are
// dropped from the store (the TTL: TestTaskStore).
func TestFinishedTasksForgotten(t *testing.T) {
	t.Parallel()
	t.Run("count", func(t *testing.T) {
		t.Parallel()
		s := serve(t, textkit, map[string]string{"upper.py": upperPy}, host.WithMaxTasks(2))
		c := a2aClient(t, s.URL, "1.0")
		var ids []a2a.TaskID
		for i := range 3 {
			task := send(t, c, textMessage(fmt.Sprintf("upper text %d", i)))
			ids = append(ids, task.ID)
		}
		if _, err := c.GetTask(t.Context(), &a2a.GetTaskRequest{ID: ids[0]}); !errors.Is(err, a2a.ErrTaskNotFound) {
			t.Errorf("GetTask(oldest of 3, 2 kept) error = %v, want TaskNotFound", err)
		}
		for _, id := range ids[1:] {
			if _, err := c.GetTask(t.Context(), &a2a.GetTaskRequest{ID: id}); err != nil {
				t.Errorf("GetTask(one of the 2 newest) error = %v", err)
			}
		}
	})
}

// TestSlowClients: connections that trickle their request a byte at a time,
// or send nothing, are dropped by the server's timeouts (short ones here);
// the test only waits for each connection to be closed. A task whose
// request came in time is still answered.
func TestSlowClients(t *testing.T) {
	t.Parallel()
	release := filepath.Join(t.TempDir(), "release")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := serve(t, waiter(release), nil, host.WithAllowHosts(ln.Addr().String()))
	srv := s.Host.Server(host.Timeouts{Header: 100 * time.Millisecond, Read: 200 * time.Millisecond, Write: 200 * time.Millisecond, Idle: 200 * time.Millisecond})
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	addr := ln.Addr().String()
	// A task read in time is answered however long it runs: the read
	// deadline is lifted once the request is in.
	answered := make(chan string, 2)
	go func() {
		_, answer := postJSON(t, "http://"+addr+"/", "application/json", sendV03(1, "wait", nil))
		answered <- answer
	}()
	mc, err := client.NewStreamableHttpClient("http://" + addr + host.MCPPath)
	if err != nil {
		t.Fatal(err)
	}
	defer mc.Close()
	if err := mc.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	initialize(t, mc)
	go func() {
		// An MCP call runs under its request's context: it would be
		// killed if the read timeout still ran.
		req := mcp.CallToolRequest{}
		req.Params.Name = "wait"
		res, err := mc.CallTool(t.Context(), req)
		if err != nil {
			answered <- err.Error()
			return
		}
		answered <- resultText(res)
	}()
	heads := []string{
		"POST / HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/json\r\n",                                // the header, never finished
		"POST / HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{", // the body, never finished
		"", // nothing at all
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
			if _, err := io.WriteString(conn, heads[i%len(heads)]); err != nil {
				return
			}
			// Trickle a byte at a time until the server hangs up; a
			// read that ends (EOF, reset) is the server letting go.
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
	// Every slow connection is gone, each having lasted longer than the
	// read timeout; only now does the task end.
	if err := os.WriteFile(release, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if answer := <-answered; !strings.Contains(answer, "released") {
			t.Errorf("a task that ran longer than the read timeout was answered %s, want its output", headOf(answer))
		}
	}
}
