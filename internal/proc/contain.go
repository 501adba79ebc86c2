package proc

import (
	"os/exec"
	"sync"
)

// How a Group contains its processes: the strongest the system allows,
// chosen once per process (see Containment).
const (
	// ContainCgroup puts each group in a cgroup v2 of its own, killed
	// whole with cgroup.kill: nothing started inside escapes it, setsid
	// and double forks included.
	ContainCgroup = "cgroup"
	// ContainSubreaper makes this process a child subreaper (so orphans
	// of its groups are adopted by it, not by init) and marks each
	// group's processes through their environment: a group's kill finds
	// every process carrying its mark, wherever it moved.
	ContainSubreaper = "subreaper"
	// ContainProcessGroup only kills the leader's process group: a
	// descendant that leaves it survives (systems without either facility).
	ContainProcessGroup = "process group"
)

// Group is the processes of one task: the one Start runs and every process
// it starts, daemonised or not. Kill ends them all. When this process dies,
// however it dies (SIGKILL included), a watcher it started kills whatever
// its groups still hold. A Group is safe for concurrent use; Start is
// called once.
//
//	g := proc.NewGroup()
//	defer g.Kill()
//	if err := g.Start(cmd); err != nil { ... }
//	err := cmd.Wait()
type Group struct {
	c containment

	mu     sync.Mutex
	pid    int  // the leader, once started
	killed bool // Kill ran: the group is gone
}

// containment is one Group's share of the process-wide mechanism.
type containment interface {
	// prepare sets up cmd to start inside the group.
	prepare(cmd *exec.Cmd) error
	// started is called once cmd started (or failed to: pid 0).
	started(pid int)
	// kill ends every process of the group, waits until they have, and
	// releases what the group held.
	kill(leader int) error
}

// NewGroup returns an empty group, contained as well as this system
// allows (Containment). It never fails: without a facility it falls back
// to a process group.
func NewGroup() *Group { return &Group{c: shared().group()} }

// Containment says how groups are contained in this process: ContainCgroup,
// ContainSubreaper or ContainProcessGroup.
func Containment() string { return shared().mode() }

// Start starts cmd as the group's leader. It sets cmd.SysProcAttr (a
// process group of its own, and on Linux death with this process) and, in
// subreaper mode, adds the group's mark to cmd.Env.
func (g *Group) Start(cmd *exec.Cmd) error {
	SetGroup(cmd)
	if err := g.c.prepare(cmd); err != nil {
		return err
	}
	err := cmd.Start()
	pid := 0
	if err == nil {
		pid = cmd.Process.Pid
	}
	g.c.started(pid)
	g.mu.Lock()
	g.pid = pid
	g.mu.Unlock()
	return err
}

// Kill ends every process of the group and returns once they have ended
// (at most a few seconds for processes the kernel is slow to take down).
// It is idempotent; the group cannot be used after it.
func (g *Group) Kill() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.killed {
		return nil
	}
	g.killed = true
	return g.c.kill(g.pid)
}

var (
	sharedOnce sync.Once
	sharedMech mechanism
)

// mechanism is the process-wide containment groups share.
type mechanism interface {
	mode() string
	group() containment
}

// shared returns the process's mechanism, set up on first use.
func shared() mechanism {
	sharedOnce.Do(func() { sharedMech = newMechanism() })
	return sharedMech
}

// pgroup contains by process group only.
type pgroup struct{}

func (pgroup) mode() string                { return ContainProcessGroup }
func (pgroup) group() containment          { return pgroup{} }
func (pgroup) prepare(cmd *exec.Cmd) error { return nil }
func (pgroup) started(int)                 {}
func (pgroup) kill(leader int) error       { return KillGroup(leader) }
