//go:build unix

package proc

import "syscall"

// KillGroup kills the process group led by pid; a group already gone is
// not an error.
func KillGroup(pid int) error { return signalGroup(pid, syscall.SIGKILL) }

// TermGroup asks the process group led by pid to terminate.
func TermGroup(pid int) error { return signalGroup(pid, syscall.SIGTERM) }

func signalGroup(pid int, sig syscall.Signal) error {
	if pid <= 0 {
		return nil
	}
	if err := syscall.Kill(-pid, sig); err != nil && err != syscall.ESRCH {
		return err
	}
	return nil
}
