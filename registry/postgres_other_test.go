//go:build !linux

package registry

import (
	"errors"
	"os"
	"syscall"
)

// pgProcAttr returns how to run initdb and postgres: as this user, who must
// not be root (PostgreSQL refuses it; only Linux tests switch users).
func pgProcAttr(dir string) (*syscall.SysProcAttr, error) {
	if os.Geteuid() == 0 {
		return nil, errors.New("running as root, which PostgreSQL refuses; the tests switch users on Linux only")
	}
	return nil, nil
}
