package process

import "syscall"

// sysProcAttr gives the host a process group of its own (so Down reaches
// every skill it runs); a detached host gets its own session and survives
// its parent, an attached one is killed by the kernel when the parent dies.
func sysProcAttr(detach bool) *syscall.SysProcAttr {
	if detach {
		return &syscall.SysProcAttr{Setsid: true}
	}
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
