package deploy_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentnet/agentnet/deploy"
	_ "github.com/agentnet/agentnet/deploy/runtimes" // every runtime, for deploy.Open
	"github.com/agentnet/agentnet/internal/proc/proctest"
)

var (
	buildOnce sync.Once
	builtExe  string
	buildErr  error
)

// agentnetBinary builds the agentnet command once per test binary, static
// (CGO_ENABLED=0), so that the docker runtime's images need no libraries for
// it.
func agentnetBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "agentnet-deploy-test-")
		if err != nil {
			buildErr = err
			return
		}
		builtExe = filepath.Join(dir, "agentnet")
		cmd := exec.Command("go", "build", "-o", builtExe, "github.com/agentnet/agentnet/cmd/agentnet")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtExe
}

func TestMain(m *testing.M) {
	code := m.Run()
	if builtExe != "" {
		os.RemoveAll(filepath.Dir(builtExe))
	}
	os.Exit(code)
}

func writeBundle(t *testing.T, name, skillRun string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	os.MkdirAll(dir, 0o755)
	y := "version: 1\nname: " + name + "\ndescription: A test agent.\nskills:\n  - id: echo\n    name: Echo\n    description: Echo the text.\n" +
		"    params: {type: object, properties: {text: {type: string}}}\n    run: " + skillRun + "\n"
	if err := os.WriteFile(filepath.Join(dir, "agent.yaml"), []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestProcessRuntime(t *testing.T) {
	t.Parallel()
	exe := agentnetBinary(t)
	home := t.TempDir()
	rt, err := deploy.Open("process", deploy.Config{Self: exe, Env: os.Environ(), LogDir: deploy.LogDir(home), ReadyTimeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	var agents []*deploy.Agent
	for _, name := range []string{"alpha", "beta"} {
		a, err := rt.Up(ctx, deploy.Spec{Name: name, Bundle: writeBundle(t, name, `[echo, "{{text}}"]`)})
		if err != nil {
			t.Fatalf("Up(%s) error = %v", name, err)
		}
		agents = append(agents, a)
	}
	if agents[0].URL == agents[1].URL || !strings.HasPrefix(agents[0].URL, "http://127.0.0.1:") {
		t.Errorf("URLs = %s, %s; want two distinct loopback URLs", agents[0].URL, agents[1].URL)
	}
	st := &deploy.State{Agents: agents}
	if err := st.Save(home); err != nil {
		t.Fatal(err)
	}
	loaded, err := deploy.LoadState(home)
	if err != nil || len(loaded.Agents) != 2 || loaded.Agents[1].URL != agents[1].URL {
		t.Fatalf("LoadState() = %+v, %v; want the two agents", loaded, err)
	}
	for _, a := range loaded.Agents {
		if h := rt.Health(ctx, a); !h.Up {
			t.Errorf("Health(%s) = %+v, want up", a.Name, h)
		}
		if _, err := os.Stat(a.Log); err != nil {
			t.Errorf("no log for %s: %v", a.Name, err)
		}
	}
	for _, a := range loaded.Agents {
		if err := rt.Down(ctx, a); err != nil {
			t.Errorf("Down(%s) error = %v", a.Name, err)
		}
		pid, _ := strconv.Atoi(a.ID)
		if !proctest.Gone(pid, 10*time.Second) {
			t.Errorf("%s (pid %d) still runs after Down", a.Name, pid)
		}
		if h := rt.Health(ctx, a); h.Up {
			t.Errorf("Health(%s) after Down = up", a.Name)
		}
		if err := rt.Down(ctx, a); err != nil {
			t.Errorf("second Down(%s) error = %v, want none", a.Name, err)
		}
	}
	if err := (&deploy.State{}).Save(home); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(deploy.StateFile(home)); !os.IsNotExist(err) {
		t.Errorf("state file remains after an empty save: %v", err)
	}

	t.Run("a broken bundle fails with its log", func(t *testing.T) {
		_, err := rt.Up(ctx, deploy.Spec{Name: "broken", Bundle: writeBundle(t, "broken", `[echo, "{{nope}}"]`)})
		if err == nil || !strings.Contains(err.Error(), "{{nope}} is not a declared parameter") {
			t.Errorf("Up(broken) error = %v, want the host's complaint from its log", err)
		}
	})
}

func TestOpenUnknown(t *testing.T) {
	t.Parallel()
	if _, err := deploy.Open("teleport", deploy.Config{}); err == nil || !strings.Contains(err.Error(), "process") {
		t.Errorf("Open(teleport) error = %v, want one listing the known runtimes", err)
	}
}
