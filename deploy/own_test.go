package deploy_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"

	"github.com/agentnet/agentnet/deploy"
	"github.com/agentnet/agentnet/internal/proc/proctest"
)

// TestProcessRuntimeOwnServer runs a bundle that brings its own A2A server
// (the host's Python test server) on the process runtime: agentnet serve
// starts it, the card and the calls go through the host, a crash shows as
// down, and Down leaves nothing of the server's process group.
func TestProcessRuntimeOwnServer(t *testing.T) {
	t.Parallel()
	exe := agentnetBinary(t)
	home := t.TempDir()
	dir := filepath.Join(t.TempDir(), "pyshout")
	server, err := os.ReadFile(filepath.Join("..", "a2a", "host", "testdata", "a2aserver.py"))
	if err != nil {
		t.Fatal(err)
	}
	y := "version: 1\nname: pyshout\ndescription: Turns text into capital letters.\n" +
		"serve: [python3, server.py, --port, \"{{port}}\", --pidfile, pids]\n"
	os.MkdirAll(dir, 0o755)
	for name, text := range map[string]string{"agent.yaml": y, "server.py": string(server)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rt, err := deploy.Open("process", deploy.Config{Self: exe, Env: os.Environ(), LogDir: deploy.LogDir(home), ReadyTimeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	a, err := rt.Up(ctx, deploy.Spec{Name: "pyshout", Bundle: dir})
	if err != nil {
		t.Fatalf("Up(pyshout) error = %v", err)
	}
	defer rt.Down(ctx, a)

	card, err := agentcard.DefaultResolver.Resolve(ctx, a.URL)
	if err != nil {
		t.Fatal(err)
	}
	if card.Name != "pyshout" || card.SupportedInterfaces[0].URL != a.URL {
		t.Errorf("card = %s at %s, want pyshout at %s", card.Name, card.SupportedInterfaces[0].URL, a.URL)
	}
	c, err := a2aclient.NewFromCard(ctx, card, a2aclient.WithDefaultsDisabled(), a2aclient.WithJSONRPCTransport(nil))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Destroy()
	send := func(text string) (*a2a.Task, error) {
		res, err := c.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(text))})
		if err != nil {
			return nil, err
		}
		return res.(*a2a.Task), nil
	}
	task, err := send("hello")
	if err != nil || artifactText(task) != "HELLO" {
		t.Fatalf("SendMessage(hello) = %v, %v; want HELLO", task, err)
	}
	if h := rt.Health(ctx, a); !h.Up {
		t.Errorf("Health() = %+v, want up", h)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "pids"))
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		n, _ := strconv.Atoi(f)
		pids = append(pids, n)
	}
	if len(pids) != 2 {
		t.Fatalf("pid file = %q, want the server's and its child's", data)
	}

	// The server dies; the host lives on and reports it down.
	if _, err := send("crash"); err == nil {
		t.Error("SendMessage(crash) succeeded, want an error")
	}
	deadline := time.Now().Add(5 * time.Second)
	h := rt.Health(ctx, a)
	for !strings.Contains(h.Detail, "503") && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		h = rt.Health(ctx, a)
	}
	if h.Up || !strings.Contains(h.Detail, "503") {
		t.Errorf("Health() after the crash = %+v, want down with the card's 503", h)
	}
	log, _ := os.ReadFile(a.Log)
	for _, want := range []string{"a2aserver: listening on", "crashing on request", "the agent's server exited"} {
		if !strings.Contains(string(log), want) {
			t.Errorf("the agent's log lacks %q:\n%s", want, log)
		}
	}

	if err := rt.Down(ctx, a); err != nil {
		t.Fatalf("Down() error = %v", err)
	}
	host, _ := strconv.Atoi(a.ID)
	for _, pid := range append(pids, host) {
		if !proctest.Gone(pid, 10*time.Second) {
			t.Errorf("process %d still runs after Down", pid)
		}
	}
}

func artifactText(task *a2a.Task) string {
	s := ""
	for _, a := range task.Artifacts {
		for _, p := range a.Parts {
			s += p.Text()
		}
	}
	return s
}
