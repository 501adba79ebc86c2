package proc

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the process in a group of its own, so that a kill
// reaches everything it started, and has the kernel kill it should
// agentnet die first.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

func killGroup(pid int) error {
	if pid <= 0 {
		return nil
	}
	if err := syscall.Kill(-pid, syscall.SIGKILL); err != nil && err != syscall.ESRCH {
		return err
	}
	return nil
}
