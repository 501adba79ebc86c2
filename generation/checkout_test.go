package generation

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitIn runs git in dir for a test, failing it on error.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// A repository copy that lacks the contents of some files (a mirror that
// left out large fixtures) still clones at a pinned commit: the missing
// files are left out of the work tree and named in the log.
func TestCloneLacksSomeContents(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	src := t.TempDir()
	gitIn(t, src, "init", "--quiet")
	files := map[string]string{
		"main.py":                 "print('hi')\n",
		"tests/fixtures/big.bin":  "large sample contents\n",
		"tests/fixtures/[odd].md": "odd name\n",
		"README.md":               "# tool\n",
	}
	for name, body := range files {
		p := filepath.Join(src, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitIn(t, src, "add", ".")
	gitIn(t, src, "commit", "--quiet", "-m", "first")
	commit := gitIn(t, src, "rev-parse", "HEAD")
	// Drop two blobs from the object store, as a partial mirror does.
	for _, name := range []string{"tests/fixtures/big.bin", "tests/fixtures/[odd].md"} {
		oid := gitIn(t, src, "rev-parse", "HEAD:"+name)
		if err := os.Remove(filepath.Join(src, ".git", "objects", oid[:2], oid[2:])); err != nil {
			t.Fatal(err)
		}
	}

	dst := filepath.Join(t.TempDir(), "clone")
	var log bytes.Buffer
	ref, err := clone(context.Background(), src, commit, dst, nil, &log)
	if err != nil {
		t.Fatalf("clone: %v\n%s", err, log.String())
	}
	if ref != commit {
		t.Errorf("ref = %q, want %q", ref, commit)
	}
	for _, name := range []string{"main.py", "README.md"} {
		if _, err := os.Stat(filepath.Join(dst, name)); err != nil {
			t.Errorf("%s not checked out: %v", name, err)
		}
	}
	for _, name := range []string{"tests/fixtures/big.bin", "tests/fixtures/[odd].md"} {
		if _, err := os.Stat(filepath.Join(dst, name)); err == nil {
			t.Errorf("%s checked out, though its contents are missing", name)
		}
		if !strings.Contains(log.String(), "# left out: "+name+": ") {
			t.Errorf("log does not name %s:\n%s", name, log.String())
		}
	}
}

// A complete repository clones as before, at HEAD when no ref is given.
func TestCloneComplete(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	src := t.TempDir()
	gitIn(t, src, "init", "--quiet")
	if err := os.WriteFile(filepath.Join(src, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, src, "add", ".")
	gitIn(t, src, "commit", "--quiet", "-m", "first")
	commit := gitIn(t, src, "rev-parse", "HEAD")
	dst := filepath.Join(t.TempDir(), "clone")
	var log bytes.Buffer
	ref, err := clone(context.Background(), src, "", dst, nil, &log)
	if err != nil {
		t.Fatalf("clone: %v\n%s", err, log.String())
	}
	if ref != commit {
		t.Errorf("ref = %q, want %q", ref, commit)
	}
	if b, err := os.ReadFile(filepath.Join(dst, "a.txt")); err != nil || string(b) != "a\n" {
		t.Errorf("a.txt = %q, %v", b, err)
	}
	if strings.Contains(log.String(), "# left out") {
		t.Errorf("a complete clone left something out:\n%s", log.String())
	}
}
