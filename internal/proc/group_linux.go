package proc

import (
	"os/exec"
	"syscall"
)

// SetGroup makes cmd start in a process group of its own, so that a kill
// reaches every process it started, and has the kernel kill it should
// agentnet die first.
func SetGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
