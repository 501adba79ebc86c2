package image

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
		if got := Sanitize(tc.in); got != tc.want {
			t.Errorf("Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
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
	tc := NewToolchain(os.Environ())
	r := NewRootfs()
	if err := tc.AddCommand(r, "./run", repo); err != nil {
		t.Fatalf("addCommand(./run) error = %v", err)
	}
	if !r.Shell {
		t.Fatal("a #!/bin/sh script did not mark the shell")
	}
	if err := tc.AddShellTools(r); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "data"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := r.addTree(repo, "/agent", nil); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.WriteTar(&buf, ""); err != nil {
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

// TestPythonPackages builds site directories and a repo on disk and checks
// which packages go into the image: those the repo's code imports, what
// they import in turn (absolute, conditional or through importlib), their
// metadata, a namespace package's portions from every site directory — and
// nothing else (not what only setup.py imports).
func TestPythonPackages(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	site1, site2, repo := filepath.Join(root, "site1"), filepath.Join(root, "site2"), filepath.Join(root, "repo")
	files := map[string]string{
		"repo/app/main.py":                            "import os, alpha.sub as s\nfrom . import local\nfrom gamma import g  # noqa\ndef f():\n    import ns.one\n",
		"repo/app/local.py":                           "import not_installed\n",
		"repo/setup.py":                               "from setuptools import setup\n",
		"site1/setuptools/__init__.py":                "",
		"site1/alpha/__init__.py":                     "from beta import b\n",
		"site1/alpha/sub.py":                          "import importlib\nX = importlib.import_module('delta')\n",
		"site1/beta.py":                               "try:\n    import epsilon\nexcept ImportError:\n    pass\n",
		"site1/gamma.cpython-311-x86_64-linux-gnu.so": "not really ELF",
		"site1/delta/__init__.py":                     "",
		"site1/epsilon.py":                            "",
		"site1/zeta.py":                               "",
		"site1/eta/__init__.py":                       "",
		"site1/eta/cli.py":                            "",
		"site1/unused/__init__.py":                    "import alpha\n",
		"site1/ns/one.py":                             "",
		"site2/ns/two.py":                             "",
		"site2/alpha/__init__.py":                     "shadowed by site1's\n",
		"site1/Alpha-1.0.dist-info/top_level.txt":     "alpha\n",
		"site1/Alpha-1.0.dist-info/METADATA":          "Name: Alpha\n",
		"site1/Unused-2.0.dist-info/RECORD":           "unused/__init__.py,,\n",
		"site1/beta-3.0.egg-info/PKG-INFO":            "Name: beta\n",
	}
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tree, err := walkPython(repo)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRootfs()
	r.pythons["/usr/bin/python3"] = &pythonInfo{executable: "/usr/bin/python3", sites: []string{site1, site2}}
	tc := NewToolchain(os.Environ())
	argvs := [][]string{{"python3", "-c", "import zeta; print(zeta)"}, {"python3", "-m", "eta.cli"}}
	if err := tc.addPythonPackages(r, tree.files, argvs...); err != nil {
		t.Fatalf("addPythonPackages() error = %v", err)
	}
	for _, want := range []string{
		"site1/alpha/__init__.py", "site1/alpha/sub.py", "site1/beta.py", "site1/gamma.cpython-311-x86_64-linux-gnu.so",
		"site1/delta/__init__.py", "site1/epsilon.py", "site1/ns/one.py", "site2/ns/two.py",
		"site1/zeta.py", "site1/eta/cli.py",
		"site1/Alpha-1.0.dist-info/METADATA", "site1/beta-3.0.egg-info/PKG-INFO",
	} {
		if _, ok := r.Files[filepath.Join(root, want)]; !ok {
			t.Errorf("the image lacks %s", want)
		}
	}
	for _, unwanted := range []string{"site1/unused/__init__.py", "site2/alpha/__init__.py", "site1/Unused-2.0.dist-info/RECORD", "site1/setuptools/__init__.py"} {
		if _, ok := r.Files[filepath.Join(root, unwanted)]; ok {
			t.Errorf("the image holds %s, which nothing imports", unwanted)
		}
	}
	for p := range r.Files {
		if strings.HasPrefix(p, repo) {
			t.Errorf("the repo's own %s went into the image with the site packages", p)
		}
	}
}

// TestVenvInterpreter makes a real venv with this machine's python3 and
// checks that its interpreter goes into the image at its host path, with
// the links from the venv's bin/python to it and pyvenv.cfg's home.
func TestVenvInterpreter(t *testing.T) {
	t.Parallel()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on this machine")
	}
	if _, err := exec.LookPath("ldd"); err != nil {
		t.Skip("no ldd on this machine")
	}
	repo := t.TempDir()
	venv := filepath.Join(repo, ".agentnet", "venv")
	if out, err := exec.Command(py, "-m", "venv", "--without-pip", venv).CombinedOutput(); err != nil {
		t.Skipf("python3 cannot make a venv here: %v %s", err, out)
	}
	tree, err := walkPython(repo)
	if err != nil {
		t.Fatal(err)
	}
	if len(tree.venvs) != 1 || tree.venvs[0] != venv {
		t.Fatalf("walkPython() venvs = %v, want [%s]", tree.venvs, venv)
	}
	tc := NewToolchain(os.Environ())
	r := NewRootfs()
	if err := tc.addVenv(r, venv); err != nil {
		t.Fatalf("addVenv() error = %v", err)
	}
	real, err := filepath.EvalSymlinks(filepath.Join(venv, "bin", "python"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Files[real]; !ok {
		t.Errorf("the image lacks the venv's interpreter %s", real)
	}
	if len(r.pythons) != 1 {
		t.Errorf("pythons = %v, want the venv's interpreter", r.pythons)
	}
	cfg := readPyvenvCfg(filepath.Join(venv, "pyvenv.cfg"))
	if home := cfg["home"]; home == "" || !r.Dirs[home] && r.Links[home] == "" {
		t.Errorf("the image lacks pyvenv.cfg's home %q", home)
	}
	// The first link out of the venv is in the image, as on the host.
	target, _ := os.Readlink(filepath.Join(venv, "bin", "python"))
	for !filepath.IsAbs(target) {
		target, _ = os.Readlink(filepath.Join(venv, "bin", target))
	}
	if fi, err := os.Lstat(target); err == nil && fi.Mode()&os.ModeSymlink != 0 && r.Links[target] == "" {
		t.Errorf("the image lacks the link %s the venv's python points to", target)
	}
	for p := range r.Files {
		if strings.HasPrefix(p, repo) {
			t.Errorf("the venv's own %s went into the base image", p)
		}
	}
}
