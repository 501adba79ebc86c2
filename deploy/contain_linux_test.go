package deploy_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"

	"github.com/agentnet/agentnet/deploy"
	"github.com/agentnet/agentnet/internal/proc/proctest"
)

// daemonSkill writes its own pid to $1/skill, double-forks a process into
// a session of its own (setsid, then the middle process exits) that writes
// its pid to $1/daemon, and hangs. PIDS is replaced by the directory.
const daemonSkill = `set -- PIDS
echo $$ > "$1/skill"
setsid sh -c 'sleep 300 & echo $! > "$1/daemon.tmp"; mv "$1/daemon.tmp" "$1/daemon"' sh "$1" &
sleep 300
`

// TestProcessNoSkillProcessSurvives runs an agent whose skill daemonises a
// process and hangs, on the process runtime, attached (demo, bench) and
// detached (fleet up), and ends the agent with Down (fleet down) or with a
// SIGKILL of its `agentnet serve`: neither the skill nor its daemon
// survives, checked by pid.
func TestProcessNoSkillProcessSurvives(t *testing.T) {
	t.Parallel()
	exe := agentnetBinary(t)
	for _, tc := range []struct {
		name   string
		detach bool
		end    string // "down" or "sigkill"
	}{
		{"attached down", false, "down"},
		{"detached down", true, "down"},
		{"attached sigkill", false, "sigkill"},
		{"detached sigkill", true, "sigkill"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			home, pids := t.TempDir(), t.TempDir()
			dir := writeBundle(t, "daemoniser", `[sh, "{{repo}}/daemon.sh"]`)
			script := strings.Replace(daemonSkill, "PIDS", "'"+pids+"'", 1)
			if err := os.WriteFile(filepath.Join(dir, "daemon.sh"), []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			rt, err := deploy.Open("process", deploy.Config{Self: exe, Env: os.Environ(), LogDir: deploy.LogDir(home), ReadyTimeout: 20 * time.Second, Detach: tc.detach})
			if err != nil {
				t.Fatal(err)
			}
			ctx := t.Context()
			a, err := rt.Up(ctx, deploy.Spec{Name: "daemoniser", Bundle: dir})
			if err != nil {
				t.Fatalf("Up() error = %v", err)
			}
			serve, _ := strconv.Atoi(a.ID)
			defer syscall.Kill(-serve, syscall.SIGKILL)
			go sendOnce(ctx, a.URL)
			skill, daemon := waitPID(t, filepath.Join(pids, "skill")), waitPID(t, filepath.Join(pids, "daemon"))
			defer syscall.Kill(skill, syscall.SIGKILL)
			defer syscall.Kill(daemon, syscall.SIGKILL)

			switch tc.end {
			case "down":
				if err := rt.Down(ctx, a); err != nil {
					t.Fatalf("Down() error = %v", err)
				}
			case "sigkill":
				if err := syscall.Kill(serve, syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
			}
			for what, pid := range map[string]int{"agentnet serve": serve, "the skill": skill, "its daemonised process": daemon} {
				if !proctest.Gone(pid, 10*time.Second) {
					t.Errorf("%s (pid %d) survived", what, pid)
				}
			}
		})
	}
}

// sendOnce sends one message to the agent at url and ignores the answer
// (the skill hangs until it is killed).
func sendOnce(ctx context.Context, url string) {
	card, err := agentcard.DefaultResolver.Resolve(ctx, url)
	if err != nil {
		return
	}
	c, err := a2aclient.NewFromCard(ctx, card, a2aclient.WithDefaultsDisabled(), a2aclient.WithJSONRPCTransport(nil))
	if err != nil {
		return
	}
	defer c.Destroy()
	_, _ = c.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("go"))})
}

// waitPID waits for a pid file and returns its pid.
func waitPID(t *testing.T, path string) int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if data, err := os.ReadFile(path); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && pid > 0 {
				return pid
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no pid in %s", path)
	return 0
}
