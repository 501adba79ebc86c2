package static

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoLibraryMajorVersion generates skills from a Go library whose
// module path ends in a major version (/v2): the wrapper's go.mod must
// require it at that major version, or the wrapper does not build.
func TestGoLibraryMajorVersion(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go on this machine")
	}
	for module, want := range map[string]string{
		"example.com/shout":    "v0.0.0-00010101000000-000000000000",
		"example.com/shout/v2": "v2.0.0-00010101000000-000000000000",
		"example.com/v1":       "v0.0.0-00010101000000-000000000000",
	} {
		if got := placeholderVersion(module); got != want {
			t.Errorf("placeholderVersion(%q) = %q, want %q", module, got, want)
		}
	}
	dir := writeRepo(t, map[string]string{
		"go.mod":    "module example.com/shout/v2\n\ngo 1.21\n",
		"README.md": "# shout\n\n```go\nshout.Upper(\"hi\")\n```\n",
		"shout.go":  "// Package shout makes text loud.\npackage shout\n\nimport \"strings\"\n\n// Upper returns text in capital letters.\nfunc Upper(text string) string { return strings.ToUpper(text) }\n",
	})
	bdir := t.TempDir()
	r, err := scan(dir, "shout")
	if err != nil {
		t.Fatal(err)
	}
	tool := goLibraryTool(r, "shout", bdir)
	if tool == nil {
		t.Fatal("goLibraryTool = nil, want the library's skills")
	}
	if err := writeFiles(dir, bdir, []*Tool{tool}); err != nil {
		t.Fatal(err)
	}
	built := 0
	for name := range tool.Files {
		if !strings.HasSuffix(name, "/go.mod") {
			continue
		}
		built++
		wdir := filepath.Join(bdir, filepath.Dir(strings.TrimPrefix(name, bundleVar+"/")))
		cmd := exec.CommandContext(t.Context(), "go", "build", "-mod=mod", "-o", os.DevNull, ".")
		cmd.Dir = wdir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go build in %s: %v\n%s", wdir, err, out)
		}
	}
	if built == 0 {
		t.Errorf("files = %v, want a wrapper with a go.mod", tool.Files)
	}
}
