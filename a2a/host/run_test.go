package host

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// writeProgram writes an executable shell script printing what to dir/name.
func writeProgram(t *testing.T, dir, name, what string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\necho "+what+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestProgramCache: a bare name is found on PATH and remembered; the
// program remembered is looked up again when it is gone from where it was
// found, or no longer executable, or PATH changed; paths and names not
// found are left to exec; the cache holds at most max names.
func TestProgramCache(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("shell scripts")
	}
	a, b := t.TempDir(), t.TempDir()
	t.Setenv("PATH", a+string(os.PathListSeparator)+b)
	c := &programCache{max: 2}
	inB := writeProgram(t, b, "tool", "b")
	if got := c.look("tool"); got != inB {
		t.Fatalf("look(tool) = %q, want %q", got, inB)
	}
	inA := writeProgram(t, a, "tool", "a")
	if got := c.look("tool"); got != inB {
		t.Errorf("look(tool) with the remembered one still there = %q, want %q", got, inB)
	}
	if err := os.Chmod(inB, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := c.look("tool"); got != inA {
		t.Errorf("look(tool) after %s lost its execute bit = %q, want %q", inB, got, inA)
	}
	if err := os.Remove(inA); err != nil {
		t.Fatal(err)
	}
	if got := c.look("tool"); got != "tool" {
		t.Errorf("look(tool) with no executable tool on PATH = %q, want the name for exec to report", got)
	}
	t.Setenv("PATH", b)
	if err := os.Chmod(inB, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := c.look("tool"); got != inB {
		t.Errorf("look(tool) after PATH changed = %q, want %q", got, inB)
	}
	if got := c.look("./tool"); got != "./tool" {
		t.Errorf("look(./tool) = %q, want it unchanged", got)
	}
	for _, n := range []string{"x1", "x2", "x3"} {
		writeProgram(t, b, n, n)
		c.look(n)
	}
	if len(c.at) > c.max {
		t.Errorf("cache holds %d names, want at most %d", len(c.at), c.max)
	}
}

// TestRunProcessArgv0: a program found on PATH is called by the name the
// run template gave it (multi-call programs choose their mode by it), not
// by the path it was found at.
func TestRunProcessArgv0(t *testing.T) {
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("no /proc")
	}
	spec := runSpec{argv: []string{"cat", "/proc/self/cmdline"}, dir: t.TempDir(), env: os.Environ(), timeout: time.Minute, maxOutput: 1 << 16}
	for range 2 { // found, then remembered
		res, err := runProcess(context.Background(), spec, func(func()) {})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Split(string(res.stdout), "\x00")[0]; got != "cat" {
			t.Errorf("argv[0] = %q, want cat", got)
		}
	}
}

// TestRemoveWork: a work directory goes, empty or not.
func TestRemoveWork(t *testing.T) {
	root := t.TempDir()
	empty, full := filepath.Join(root, "empty"), filepath.Join(root, "full")
	for _, d := range []string{empty, filepath.Join(full, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeProgram(t, filepath.Join(full, "sub"), "f", "x")
	for _, d := range []string{empty, full} {
		removeWork(d)
		if _, err := os.Lstat(d); !os.IsNotExist(err) {
			t.Errorf("%s after removeWork: %v, want it gone", d, err)
		}
	}
}
