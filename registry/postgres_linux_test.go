package registry

import (
	"fmt"
	"os"
	"os/user"
	"strconv"
	"syscall"
)

// pgProcAttr returns how to run initdb and postgres with their files in
// dir. The server dies with the test binary (SIGQUIT: immediate shutdown),
// should the binary die before TestMain stops it. PostgreSQL refuses to run
// as root: as root, it runs as the postgres user (or nobody), which gets
// dir.
func pgProcAttr(dir string) (*syscall.SysProcAttr, error) {
	attr := &syscall.SysProcAttr{Pdeathsig: syscall.SIGQUIT}
	if os.Geteuid() != 0 {
		return attr, nil
	}
	var (
		u   *user.User
		err error
	)
	for _, name := range []string{"postgres", "nobody"} {
		if u, err = user.Lookup(name); err == nil {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("running as root, which PostgreSQL refuses, and no postgres or nobody user to run it as: %w", err)
	}
	uid, err := strconv.ParseUint(u.Uid, 10, 32)
	if err != nil {
		return nil, fmt.Errorf("user %s: uid %q: %w", u.Username, u.Uid, err)
	}
	gid, err := strconv.ParseUint(u.Gid, 10, 32)
	if err != nil {
		return nil, fmt.Errorf("user %s: gid %q: %w", u.Username, u.Gid, err)
	}
	if err := os.Chown(dir, int(uid), int(gid)); err != nil {
		return nil, err
	}
	attr.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	return attr, nil
}
