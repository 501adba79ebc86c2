package deploy

import (
	"archive/tar"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"textkit", "textkit"}, {"Text Kit!", "text-kit"}, {"--", "agent"}, {"a/b:c", "a-b-c"},
	} {
		if got := sanitize(tc.in); got != tc.want {
			t.Errorf("sanitize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for name, want := range map[string]bool{"python": true, "python3": true, "python3.11": true, "pythonx": false, "ipython": false} {
		if got := isPython(name); got != want {
			t.Errorf("isPython(%q) = %v, want %v", name, got, want)
		}
	}
	for _, tc := range []struct{ a, b, want string }{
		{"/x/out/kit", "/x/repos/kit", "/x"}, {"/x/kit", "/x/kit/repo", "/x/kit"}, {"/a", "/b", "/"},
	} {
		if got := commonDir(tc.a, tc.b); got != tc.want {
			t.Errorf("commonDir(%s, %s) = %s, want %s", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestToolchainShell assembles the files a shell script needs from this
// machine's own and checks the archive: the shell, its loader and
// libraries, the POSIX tools, every parent directory, and modes that let an
// unprivileged user read and run them.
func TestToolchainShell(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("ldd"); err != nil {
		t.Skip("no ldd on this machine")
	}
	repo := t.TempDir()
	script := filepath.Join(repo, "run")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nsort | uniq -c\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	tc := newToolchain(os.Environ())
	r := newRootfs()
	if err := tc.addCommand(r, "./run", repo); err != nil {
		t.Fatalf("addCommand(./run) error = %v", err)
	}
	if !r.shell {
		t.Fatal("a #!/bin/sh script did not mark the shell")
	}
	if err := tc.addShellTools(r); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "data"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := r.addTree(repo, "/agent", nil); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.writeTar(&buf, ""); err != nil {
		t.Fatal(err)
	}
	got := map[string]*tar.Header{}
	tr := tar.NewReader(&buf)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got["/"+filepath.Clean(h.Name)] = h
	}
	sh, _ := filepath.EvalSymlinks("/bin/sh")
	for _, want := range []string{"/bin/sh", sh, "/usr/bin/sort", "/agent/run", "/agent/data"} {
		if inArchive(got, want) == nil {
			t.Errorf("archive lacks %s", want)
		}
	}
	if got[script] != nil {
		t.Errorf("archive has the repo's %s at its host path; the repo goes with the bundle", script)
	}
	if h := got["/agent/run"]; h != nil && h.Mode != 0o755 {
		t.Errorf("mode of the 0700 script = %o, want 0755", h.Mode)
	}
	if h := got["/agent/data"]; h != nil && h.Mode != 0o644 {
		t.Errorf("mode of the 0600 file = %o, want 0644", h.Mode)
	}
	for name, h := range got {
		if h.Typeflag == tar.TypeDir && h.Mode&0o005 != 0o005 {
			t.Errorf("directory %s has mode %o, want world-searchable", name, h.Mode)
		}
		if d := filepath.Dir(name); d != "/" && got[d] == nil {
			t.Errorf("archive lacks %s, the parent of %s", d, name)
		}
	}
	libs := 0
	for _, lib := range tc.ldd[sh] {
		if h := inArchive(got, lib); h != nil && h.Typeflag == tar.TypeReg {
			libs++
		}
	}
	if len(tc.ldd[sh]) > 0 && libs != len(tc.ldd[sh]) {
		t.Errorf("archive has %d of the %d libraries of %s", libs, len(tc.ldd[sh]), sh)
	}
}

// inArchive finds path in the archive's entries, following its symbolic
// links as the container's kernel would.
func inArchive(entries map[string]*tar.Header, path string) *tar.Header {
	for range 40 {
		parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
		cur, moved := "/", false
		for i, part := range parts {
			cur = filepath.Join(cur, part)
			h := entries[cur]
			if h == nil {
				return nil
			}
			if h.Typeflag == tar.TypeSymlink {
				target := h.Linkname
				if !filepath.IsAbs(target) {
					target = filepath.Join(filepath.Dir(cur), target)
				}
				path, moved = filepath.Join(append([]string{target}, parts[i+1:]...)...), true
				break
			}
		}
		if !moved {
			return entries[cur]
		}
	}
	return nil
}
