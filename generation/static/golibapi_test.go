package static

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestGoLibraryShapesBuilt generates and builds the wrapper of a Go
// library whose API takes the common shapes: a constructor that takes
// only functional options (New(opts ...Option)) and a method of what it
// builds, a function that writes to an io.Writer and returns only an
// error, and a function that takes a pointer to an options struct. Each
// becomes a skill, and each runs: options left out, the output file
// written and named, the struct decoded from a JSON object or nil. The
// option functions themselves, whose results are funcs, are no skills.
func TestGoLibraryShapesBuilt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a Go program")
	}
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go on this machine")
	}
	src := `// Package shout makes text loud.
package shout

import (
	"fmt"
	"io"
	"strings"
)

// Option sets an option of a Shouter.
type Option func(*Shouter)

// WithMark ends every shout with mark.
func WithMark(mark string) Option { return func(s *Shouter) { s.mark = mark } }

// Shouter shouts text.
type Shouter struct{ mark string }

// New returns a Shouter with the options applied.
func New(opts ...Option) *Shouter {
	s := &Shouter{mark: "!"}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Shout returns the text in capital letters, marked.
func (s *Shouter) Shout(text string) string { return strings.ToUpper(text) + s.mark }

// Banner writes the text as a banner framed by a line of stars.
func Banner(w io.Writer, text string) error {
	_, err := fmt.Fprintf(w, "%s\n%s\n%s\n", strings.Repeat("*", len(text)), text, strings.Repeat("*", len(text)))
	return err
}

// Style is how Pad pads.
type Style struct {
	Width int    ` + "`json:\"width\"`" + `
	Fill  string ` + "`json:\"fill\"`" + `
}

// Pad pads the text on the right to a width, with a fill character.
func Pad(text string, style *Style) string {
	if style == nil {
		return "[" + text + "]"
	}
	return text + strings.Repeat(style.Fill, style.Width-len(text))
}
`
	dir := writeRepo(t, map[string]string{
		"go.mod":    "module example.com/shout\n\ngo 1.21\n",
		"README.md": "# shout\n\n```go\nshout.New().Shout(\"hi\")\n```\n",
		"shout.go":  src,
	})
	r, err := scan(dir, "shout")
	if err != nil {
		t.Fatal(err)
	}
	bdir := t.TempDir()
	tool := goLibraryTool(r, "shout", bdir)
	if tool == nil {
		t.Fatal("goLibraryTool = nil, want the library's skills")
	}
	var ids []string
	for _, sk := range tool.Skills {
		ids = append(ids, sk.ID)
	}
	for _, want := range []string{"shouter-shout", "banner", "pad"} {
		if !slices.Contains(ids, want) {
			t.Fatalf("skills = %v, want %s among them", ids, want)
		}
	}
	if slices.Contains(ids, "with-mark") {
		t.Errorf("skills = %v: an option (a func value) prints nothing and is no skill", ids)
	}
	if err := writeFiles(dir, bdir, []*Tool{tool}); err != nil {
		t.Fatal(err)
	}
	wdir := filepath.Join(bdir, "wrapper", "go", "shout")
	bin := filepath.Join(t.TempDir(), "shout-skills")
	build := exec.CommandContext(t.Context(), "go", "build", "-mod=mod", "-o", bin, ".")
	build.Dir = wdir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	work := t.TempDir()
	run := func(args ...string) string {
		cmd := exec.CommandContext(t.Context(), bin, args...)
		cmd.Dir = work
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("%v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if got := run("shouter-shout", "--text=hi"); got != "HI!" {
		t.Errorf("shouter-shout = %q, want HI!", got)
	}
	if got := run("banner", "--w=banner.txt", "--text=ahoy"); got != "wrote banner.txt" {
		t.Errorf("banner printed %q, want the file it wrote", got)
	}
	if b, err := os.ReadFile(filepath.Join(work, "banner.txt")); err != nil || string(b) != "****\nahoy\n****\n" {
		t.Errorf("banner.txt = %q, %v", b, err)
	}
	if got := run("pad", "--text=ab", `--style={"width": 5, "fill": "."}`); got != "ab..." {
		t.Errorf("pad with a style = %q, want ab...", got)
	}
	if got := run("pad", "--text=ab"); got != "[ab]" {
		t.Errorf("pad without a style = %q, want [ab]", got)
	}
}
