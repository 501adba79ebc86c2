package static

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentnet/agentnet/bundle"
)

// writeRepo writes files (path → content; a leading "x:" marks an
// executable) under a fresh directory.
func writeRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		mode := os.FileMode(0o644)
		if rest, ok := strings.CutPrefix(content, "x:"); ok {
			content, mode = rest, 0o755
		}
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestGenerateLeavesOutNonTools generates a repository whose scripts are a
// real tool, a server whose --help never returns, a program that answers
// --help with an error, a bash script, a benchmark script and a loose
// Python helper: only the tools become skills, and each script is checked
// by the shell it is written for.
func TestGenerateLeavesOutNonTools(t *testing.T) {
	t.Parallel()
	dir := writeRepo(t, map[string]string{
		"wordy": "x:#!/bin/sh\n# Count words.\ncase \"$1\" in --help) echo 'Usage: wordy FILE'; echo; echo 'Count the words of FILE.'; exit 0;; esac\nwc -w < \"$1\"\n",
		// a server: --help starts it
		"serve": "x:#!/bin/sh\n# usage: serve (listens forever)\nsleep 60\n",
		// a generator run by go generate: --help is an error
		"regen": "x:#!/bin/sh\n# usage: regen\necho 'failed to open constants file: no such file or directory' >&2\nexit 1\n",
		// bash, not sh: arrays
		"tally.sh":     "#!/bin/bash\n# Tally the arguments.\nitems=(\"$@\")\necho \"${#items[@]}\"\n",
		"benchmark.sh": "#!/bin/sh\n# usage: benchmark.sh\necho timing\n",
		"plot_results.py": "def extract_version(command: str) -> str:\n    \"\"\"Extract the version from a command line.\"\"\"\n    return command.split()[-1]\n\n" +
			"if __name__ == '__main__':\n    print(extract_version('tool 1.0'))\n",
	})
	res, err := Generate(t.Context(), dir, Options{Name: "tools", ProbeTimeout: 2 * time.Second})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	var ids []string
	for _, sk := range res.Bundle.Skills {
		ids = append(ids, sk.ID)
	}
	slices.Sort(ids)
	if want := []string{"tally", "wordy"}; !slices.Equal(ids, want) {
		t.Errorf("skills = %v, want %v (notes %q)", ids, want, res.Notes)
	}
	notes := strings.Join(res.Notes, "\n")
	for _, want := range []string{"--help did not exit within 2s", "--help failed without a usage: failed to open constants file"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes = %q, want one saying %q", res.Notes, want)
		}
	}
	if !slices.ContainsFunc(res.Bundle.Check, func(c bundle.Command) bool { return slices.Equal(c, bundle.Command{"bash", "-n", "tally.sh"}) }) {
		t.Errorf("checks = %q, want bash -n tally.sh", res.Bundle.Check)
	}
}

// TestGoPackageCaps reads a Go package's API: a function that only adds
// parameters to another of the same name prefix is its variant, a prefix
// that is part of another word is not, and the README's calls rank first.
func TestGoPackageCaps(t *testing.T) {
	t.Parallel()
	src := `package units

// Bytes writes a size in SI units: 82854982 is "83 MB".
func Bytes(s uint64) string { return "" }

// BytesN writes a size in SI units with n digits in all.
func BytesN(s uint64, n int) string { return "" }

// IBytes writes a size in IEC units: 82854982 is "79 MiB".
func IBytes(s uint64) string { return "" }

// SI writes a number with an SI prefix and a unit: 2.2345e-12 "F" is "2.2345 pF".
func SI(input float64, unit string) string { return "" }

// SIWithDigits writes a number with an SI prefix, rounded to decimals.
func SIWithDigits(input float64, decimals int, unit string) string { return "" }

// Plural writes a count and a noun in the right number: "3 buses".
func Plural(quantity int, singular, plural string) string { return "" }

// PluralWord writes a noun in the right number: "buses".
func PluralWord(quantity int, singular, plural string) string { return "" }
`
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, "units.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	readme := readmeCalls("Sizes: `units.IBytes(82854982)`.\n\n```go\nfmt.Println(units.SI(0.0000000022, \"M\"))\n```\n")
	stems, scores := map[string]string{}, map[string]int{}
	for _, c := range goPackageCaps([]*ast.File{af}, "example.com/units", true, readme) {
		stems[c.cap.id], scores[c.cap.id] = c.cap.stem, c.cap.score
	}
	want := map[string]string{
		"bytes": "bytes", "bytes-n": "bytes", "ibytes": "ibytes",
		"si": "si", "siwith-digits": "si", "plural": "plural", "plural-word": "plural_word",
	}
	if diff := cmp.Diff(want, stems); diff != "" {
		t.Errorf("goPackageCaps() stems (-want +got):\n%s", diff)
	}
	if scores["ibytes"] <= scores["bytes"] || scores["si"] <= scores["siwith-digits"] {
		t.Errorf("scores = %v, want the README's IBytes above Bytes and its SI above SIWithDigits", scores)
	}
}

// TestClassCapabilitiesSkipEchoes checks that a property giving back a
// constructor argument is no capability, and that a class that only
// reports what it was given is none either.
func TestClassCapabilitiesSkipEchoes(t *testing.T) {
	t.Parallel()
	str := func(n string) pyParam { return pyParam{Name: n, Kind: "pos", Annotation: "str"} }
	init := &pyFunc{Name: "__init__", Params: []pyParam{{Name: "self", Kind: "pos"}, str("interpreter"), str("platform")}}
	prop := func(name, summary string) pyFunc {
		return pyFunc{Name: name, Doc: summary, Parsed: pyDoc{Summary: summary}, Returns: "str"}
	}
	it := pyItem{Public: "wheeltags", Module: "wheeltags", Name: "Tag", Kind: "class", How: "all"}
	record := &pyClass{Name: "Tag", Doc: "A wheel's tag.", Parsed: pyDoc{Summary: "A wheel's tag."}, Init: init,
		Properties: []pyFunc{prop("interpreter", "The interpreter name."), prop("platform", "The platform name.")}}
	if caps := classCapabilities(it, record, nil); len(caps) != 0 {
		t.Errorf("classCapabilities(record of its inputs) = %d capabilities (%s), want none", len(caps), caps[0].id)
	}
	computed := *record
	computed.Properties = append(computed.Properties, prop("python_versions", "The Python versions the interpreter name allows, newest first."))
	var ids []string
	for _, c := range classCapabilities(it, &computed, nil) {
		ids = append(ids, c.id)
	}
	if want := []string{"tag-python-versions"}; !slices.Equal(ids, want) {
		t.Errorf("classCapabilities(with a computed property) = %v, want %v", ids, want)
	}
}
