package host_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/agentnet/agentnet/internal/proc/proctest"
)

// TestNoSkillProcessOutlivesItsTask runs skills that double-fork a process
// into a session of its own (setsid, then the middle process exits), over
// A2A: one hangs past its timeout, one exits at once with success. When
// the task has ended, the daemonised process is gone too (checked by pid).
func TestNoSkillProcessOutlivesItsTask(t *testing.T) {
	t.Parallel()
	pids := t.TempDir()
	const agent = `version: 1
name: daemoniser
description: Skills that leave processes behind.
skills:
  - id: hang
    name: Hang
    description: Daemonise a process and hang past the timeout.
    run: [sh, "{{repo}}/daemon.sh", hang, "300"]
    timeout: 1s
  - id: leave
    name: Leave
    description: Daemonise a process and exit at once.
    run: [sh, "{{repo}}/daemon.sh", leave, "0"]
`
	script := `set -- "$1" "$2" PIDS
setsid sh -c 'sleep 300 & echo $! > "$1.tmp"; mv "$1.tmp" "$1"' sh "$3/$1" &
while [ ! -s "$3/$1" ]; do sleep 0.01; done
sleep "$2"
echo done
`
	s := serve(t, agent, map[string]string{"daemon.sh": strings.Replace(script, "PIDS", "'"+pids+"'", 1)})
	c := a2aClient(t, s.URL, "1.0")
	for _, tc := range []struct {
		skill string
		want  a2a.TaskState
	}{
		{"hang", a2a.TaskStateFailed},
		{"leave", a2a.TaskStateCompleted},
	} {
		t.Run(tc.skill, func(t *testing.T) {
			req := textMessage("go")
			req.Message.SetMeta("skill", tc.skill)
			task := send(t, c, req)
			if task.Status.State != tc.want {
				t.Fatalf("task state = %s (%s), want %s", task.Status.State, statusText(task), tc.want)
			}
			data, err := os.ReadFile(filepath.Join(pids, tc.skill))
			if err != nil {
				t.Fatal(err)
			}
			pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
			if !proctest.Gone(pid, 5*time.Second) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
				t.Errorf("skill %q: its daemonised process %d outlived the task", tc.skill, pid)
			}
		})
	}
}

// TestOwnServerDaemonEndsOnClose serves a bundle whose own server first
// daemonises a process into a session of its own (setsid): when the host
// closes, that process is gone too (checked by pid), not only the
// server's process group.
func TestOwnServerDaemonEndsOnClose(t *testing.T) {
	t.Parallel()
	serveArgv := `[sh, -c, "setsid sh -c 'sleep 300 & echo $! > daemon.pid.tmp; mv daemon.pid.tmp daemon.pid' & while [ ! -s daemon.pid ]; do sleep 0.01; done; exec python3 server.py --port {{port}}"]`
	s, _ := serveOwn(t, serveArgv)
	data, err := os.ReadFile(filepath.Join(s.Dir, "daemon.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatalf("daemon.pid = %q: %v", data, err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close() error = %v", err)
	}
	if !proctest.Gone(pid, 5*time.Second) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the own server's daemonised process %d outlived the host", pid)
	}
}
