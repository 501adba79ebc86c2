package host

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// workDirs gives each task a fresh, empty work directory under the work
// root and removes it when the task ends, keeping both directory system
// calls off the task's path: a few directories are made ahead, and those of
// ended tasks are removed, by a goroutine that runs only while there is
// such work. On a journalling file system under load a mkdir and an rmdir
// wait ~0.1 and ~0.5 ms each (see BENCHMARKS.md, Hosting), more than all
// the rest of the host's own work on a small task.
//
// A directory is never given to two tasks: one made ahead is empty and has
// been no task's, and one given back is removed, never reused. A task that
// finds none made ahead makes its own; when the removals fall behind by
// more than maxGone, or after close, the task removes its own.
type workDirs struct {
	root  string
	ahead int // directories to keep made ahead

	mu     sync.Mutex
	ready  []madeDir // made ahead, empty, no task's yet
	gone   []string  // of ended tasks, to remove
	busy   bool      // the worker runs
	closed bool
	wg     sync.WaitGroup
}

// madeDir is a directory made ahead, and when.
type madeDir struct {
	dir  string
	made time.Time
}

// maxGone bounds the removals that wait for the worker.
const maxGone = 64

// staleAfter is how long a directory made ahead is given out: one older,
// on a host that stood idle, may have gone with a cleaner of old files
// (systemd-tmpfiles), so it is removed and a task makes its own.
const staleAfter = time.Hour

// workPrefix begins the name of every task's work directory.
const workPrefix = "task-"

func newWorkDirs(root string, ahead int) *workDirs {
	return &workDirs{root: root, ahead: ahead}
}

// take returns a fresh, empty work directory of the task's own.
func (w *workDirs) take() (string, error) {
	w.mu.Lock()
	// The oldest come first: those made too long ago go.
	i := slices.IndexFunc(w.ready, func(m madeDir) bool { return time.Since(m.made) < staleAfter })
	if i < 0 {
		i = len(w.ready)
	}
	for _, m := range w.ready[:i] {
		w.gone = append(w.gone, m.dir)
	}
	w.ready = slices.Delete(w.ready, 0, i)
	var dir string
	if n := len(w.ready); n > 0 {
		dir, w.ready = w.ready[n-1].dir, w.ready[:n-1]
	}
	w.kickLocked()
	w.mu.Unlock()
	if dir != "" {
		return dir, nil
	}
	return w.make()
}

// make makes a new directory under the root, named at random, making the
// root again if something removed it.
func (w *workDirs) make() (string, error) {
	for range 16 {
		dir := filepath.Join(w.root, workPrefix+strconv.FormatUint(rand.Uint64(), 36))
		err := os.Mkdir(dir, 0o755)
		if errors.Is(err, fs.ErrNotExist) {
			if err = os.MkdirAll(w.root, 0o755); err == nil {
				err = os.Mkdir(dir, 0o755)
			}
		}
		if err == nil {
			return dir, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", err
		}
	}
	return "", errors.New("no fresh name for a work directory")
}

// drop removes the work directory of a task that ended: later, by the
// worker, unless the removals are behind or the pool is closed.
func (w *workDirs) drop(dir string) {
	w.mu.Lock()
	if w.closed || len(w.gone) >= maxGone {
		w.mu.Unlock()
		removeWork(dir)
		return
	}
	w.gone = append(w.gone, dir)
	w.kickLocked()
	w.mu.Unlock()
}

// kickLocked starts the worker when there is work for it and it is not
// running.
func (w *workDirs) kickLocked() {
	if w.busy || w.closed || len(w.gone) == 0 && len(w.ready) >= w.ahead {
		return
	}
	w.busy = true
	w.wg.Add(1)
	go w.work()
}

// work removes the directories of ended tasks, then makes directories
// ahead, until there is nothing left to do.
func (w *workDirs) work() {
	defer w.wg.Done()
	for {
		w.mu.Lock()
		switch {
		case len(w.gone) > 0:
			dir := w.gone[0]
			w.gone = w.gone[1:]
			w.mu.Unlock()
			removeWork(dir)
		case !w.closed && len(w.ready) < w.ahead:
			w.mu.Unlock()
			dir, err := w.make()
			w.mu.Lock()
			if err != nil || w.closed {
				w.busy = false
				w.mu.Unlock()
				if dir != "" {
					removeWork(dir)
				}
				return
			}
			w.ready = append(w.ready, madeDir{dir, time.Now()})
			w.mu.Unlock()
		default:
			w.busy = false
			w.mu.Unlock()
			return
		}
	}
}

// close waits for the worker, then removes what it left: the directories
// made ahead and those of ended tasks. Later drops remove at once.
func (w *workDirs) close() {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	w.wg.Wait()
	w.mu.Lock()
	left := w.gone
	for _, m := range w.ready {
		left = append(left, m.dir)
	}
	w.ready, w.gone = nil, nil
	w.mu.Unlock()
	for _, dir := range left {
		removeWork(dir)
	}
}

// idle waits until the worker has nothing left to do: every ended task's
// directory removed (for tests).
func (w *workDirs) idle() { w.wg.Wait() }

// mkdirUnder makes dir, whose parent normally exists (the work root): one
// system call where os.MkdirAll takes two.
func mkdirUnder(dir string) error {
	err := os.Mkdir(dir, 0o755)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrExist) {
		return os.MkdirAll(dir, 0o755)
	}
	return err
}

// removeWork removes the work directory dir: one system call when the run
// left it empty, as most runs that answer on standard output do.
func removeWork(dir string) {
	if syscall.Rmdir(dir) != nil {
		_ = os.RemoveAll(dir)
	}
}

// workDir returns a fresh work directory for the task: one of the pool's,
// or, when work directories are kept, one named after the task, so that it
// can be found by the task's id.
func (h *Host) workDir(taskID string) (string, error) {
	if h.cfg.keepWork {
		dir := filepath.Join(h.workRoot, safeName(taskID, "task"))
		return dir, mkdirUnder(dir)
	}
	return h.work.take()
}
