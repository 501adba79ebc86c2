package host

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// entries lists the names under dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestWorkDirsFreshAndRemoved(t *testing.T) {
	root := filepath.Join(t.TempDir(), "root")
	w := newWorkDirs(root, 2)
	ref := filepath.Join(t.TempDir(), "ref")
	if err := os.Mkdir(ref, 0o755); err != nil {
		t.Fatal(err)
	}
	want, _ := os.Stat(ref)
	seen := map[string]bool{}
	for i := range 6 {
		dir, err := w.take()
		if err != nil {
			t.Fatal(err)
		}
		if seen[dir] || filepath.Dir(dir) != root || !strings.HasPrefix(filepath.Base(dir), workPrefix) {
			t.Fatalf("take() = %s, want a new directory under %s", dir, root)
		}
		seen[dir] = true
		if got := entries(t, dir); len(got) != 0 {
			t.Fatalf("take() = %s holding %v, want it empty", dir, got)
		}
		if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != want.Mode().Perm() {
			t.Fatalf("stat(%s) = %v, %v; want mode %v, as os.Mkdir(0o755) makes it", dir, fi.Mode(), err, want.Mode())
		}
		// A task that leaves files, one that leaves a tree, one that
		// leaves nothing.
		switch i % 3 {
		case 0:
			os.WriteFile(filepath.Join(dir, "out.txt"), []byte("x"), 0o644)
		case 1:
			os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755)
			os.WriteFile(filepath.Join(dir, "a", "b", "f"), []byte("x"), 0o644)
		}
		w.drop(dir)
	}
	w.idle()
	for dir := range seen {
		if _, err := os.Lstat(dir); !os.IsNotExist(err) {
			t.Errorf("%s after drop: %v, want it removed", dir, err)
		}
	}
	// What is left are directories made ahead: empty, and no task's.
	for _, name := range entries(t, root) {
		if seen[filepath.Join(root, name)] || len(entries(t, filepath.Join(root, name))) != 0 {
			t.Errorf("%s left in the root", name)
		}
	}
	w.close()
	if got := entries(t, root); len(got) != 0 {
		t.Errorf("root after close holds %v, want nothing", got)
	}
	// After close, a task's directory goes as the task ends.
	dir, err := w.take()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "f"), nil, 0o644)
	w.drop(dir)
	if _, err := os.Lstat(dir); !os.IsNotExist(err) {
		t.Errorf("%s after drop on a closed pool: %v, want it removed at once", dir, err)
	}
}

// A root that is gone (removed under a running host) is made again.
func TestWorkDirsRootGone(t *testing.T) {
	root := filepath.Join(t.TempDir(), "root")
	w := newWorkDirs(root, 0)
	defer w.close()
	for range 2 {
		dir, err := w.take()
		if err != nil || filepath.Dir(dir) != root {
			t.Fatalf("take() = %s, %v; want a directory under %s", dir, err, root)
		}
		w.drop(dir)
		w.idle()
		os.RemoveAll(root)
	}
	os.MkdirAll(root, 0o755)
	dir, err := w.take()
	if err != nil {
		t.Fatal(err)
	}
	w.drop(dir)
	w.idle()
	if got := entries(t, root); len(got) != 0 {
		t.Errorf("root holds %v, want nothing (nothing made ahead)", got)
	}
}

// walkWork lists what filepath.WalkDir lists but the directories, in the
// same order, following no link.
func TestWalkWork(t *testing.T) {
	work := t.TempDir()
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("x"), 0o644)
	for _, f := range []string{"b.txt", "a/z", "a/b/c", "a.txt", ".hidden", "zz/y/x/w"} {
		os.MkdirAll(filepath.Join(work, filepath.Dir(f)), 0o755)
		os.WriteFile(filepath.Join(work, f), []byte(f), 0o644)
	}
	os.Mkdir(filepath.Join(work, "empty"), 0o755)
	os.Symlink(outside, filepath.Join(work, "link-dir"))
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(work, "a", "link-file"))
	var want, got []string
	filepath.WalkDir(work, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(work, p)
			want = append(want, filepath.ToSlash(rel)+" "+p+" "+d.Type().String())
		}
		return nil
	})
	walkWork(work, func(rel, p string, d fs.DirEntry) error {
		got = append(got, rel+" "+p+" "+d.Type().String())
		return nil
	})
	if !slices.Equal(got, want) {
		t.Errorf("walkWork:\n%s\nwant (filepath.WalkDir):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var n int
	walkWork(work, func(string, string, fs.DirEntry) error {
		n++
		if n == 2 {
			return fs.SkipAll
		}
		return nil
	})
	if n != 2 {
		t.Errorf("walkWork went on after fs.SkipAll: %d calls, want 2", n)
	}
}

// BenchmarkWorkDir is the work directory's cost on a task's path: made and
// removed by the task itself (sync, as before workDirs), or taken from
// those made ahead and given back for removal (pool; the worker's mkdir and
// rmdir run beside it). Run it with:
//
//	go test ./a2a/host -run '^$' -bench WorkDir -benchtime 2000x
func BenchmarkWorkDir(b *testing.B) {
	b.Run("sync", func(b *testing.B) {
		root := b.TempDir()
		for i := 0; b.Loop(); i++ {
			dir := filepath.Join(root, workPrefix+strconv.Itoa(i))
			if err := mkdirUnder(dir); err != nil {
				b.Fatal(err)
			}
			removeWork(dir)
		}
	})
	b.Run("pool", func(b *testing.B) {
		w := newWorkDirs(b.TempDir(), 4)
		defer w.close()
		for b.Loop() {
			dir, err := w.take()
			if err != nil {
				b.Fatal(err)
			}
			w.drop(dir)
			// A task takes far longer than this loop: let the worker
			// keep up, as it does between tasks, outside the timing.
			b.StopTimer()
			w.idle()
			b.StartTimer()
		}
	})
}

// A directory made ahead long ago (it may have gone with a cleaner of old
// files) is not given out: it is removed, and the task gets a new one.
func TestWorkDirsStale(t *testing.T) {
	root := t.TempDir()
	w := newWorkDirs(root, 2)
	defer w.close()
	dir, err := w.take()
	if err != nil {
		t.Fatal(err)
	}
	w.drop(dir)
	w.idle()
	w.mu.Lock()
	if len(w.ready) != 2 {
		t.Fatalf("%d directories made ahead, want 2", len(w.ready))
	}
	old := map[string]bool{}
	for i := range w.ready {
		w.ready[i].made = w.ready[i].made.Add(-2 * staleAfter)
		old[w.ready[i].dir] = true
	}
	w.mu.Unlock()
	got, err := w.take()
	if err != nil || old[got] {
		t.Fatalf("take() = %s, %v; want a new directory, not one made ahead long ago", got, err)
	}
	if _, err := os.Stat(got); err != nil {
		t.Fatal(err)
	}
	w.drop(got)
	w.idle()
	for d := range old {
		if _, err := os.Lstat(d); !os.IsNotExist(err) {
			t.Errorf("stale %s: %v, want it removed", d, err)
		}
	}
}
