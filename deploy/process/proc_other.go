//go:build unix && !linux

package process

import "syscall"

// sysProcAttr gives the host a process group of its own (so Down reaches
// every skill it runs); a detached host gets its own session.
func sysProcAttr(detach bool) *syscall.SysProcAttr {
	if detach {
		return &syscall.SysProcAttr{Setsid: true}
	}
	return &syscall.SysProcAttr{Setpgid: true}
}
