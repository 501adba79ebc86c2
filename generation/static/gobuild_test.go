package static

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestGoNestedModule generates a Go repository whose command lives in a
// module of its own (cmd/tally/go.mod, which replaces the root module by
// its directory): the command is built in its module's directory, and
// becomes the one skill.
func TestGoNestedModule(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"go.mod":           "module example.com/tally\n\ngo 1.21\n",
		"tally.go":         "// Package tally counts words.\npackage tally\n\nimport \"strings\"\n\n// Count counts the words of s.\nfunc Count(s string) int { return len(strings.Fields(s)) }\n",
		"cmd/tally/go.mod": "module example.com/tally/cmd/tally\n\ngo 1.21\n\nrequire example.com/tally v0.0.0\n\nreplace example.com/tally => ../../\n",
		"cmd/tally/main.go": "// Command tally counts the words of its arguments.\npackage main\n\nimport (\n\t\"flag\"\n\t\"fmt\"\n\t\"strings\"\n\n\t\"example.com/tally\"\n)\n\n" +
			"func main() {\n\tflag.Parse()\n\tfmt.Println(tally.Count(strings.Join(flag.Args(), \" \")))\n}\n",
		"cmd/tally/extra/main.go": "// Command extra is a second command of the nested module.\npackage main\n\nimport \"flag\"\n\nfunc main() { flag.Parse() }\n",
	}
	dir := writeRepo(t, files)
	tools := goTools(mustScan(t, dir))
	var setups [][]string
	for _, tool := range tools {
		setups = append(setups, tool.Setup[len(tool.Setup)-1])
	}
	want := [][]string{
		{"go", "build", "-C", "cmd/tally", "-mod=mod", "-trimpath", "-o", "{{repo}}/.agentnet/bin/tally", "."},
		{"go", "build", "-C", "cmd/tally", "-mod=mod", "-trimpath", "-o", "{{repo}}/.agentnet/bin/extra", "./extra"},
	}
	slices.SortFunc(want, func(a, b []string) int { return strings.Compare(a[len(a)-1], b[len(b)-1]) })
	slices.SortFunc(setups, func(a, b []string) int { return strings.Compare(a[len(a)-1], b[len(b)-1]) })
	if diff := cmp.Diff(want, setups); diff != "" {
		t.Errorf("goTools() setup (-want +got):\n%s", diff)
	}

	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go on this machine")
	}
	delete(files, "cmd/tally/extra/main.go")
	dir = writeRepo(t, files)
	res, err := Generate(t.Context(), dir, Options{Env: os.Environ(), ProbeTimeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	var ids []string
	for _, sk := range res.Bundle.Skills {
		ids = append(ids, sk.ID)
	}
	if !slices.Equal(ids, []string{"tally"}) {
		t.Errorf("skills = %v, want [tally] (notes %q)", ids, res.Notes)
	}
	if _, err := os.Stat(filepath.Join(dir, ".agentnet", "bin", "tally")); err != nil {
		t.Errorf("the command was not built: %v", err)
	}
}

// TestErrorLineGoProgress checks that a failed go build is explained by
// its error, not by the modules it downloaded first.
func TestErrorLineGoProgress(t *testing.T) {
	t.Parallel()
	out := "go: downloading github.com/acme/kong-hcl v1.0.1\ngo: downloading github.com/acme/mux v1.8.1\ngo: updates to go.mod needed; to update it:\n\tgo mod tidy\n"
	if got, want := errorLine(out), "go: updates to go.mod needed; to update it:"; got != want {
		t.Errorf("errorLine(%q) = %q, want %q", out, got, want)
	}
}
