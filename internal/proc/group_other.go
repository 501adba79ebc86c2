//go:build !unix

package proc

import (
	"os"
	"os/exec"
)

// SetGroup does nothing where there are no process groups.
func SetGroup(*exec.Cmd) {}

// KillGroup kills the process pid (there are no process groups here).
func KillGroup(pid int) error {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
	return nil
}

// TermGroup kills the process pid (there are no process groups here).
func TermGroup(pid int) error { return KillGroup(pid) }
