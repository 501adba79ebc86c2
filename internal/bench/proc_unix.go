//go:build unix

package bench

import (
	"os/exec"
	"syscall"
)

// inGroup starts cmd in a process group of its own and makes its
// cancellation kill the whole group: hidden tests may start servers and
// helpers that must not outlive them.
func inGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// killGroup kills what is left of a finished command's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
