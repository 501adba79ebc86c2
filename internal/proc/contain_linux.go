package proc

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// markVar is the environment variable that marks a group's processes in
// subreaper mode: "<mechanism id>-<group number>".
const markVar = "AGENTNET_PROC_GROUP"

// killWait bounds how long a kill waits for the kernel to take the
// group's processes down.
const killWait = 5 * time.Second

// newMechanism sets up the strongest containment available: a cgroup v2
// subtree of this process's cgroup where it may create one and start
// processes into it, else a child subreaper, else process groups.
func newMechanism() mechanism {
	id := randomID()
	if cg, err := newCgroups(id); err == nil {
		return cg
	}
	if sr, err := newSubreaper(id); err == nil {
		return sr
	}
	return pgroup{}
}

func randomID() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// cgroups contains each group in a child cgroup of root, a cgroup this
// process made under its own.
type cgroups struct {
	root string
	n    atomic.Int64
}

func (c *cgroups) mode() string { return ContainCgroup }

// newCgroups makes root, checks that a process can be started into a
// cgroup under it (clone3 with CLONE_INTO_CGROUP, Linux 5.7) and starts
// the watcher that kills root's processes when this process dies.
func newCgroups(id string) (*cgroups, error) {
	own, err := ownCgroupDir()
	if err != nil {
		return nil, err
	}
	root := filepath.Join(own, fmt.Sprintf("agentnet-%d-%s", os.Getpid(), id))
	if err := os.Mkdir(root, 0o755); err != nil {
		return nil, err
	}
	c := &cgroups{root: root}
	probe := c.group().(*cgroup)
	cmd := exec.Command("sh", "-c", ":")
	err = probe.prepare(cmd)
	if err == nil {
		err = cmd.Run()
	}
	probe.started(0)
	if kerr := probe.kill(0); err == nil {
		err = kerr
	}
	if err == nil {
		err = startWatcher(cgroupWatcher, root)
	}
	if err != nil {
		_ = os.Remove(root)
		return nil, fmt.Errorf("cgroup containment under %s: %w", own, err)
	}
	return c, nil
}

// ownCgroupDir returns the directory of this process's cgroup v2: the
// cgroup2 mount (the whole of /sys/fs/cgroup, or its "unified" part on a
// hybrid system) joined with the "0::" line of /proc/self/cgroup.
func ownCgroupDir() (string, error) {
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	var rel string
	found := false
	for _, line := range strings.Split(string(data), "\n") {
		if p, ok := strings.CutPrefix(line, "0::"); ok {
			rel, found = p, true
		}
	}
	if !found {
		return "", errors.New("no cgroup v2 hierarchy")
	}
	mount, err := cgroup2Mount()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(mount, rel)
	if _, err := os.Stat(filepath.Join(dir, "cgroup.procs")); err != nil {
		return "", err
	}
	return dir, nil
}

// cgroup2Mount returns where the cgroup2 file system is mounted.
func cgroup2Mount() (string, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// id parent major:minor root mountpoint options ... - fstype source superoptions
		fields := strings.Fields(sc.Text())
		for i, fld := range fields {
			if fld == "-" && i+1 < len(fields) && fields[i+1] == "cgroup2" && len(fields) > 4 && fields[3] == "/" {
				return fields[4], nil
			}
		}
	}
	return "", errors.New("no cgroup2 mount")
}

func (c *cgroups) group() containment {
	return &cgroup{dir: filepath.Join(c.root, "g"+strconv.FormatInt(c.n.Add(1), 10)), fd: -1}
}

// cgroup is one group's cgroup.
type cgroup struct {
	dir string
	fd  int
}

func (g *cgroup) prepare(cmd *exec.Cmd) error {
	if err := os.Mkdir(g.dir, 0o755); err != nil {
		return fmt.Errorf("create cgroup: %w", err)
	}
	fd, err := syscall.Open(g.dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		_ = os.Remove(g.dir)
		return fmt.Errorf("open cgroup: %w", err)
	}
	g.fd = fd
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.UseCgroupFD = true
	cmd.SysProcAttr.CgroupFD = fd
	return nil
}

func (g *cgroup) started(int) {
	if g.fd >= 0 {
		_ = syscall.Close(g.fd)
		g.fd = -1
	}
}

// kill writes cgroup.kill, which takes down every process of the cgroup
// and of the cgroups under it, waits until none is left and removes the
// cgroups.
func (g *cgroup) kill(int) error {
	if !populated(g.dir) {
		// The common end: the leader exited and left nothing. An empty
		// cgroup cannot fill again (only a clone into it could), so no
		// kill is needed.
		return removeTree(g.dir)
	}
	if err := os.WriteFile(filepath.Join(g.dir, "cgroup.kill"), []byte("1"), 0); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // never made, or already removed
		}
		return fmt.Errorf("kill cgroup %s: %w", g.dir, err)
	}
	deadline := time.Now().Add(killWait)
	for populated(g.dir) {
		if time.Now().After(deadline) {
			return fmt.Errorf("kill cgroup %s: processes still there after %s", g.dir, killWait)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return removeTree(g.dir)
}

// populated reports whether the cgroup at dir, or one under it, holds a
// live process.
func populated(dir string) bool {
	data, err := os.ReadFile(filepath.Join(dir, "cgroup.events"))
	return err == nil && bytes.Contains(data, []byte("populated 1"))
}

// removeTree removes the cgroup at dir and every cgroup under it (which a
// process of the group, an agentnet serve for one, may have made),
// deepest first.
func removeTree(dir string) error {
	var dirs []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			dirs = append(dirs, p)
		}
		return nil
	})
	sort.Slice(dirs, func(i, j int) bool { return len(dirs[i]) > len(dirs[j]) })
	var first error
	for _, d := range dirs {
		if err := syscall.Rmdir(d); err != nil && !errors.Is(err, syscall.ENOENT) && first == nil {
			first = fmt.Errorf("remove cgroup %s: %w", d, err)
		}
	}
	return first
}

// The watchers: started once per process in a session of their own, they
// wait for EOF on their standard input, a pipe only this process holds
// open, which comes when this process exits however it exits. Then they
// kill what the groups still hold.
const (
	// $1 is the root cgroup.
	cgroupWatcher = `read -r _
echo 1 > "$1/cgroup.kill" 2>/dev/null
i=0
while [ $i -lt 100 ] && grep -q '^populated 1' "$1/cgroup.events" 2>/dev/null; do sleep 0.05; i=$((i+1)); done
find "$1" -depth -type d -exec rmdir {} + 2>/dev/null
exit 0`
	// $1 is the mechanism id: every process whose environment carries a
	// mark of it is killed, a few rounds for forks in flight.
	subreaperWatcher = `read -r _
for round in 1 2 3 4 5; do
  for e in /proc/[0-9]*/environ; do
    if tr '\0' '\n' < "$e" 2>/dev/null | grep -q "^` + markVar + `=$1-"; then
      p=${e#/proc/}; kill -9 "${p%/environ}" 2>/dev/null
    fi
  done
done
exit 0`
)

// startWatcher starts sh running script with arg as $1.
func startWatcher(script, arg string) error {
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	cmd := exec.Command("sh", "-c", script, "agentnet-watcher", arg)
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	r.Close()
	if err != nil {
		w.Close()
		return fmt.Errorf("start watcher: %w", err)
	}
	go func() { _ = cmd.Wait() }()
	// w stays open, unreferenced, for as long as this process lives.
	watcherPipes = append(watcherPipes, w)
	return nil
}

// watcherPipes keeps the watchers' pipes from being collected (a
// collected *os.File closes its descriptor).
var watcherPipes []*os.File

// subreaper contains by mark: this process is a child subreaper, so the
// orphans of its groups come to it, and each group's processes carry its
// mark in their environment.
type subreaper struct {
	id string
	n  atomic.Int64
}

func (s *subreaper) mode() string { return ContainSubreaper }

const prSetChildSubreaper = 36 // PR_SET_CHILD_SUBREAPER, <linux/prctl.h>

func newSubreaper(id string) (*subreaper, error) {
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); e != 0 {
		return nil, fmt.Errorf("prctl(PR_SET_CHILD_SUBREAPER): %w", e)
	}
	// Without a watcher a SIGKILL of this process leaves the marked
	// processes to init; the groups still work while it lives.
	_ = startWatcher(subreaperWatcher, id)
	return &subreaper{id: id}, nil
}

func (s *subreaper) group() containment {
	return &marked{mark: s.id + "-" + strconv.FormatInt(s.n.Add(1), 10)}
}

// marked is one group in subreaper mode.
type marked struct{ mark string }

func (g *marked) prepare(cmd *exec.Cmd) error {
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, markVar+"="+g.mark)
	return nil
}

func (g *marked) started(int) {}

// kill kills the leader's process group, then every process carrying the
// mark until a scan finds none, and reaps those this process adopted.
func (g *marked) kill(leader int) error {
	_ = KillGroup(leader)
	self := os.Getpid()
	deadline := time.Now().Add(killWait)
	for {
		pids := markedPIDs(markVar + "=" + g.mark)
		if len(pids) == 0 {
			return nil
		}
		for _, p := range pids {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
		for _, p := range pids {
			// An adopted orphan is this process's child: reap it. The
			// leader is its exec.Cmd's to wait for.
			if p != leader && parentOf(p) == self {
				var ws syscall.WaitStatus
				_, _ = syscall.Wait4(p, &ws, 0, nil)
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("kill group %s: processes still there after %s", g.mark, killWait)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// markedPIDs lists the live processes whose environment holds entry.
func markedPIDs(entry string) []int {
	ents, _ := os.ReadDir("/proc")
	want := []byte(entry)
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if bytes.Equal(kv, want) {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}

// parentOf returns pid's parent, or 0.
func parentOf(pid int) int {
	st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	s := string(st)
	i := strings.LastIndex(s, ") ")
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+2:])
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}
