package proc

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentnet/agentnet/internal/proc/proctest"
)

// daemonScript double-forks a process into a session of its own (setsid,
// then the middle process exits), writes its pid to $1/daemon, and hangs.
const daemonScript = `setsid sh -c 'sleep 300 & echo $! > "$1/daemon.tmp"; mv "$1/daemon.tmp" "$1/daemon"' sh "$1" & sleep 300`

// helperEnv selects the test binary's helper mode (TestMain).
const helperEnv = "AGENTNET_PROC_TEST_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(helper(mode, os.Getenv("HELPER_ACTION"), os.Getenv("HELPER_DIR")))
	}
	os.Exit(m.Run())
}

// helper runs daemonScript in a group contained by mode. Action "kill"
// kills the group and exits 0 when the daemon is gone; "hang" writes
// "ready" to dir and waits to be killed.
func helper(mode, action, dir string) int {
	var g *Group
	switch mode {
	case ContainCgroup:
		c, err := newCgroups(randomID())
		if err != nil {
			fmt.Fprintln(os.Stderr, "SKIP", err)
			return 3
		}
		g = &Group{c: c.group()}
	case ContainSubreaper:
		s, err := newSubreaper(randomID())
		if err != nil {
			fmt.Fprintln(os.Stderr, "SKIP", err)
			return 3
		}
		g = &Group{c: s.group()}
	case ContainProcessGroup:
		g = &Group{c: pgroup{}}
	}
	cmd := exec.Command("sh", "-c", daemonScript, "sh", dir)
	if err := g.Start(cmd); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	go cmd.Wait()
	pid := waitPID(filepath.Join(dir, "daemon"))
	if pid == 0 {
		fmt.Fprintln(os.Stderr, "no daemon")
		return 1
	}
	if action == "hang" {
		os.WriteFile(filepath.Join(dir, "ready"), nil, 0o644)
		select {}
	}
	if err := g.Kill(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if !proctest.Gone(pid, 5*time.Second) {
		fmt.Fprintf(os.Stderr, "daemon %d survived the group's kill\n", pid)
		return 1
	}
	return 0
}

// waitPID waits for a pid file and returns its pid, or 0 after a while.
func waitPID(path string) int {
	for range 1000 {
		if data, err := os.ReadFile(path); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil {
				return pid
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	return 0
}

// runHelper starts the test binary as a helper.
func runHelper(t *testing.T, mode, action, dir string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, "HELPER_ACTION="+action, "HELPER_DIR="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}

// TestGroupKillsDaemons kills a group whose leader double-forked a process
// into a session of its own: the process is gone, checked by its pid, in
// each containment mode this kernel allows.
func TestGroupKillsDaemons(t *testing.T) {
	t.Parallel()
	t.Logf("this process contains groups by %s", Containment())
	for _, mode := range []string{ContainCgroup, ContainSubreaper} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			var stderr bytes.Buffer
			cmd := runHelper(t, mode, "kill", t.TempDir())
			cmd.Stderr = &stderr
			err := cmd.Run()
			if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 3 {
				t.Skipf("%s containment is not available here: %s", mode, stderr.String())
			}
			if err != nil {
				t.Fatalf("%s group kill: %v: %s", mode, err, stderr.String())
			}
		})
	}
}

// TestProcessGroupLeavesDaemons is the attack the other modes stop: a
// process group's kill does not reach a process that made a session of
// its own. It shows the helper's daemon really escapes a plain group.
func TestProcessGroupLeavesDaemons(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	dir := t.TempDir()
	cmd := runHelper(t, ContainProcessGroup, "kill", dir)
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil {
		t.Errorf("a process group's kill reached the daemonised process: the helper's daemon does not escape")
	}
	if pid := waitPID(filepath.Join(dir, "daemon")); pid > 0 {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// TestGroupEndsWithItsOwner starts a group in a helper process, SIGKILLs
// the helper, and checks that the daemonised process its group started
// goes with it: the watcher's work.
func TestGroupEndsWithItsOwner(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{ContainCgroup, ContainSubreaper} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			var stderr bytes.Buffer
			cmd := runHelper(t, mode, "hang", dir)
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			ready := filepath.Join(dir, "ready")
			for {
				if _, err := os.Stat(ready); err == nil {
					break
				}
				select {
				case err := <-done:
					if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 3 {
						t.Skipf("%s containment is not available here: %s", mode, stderr.String())
					}
					t.Fatalf("helper exited: %v: %s", err, stderr.String())
				case <-time.After(10 * time.Millisecond):
				}
			}
			pid := waitPID(filepath.Join(dir, "daemon"))
			_ = syscall.Kill(cmd.Process.Pid, syscall.SIGKILL)
			<-done
			if !proctest.Gone(pid, 10*time.Second) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
				t.Errorf("%s: daemon %d survived the SIGKILL of the process that started its group", mode, pid)
			}
		})
	}
}

// TestRunKillsDaemonised runs a program that daemonises a process and
// outlives its timeout: Run leaves nothing behind, the daemon included.
func TestRunKillsDaemonised(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	res := Run(t.Context(), Spec{Argv: []string{"sh", "-c", daemonScript, "sh", dir}, Env: os.Environ(), Timeout: time.Second})
	if !res.TimedOut {
		t.Fatalf("Run = %+v, want a timeout", res)
	}
	pid := waitPID(filepath.Join(dir, "daemon"))
	if pid == 0 {
		t.Fatal("the daemon never wrote its pid")
	}
	if !proctest.Gone(pid, 5*time.Second) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("daemon %d survived Run (containment %s)", pid, Containment())
	}
}

// BenchmarkGroup measures what containment adds to a short process's
// start and end: the same program run in a bare process group and in a
// Group of this process's mode (a cgroup made, entered and removed per run
// where the kernel allows).
func BenchmarkGroup(b *testing.B) {
	for _, tc := range []struct {
		name string
		c    func() containment
	}{
		{"process-group", func() containment { return pgroup{} }},
		{Containment(), func() containment { return shared().group() }},
	} {
		b.Run(strings.ReplaceAll(tc.name, " ", "-"), func(b *testing.B) {
			for b.Loop() {
				g := &Group{c: tc.c()}
				cmd := exec.Command("/bin/true")
				if err := g.Start(cmd); err != nil {
					b.Fatal(err)
				}
				_ = cmd.Wait()
				if err := g.Kill(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
