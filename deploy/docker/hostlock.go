//go:build unix

package docker

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// LockHost takes an exclusive lock shared by every agentnet process of this
// machine, named by name, and returns its release. The Docker Engine's
// check for a duplicate network name is not atomic: two processes creating
// the shared network at once can both succeed, and the engine then refuses
// to start any container on a name that is ambiguous. Creating, choosing
// and removing the shared network under this lock keeps one; the swarm
// runtime takes one for its shared networks and gateway.
func LockHost(name string) (func(), error) {
	p := filepath.Join(os.TempDir(), "agentnet-"+name+".lock")
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", p, err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", p, err)
	}
	return func() { f.Close() }, nil // closing the file releases the lock
}
