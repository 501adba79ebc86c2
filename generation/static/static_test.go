package static

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
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
// --help with an error, a bash script, a benchmark script, a script that
// reads no input and a loose Python helper: only the tools become skills, and each script is checked
// by the shell it is written for.
func TestGenerateLeavesOutNonTools(t *testing.T) {
	t.Parallel()
	dir := writeRepo(t, map[string]string{
		"wordy": "x:#!/bin/sh\n# Count words.\ncase \"$1\" in --help) echo 'Usage: wordy FILE'; echo; echo 'Count the words of FILE.'; exit 0;; esac\nwc -w < \"$1\"\n",
		// a server: --help starts it
		"serve": "x:#!/bin/sh\n# usage: serve [PORT] (listens forever)\nport=${1:-8080}\nsleep 60\n",
		// a generator run by go generate: --help is an error
		"regen": "x:#!/bin/sh\n# usage: regen [DIR]\ndir=${1:-.}\necho 'failed to open constants file: no such file or directory' >&2\nexit 1\n",
		// bash, not sh: arrays
		"tally.sh":     "#!/bin/bash\n# Tally the arguments.\nitems=(\"$@\")\necho \"${#items[@]}\"\n",
		"benchmark.sh": "#!/bin/sh\n# usage: benchmark.sh\necho timing\n",
		// its shell cannot read it: its check would fail the bundle
		"broken.sh": "#!/bin/sh\n# Summarise a log file.\nsummary() {\n  if [ -n \"$1\" ]; then\n    grep -c x \"$1\"\n  }\nsummary \"$@\"\n",
		// reads no argument and no input: checks the repo's own docs
		"checklinks.sh": "#!/bin/bash\n# Check the links of the docs.\nfor f in docs/*.md; do markdown-link-check -q \"$f\"; done\n",
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
	for _, want := range []string{"--help did not exit within 2s", "--help failed without a usage: failed to open constants file", `its check "sh -n broken.sh" fails`} {
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

// TestGoSharedHelpers checks that an exported function the package's own
// API builds on — called by two of its other exported functions — is no
// skill when the README's examples call the package but not it, and stays
// one when the README calls it or calls nothing of the package.
func TestGoSharedHelpers(t *testing.T) {
	t.Parallel()
	src := `package codes

// Clean upper-cases a code and drops its spaces.
func Clean(s string) string { return s }

// Verify tells whether a code's check digit holds.
func Verify(code string) bool { return Clean(code) != "" }

// Pretty writes a code in groups of three.
func Pretty(code string) string { return Clean(code) }

// Digit computes a code's check digit.
func Digit(code string) int { return len(Clean(code)) + Digit(code) }

// Join joins codes with a comma.
func Join(codes []string) string { return Pretty(codes[0]) }
`
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, "codes.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		readme string
		want   []string
	}{
		// Clean has three callers and the README leaves it out; Pretty has
		// one caller, Digit only itself.
		{"```go\ncodes.Verify(\"ab 12\")\ncodes.Pretty(\"ab12\")\n```", []string{"verify", "pretty", "digit", "join"}},
		{"Call `codes.Clean(s)` first, then `codes.Verify(s)`.", []string{"clean", "verify", "pretty", "digit", "join"}},
		{"No examples here.", []string{"clean", "verify", "pretty", "digit", "join"}},
	} {
		var got []string
		for _, c := range goPackageCaps([]*ast.File{af}, "example.com/codes", true, readmeCalls(tc.readme)) {
			got = append(got, c.cap.id)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("goPackageCaps() with README %q (-want +got):\n%s", tc.readme, diff)
		}
	}
}

// TestPythonSharedHelpers is TestGoSharedHelpers for a Python library:
// pyscan.py counts a function's callers among its module's public
// functions and methods, and a function with two that the README's
// examples leave out is no skill.
func TestPythonSharedHelpers(t *testing.T) {
	t.Parallel()
	code := `"""Check codes."""


def clean(s: str) -> str:
    """Upper-case a code and drop its spaces."""
    return s.upper().replace(" ", "")


def verify(code: str) -> bool:
    """Tell whether a code's check digit holds."""
    return clean(code) != ""


def pretty(code: str) -> str:
    """Write a code in groups of three."""
    return clean(code)


class Batch:
    def __init__(self, codes: str):
        self.codes = [clean(c) for c in codes.split(",")]

    def first(self) -> str:
        return pretty(self.codes[0])
`
	for _, tc := range []struct {
		readme string
		want   []string
	}{
		{"# codes\n\n```python\nfrom codes import verify, pretty\nverify(\"ab 12\")\n```\n", []string{"pretty", "verify"}},
		{"# codes\n\n```python\nfrom codes import clean, verify\nverify(clean(\"ab 12\"))\n```\n", []string{"clean", "pretty", "verify"}},
		{"# codes\n\nChecks codes.\n", []string{"clean", "pretty", "verify"}},
	} {
		dir := writeRepo(t, map[string]string{"codes.py": code, "README.md": tc.readme})
		r, err := scan(dir, "codes")
		if err != nil {
			t.Fatal(err)
		}
		sc, err := pythonScan(t.Context(), r, os.Environ())
		if err != nil {
			t.Fatal(err)
		}
		skills, _, _ := pyLibrarySkills(sc.API, []string{"python3", "wrap.py"})
		var got []string
		for _, sk := range skills {
			if sk.ID == "clean" || sk.ID == "verify" || sk.ID == "pretty" {
				got = append(got, sk.ID)
			}
		}
		slices.Sort(got)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("skills with README %q (-want +got):\n%s", tc.readme, diff)
		}
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

func TestErrorLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ out, want string }{
		{"Traceback (most recent call last):\n  File \"x.py\", line 3, in <module>\n    import pathspec\nModuleNotFoundError: No module named 'pathspec'\n",
			"ModuleNotFoundError: No module named 'pathspec'"},
		{"node:internal/modules/esm/resolve:283\n    throw new ERR_MODULE_NOT_FOUND(\n          ^\n\nError [ERR_MODULE_NOT_FOUND]: Cannot find module '/r/lib/marked.esm.js' imported from /r/bin/main.js\n    at finalizeResolution (node:internal/modules/esm/resolve:283:11)\n",
			"Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/r/lib/marked.esm.js' imported from /r/bin/main.js"},
		{"panic: runtime error: index out of range\n\ngoroutine 1 [running]:\n", "panic: runtime error: index out of range"},
		{"failed to open constants file: no such file or directory\n", "failed to open constants file: no such file or directory"},
		{"npm warn EBADENGINE Unsupported engine {\nnpm error code ENOTFOUND\nnpm error syscall getaddrinfo\nnpm error network request to https://registry.npmjs.org/x failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org\n",
			"npm error network request to https://registry.npmjs.org/x failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org"},
		{"\n\n", ""},
	} {
		if got := errorLine(tc.out); got != tc.want {
			t.Errorf("errorLine(%q) = %q, want %q", tc.out, got, tc.want)
		}
	}
}

// TestNodeBuiltEntry generates a Node package that ships without its built
// entry module: setup runs its build script, then the bin works. The build
// script uses only Node itself, so no registry is needed.
func TestNodeBuiltEntry(t *testing.T) {
	t.Parallel()
	for _, prog := range []string{"node", "npm"} {
		if _, err := exec.LookPath(prog); err != nil {
			t.Skipf("no %s on this machine", prog)
		}
	}
	dir := writeRepo(t, map[string]string{
		"package.json": `{"name": "shout", "description": "Shout a text in capitals.", "main": "./lib/index.js",
			"bin": {"shout": "bin/shout.js"}, "scripts": {"build": "node build.js"}}`,
		"build.js": "const fs = require('fs');\nfs.mkdirSync('lib', {recursive: true});\n" +
			"fs.writeFileSync('lib/index.js', 'exports.shout = s => s.toUpperCase() + \"!\";\\n');\n",
		"bin/shout.js": "#!/usr/bin/env node\nconst {shout} = require('../lib/index.js');\nconst args = process.argv.slice(2);\n" +
			"if (args[0] === '--help') { console.log('Usage: shout TEXT\\n\\nShout TEXT in capitals.'); process.exit(0); }\n" +
			"console.log(shout(args.join(' ')));\n",
	})
	res, err := Generate(t.Context(), dir, Options{Name: "shout", Env: os.Environ(), ProbeTimeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if !slices.ContainsFunc(res.Bundle.Setup, func(c bundle.Command) bool { return slices.Equal(c, bundle.Command{"npm", "run", "build"}) }) {
		t.Errorf("setup = %q, want npm run build", res.Bundle.Setup)
	}
	if len(res.Bundle.Skills) != 1 || res.Bundle.Skills[0].ID != "shout" {
		t.Fatalf("skills = %+v, want shout (notes %q)", res.Bundle.Skills, res.Notes)
	}
}

// TestGoWithoutModule generates a Go repository from before modules: no
// go.mod, a library at the root and its command under cmd/. The copy gets
// a go.mod under the import path the command uses, the command
// builds, and the repository's maintenance scripts are no skills.
func TestGoWithoutModule(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go on this machine")
	}
	dir := writeRepo(t, map[string]string{
		"shout.go": "// Package shout shouts.\npackage shout\n\nimport \"strings\"\n\n// Shout upper-cases s.\nfunc Shout(s string) string { return strings.ToUpper(s) + \"!\" }\n",
		"cmd/shout/main.go": "// Command shout shouts its arguments.\npackage main\n\nimport (\n\t\"flag\"\n\t\"fmt\"\n\t\"strings\"\n\n\t\"example.com/legacy/shout\"\n)\n\n" +
			"func main() {\n\tflag.Parse()\n\tfmt.Println(shout.Shout(strings.Join(flag.Args(), \" \")))\n}\n",
		"scripts/pre-commit.sh": "x:#!/bin/sh\n# usage: pre-commit.sh\ngofmt -l .\n",
		"scripts/tidy-up.sh":    "x:#!/bin/sh\n# usage: tidy-up.sh\necho tidy\n",
	})
	res, err := Generate(t.Context(), dir, Options{Name: "shout", Env: os.Environ(), ProbeTimeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	var ids []string
	for _, sk := range res.Bundle.Skills {
		ids = append(ids, sk.ID)
	}
	if !slices.Equal(ids, []string{"shout"}) {
		t.Errorf("skills = %v, want [shout] (notes %q)", ids, res.Notes)
	}
	// dir stands for the bundle's copy of the repository.
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil || !strings.HasPrefix(string(mod), "module example.com/legacy/shout\n") {
		t.Errorf("go.mod of the copy = %q (%v), want module example.com/legacy/shout", mod, err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".agentnet", "bin", "shout")); err != nil {
		t.Errorf("the command was not built: %v", err)
	}
}

// TestGoLibraryShapes checks a JSON-path library's API: Get is a skill
// (a package's get is no container method), its bare path parameter is no
// file unless the doc speaks of files, and a value's conversions (Bool,
// Int) are no skills while its other methods are.
func TestGoLibraryShapes(t *testing.T) {
	t.Parallel()
	src := `package jpath

// Result is a value found in a document.
type Result struct{ Raw string }

// Parse parses a JSON document and returns its root value.
func Parse(json string) Result { return Result{Raw: json} }

// Get searches json for the path, such as "name.last".
func Get(json, path string) Result { return Result{} }

// Load reads the JSON file at path.
func Load(path string) Result { return Result{} }

// Bool returns the value as a boolean.
func (r Result) Bool() bool { return false }

// Int returns the value as an integer.
func (r Result) Int() int64 { return 0 }

// Exists tells whether the value was found in the document.
func (r Result) Exists() bool { return r.Raw != "" }
`
	af, err := parser.ParseFile(token.NewFileSet(), "jpath.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	format := map[string]any{}
	var ids []string
	for _, c := range goPackageCaps([]*ast.File{af}, "example.com/jpath", true, nil) {
		ids = append(ids, c.cap.id)
		if p, ok := c.cap.props["path"].(map[string]any); ok {
			format[c.cap.id] = p["format"]
		}
	}
	if want := []string{"parse", "get", "load", "result-exists"}; !slices.Equal(ids, want) {
		t.Errorf("skills = %v, want %v", ids, want)
	}
	if want := map[string]any{"get": nil, "load": "path"}; !cmp.Equal(format, want) {
		t.Errorf("path formats = %v, want %v", format, want)
	}
}

// TestPythonGeneratedVersionAndAliases generates a library whose version
// module a build hook writes (hatch-vcs) and whose functions take a type
// alias: the copy gets the version module, the package imports, and the
// function whose parameter is float | str by its alias is a skill.
func TestPythonGeneratedVersionAndAliases(t *testing.T) {
	t.Parallel()
	dir := writeRepo(t, map[string]string{
		"pyproject.toml": "[build-system]\nrequires = [\"hatchling-not-installed-here\"]\nbuild-backend = \"hatchling.build\"\n\n" +
			"[project]\nname = \"numfmt\"\ndynamic = [\"version\"]\n\n[tool.hatch]\nbuild.hooks.vcs.version-file = \"src/numfmt/_version.py\"\n",
		"README.md":              "# numfmt\n\n```python\n>>> numfmt.intcomma(12345)\n'12,345'\n```\n",
		"src/numfmt/__init__.py": "\"\"\"Numbers for people.\"\"\"\nfrom ._version import __version__\nfrom .number import intcomma\n\n__all__ = [\"intcomma\"]\n",
		"src/numfmt/number.py": "from __future__ import annotations\n\nfrom typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from typing import TypeAlias\n\n" +
			"    NumberOrString: TypeAlias = float | str\n\n\ndef intcomma(value: NumberOrString) -> str:\n    \"\"\"Write an integer with commas every three digits.\"\"\"\n" +
			"    return f\"{int(float(value)):,}\"\n",
	})
	res, err := Generate(t.Context(), dir, Options{Name: "numfmt", Env: os.Environ(), ProbeTimeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if len(res.Bundle.Skills) != 1 || res.Bundle.Skills[0].ID != "intcomma" {
		t.Fatalf("skills = %+v, want intcomma (notes %q)", res.Bundle.Skills, res.Notes)
	}
	if v, err := os.ReadFile(filepath.Join(dir, "src", "numfmt", "_version.py")); err != nil || !strings.Contains(string(v), `__version__ = version = "0+unknown"`) {
		t.Errorf("_version.py = %q (%v), want the unknown version", v, err)
	}
}

// TestGoModuleMajorVersion names a root main package after its module path
// without the major version element: github.com/boyter/scc/v3 is scc.
func TestGoModuleMajorVersion(t *testing.T) {
	t.Parallel()
	dir := writeRepo(t, map[string]string{
		"go.mod":  "module example.com/acme/lines/v3\n\ngo 1.21\n",
		"main.go": "// Command lines counts lines.\npackage main\n\nimport \"flag\"\n\nfunc main() { flag.Parse() }\n",
	})
	tools := goTools(mustScan(t, dir))
	if len(tools) != 1 || tools[0].Name != "lines" {
		t.Errorf("tools = %+v, want one named lines", tools)
	}
}

func mustScan(t *testing.T, dir string) *repo {
	t.Helper()
	r, err := scan(dir, filepath.Base(dir))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestGoSourceOperands checks that a flag-package program reading its
// remaining arguments gets a list of them (files when it opens files),
// which Go's default usage never shows.
func TestGoSourceOperands(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ src, want string }{
		{"package main\n\nimport (\n\t\"flag\"\n\t\"os\"\n)\n\nfunc main() {\n\tflag.Parse()\n\tfor _, f := range flag.Args() {\n\t\tos.ReadFile(f)\n\t}\n}\n", "files"},
		{"package main\n\nimport (\n\t\"flag\"\n\t\"fmt\"\n)\n\nfunc main() {\n\tflag.Parse()\n\tfmt.Println(flag.Arg(0))\n}\n", "args"},
		{"package main\n\nimport \"flag\"\n\nfunc main() { flag.Parse() }\n", ""},
	} {
		af, err := parser.ParseFile(token.NewFileSet(), "main.go", tc.src, 0)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if c := goSource([]*ast.File{af}); len(c.Args) == 1 && c.Args[0].Variadic {
			got = c.Args[0].Name
		}
		if got != tc.want {
			t.Errorf("goSource(%q) operands = %q, want %q", tc.src, got, tc.want)
		}
	}
}

// TestMergeArgsOrder checks that positional arguments read from source
// take the order the help's usage gives them.
func TestMergeArgsOrder(t *testing.T) {
	t.Parallel()
	c := &Command{Args: []*Arg{{Name: "sql", Type: "string"}, {Name: "paths", Variadic: true}}}
	mergeCommand(c, parseHelp("Usage: sqlite-utils memory [OPTIONS] [PATHS]... SQL\n"), true)
	var got []string
	for _, a := range c.Args {
		got = append(got, a.Name)
	}
	if !slices.Equal(got, []string{"paths", "sql"}) || c.Args[1].Type != "string" {
		t.Errorf("args = %v, want [paths sql] keeping the source's types", got)
	}
}

// TestGoMaintenanceMains checks which main packages become tools: beside
// a command at the root, the programs under scripts/, tools/ and hack/
// maintain the repository and are left out; a file the build constraints
// exclude here (js/wasm) makes no tool; without a root or cmd/ command, a
// program under tools/ is what the repository offers.
func TestGoMaintenanceMains(t *testing.T) {
	t.Parallel()
	main := func(doc string) string {
		return "// " + doc + "\npackage main\n\nimport \"flag\"\n\nfunc main() { flag.Parse() }\n"
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"root command", map[string]string{
			"go.mod":                      "module example.com/acme/linter/v2\n\ngo 1.21\n",
			"main.go":                     main("Command linter lints."),
			"scripts/check-rules/main.go": main("Command check-rules checks the rules' docs."),
			"tools/gen-table/main.go":     main("Command gen-table writes the table."),
			"hack/release/main.go":        main("Command release tags a release."),
			"playground/main.go":          "//go:build js && wasm\n\n" + main("Command playground runs in a browser."),
			"web/main.go":                 "//go:build js\n\n" + main("Command web runs in a browser."),
		}, []string{"linter"}},
		{"cmd commands", map[string]string{
			"go.mod":                 "module example.com/acme/conv\n\ngo 1.21\n",
			"cmd/conv/main.go":       main("Command conv converts."),
			"internal/gen/main.go":   main("Command gen generates."),
			"_tools/bump/main.go":    main("Command bump bumps."),
			"cmd/conv/main_plan9.go": main("Command conv on Plan 9."),
		}, []string{"conv"}},
		{"tools only", map[string]string{
			"go.mod":             "module example.com/acme/kit\n\ngo 1.21\n",
			"kit.go":             "package kit\n",
			"tools/slug/main.go": main("Command slug makes slugs."),
		}, []string{"slug"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var names []string
			for _, tool := range goTools(mustScan(t, writeRepo(t, tc.files))) {
				names = append(names, tool.Name)
			}
			if !slices.Equal(names, tc.want) {
				t.Errorf("goTools() = %v, want %v", names, tc.want)
			}
		})
	}
}

// TestShellMaintenance checks that a script working on the repository's
// own tree (changing into its directories, writing its docs) is no tool,
// while one that writes a file of its own work directory is.
func TestShellMaintenance(t *testing.T) {
	t.Parallel()
	dir := writeRepo(t, map[string]string{
		"docgen.sh":       "x:#!/bin/bash\n# Generate the docs.\ncd pkg\n../doc2md.py \"$1\" > ../docs/readme.md\n",
		"readme.sh":       "x:#!/bin/sh\n# Rebuild the README.\npython3 tools/render.py \"$@\" > README.md\n",
		"shout.sh":        "x:#!/bin/sh\n# Shout a text into shout.txt.\necho \"$1\" | tr a-z A-Z > shout.txt 2>/dev/null\n",
		"pkg/__init__.py": "",
		"docs/readme.md":  "# docs\n",
		"doc2md.py":       "import sys\n",
		"tools/render.py": "import sys\n",
		"README.md":       "# pkg\n",
	})
	var names []string
	tools, _ := shellTools(mustScan(t, dir))
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	if want := []string{"shout"}; !slices.Equal(names, want) {
		t.Errorf("shellTools() = %v, want %v", names, want)
	}
}

// TestPythonSourceMetadata generates a package whose build backend is not
// installed, so it runs from source, and whose command asks
// importlib.metadata for its own version and entry points: the
// environment gets the metadata an install would write, and the command
// is a skill.
func TestPythonSourceMetadata(t *testing.T) {
	t.Parallel()
	dir := writeRepo(t, map[string]string{
		"pyproject.toml": "[build-system]\nrequires = [\"backend-not-installed-here>=2\"]\nbuild-backend = \"backend.api\"\n\n" +
			"[project]\nname = \"greeter-kit\"\nversion = \"1.2.3\"\ndescription = \"Greetings.\"\n\n[project.scripts]\ngreet = \"greeter.cli:main\"\n",
		"greeter/__init__.py": "from importlib.metadata import version\n\n__version__ = version(\"greeter-kit\")\n",
		"greeter/cli.py": "import argparse\nfrom importlib.metadata import entry_points\n\nimport greeter\n\n\n" +
			"def main():\n    assert [e.name for e in entry_points(group=\"console_scripts\") if e.value == \"greeter.cli:main\"] == [\"greet\"]\n" +
			"    p = argparse.ArgumentParser(prog=\"greet\", description=\"Greet someone.\")\n    p.add_argument(\"name\", help=\"who to greet\")\n" +
			"    p.add_argument(\"--version\", action=\"version\", version=greeter.__version__)\n    print(\"Hello, \" + p.parse_args().name)\n",
	})
	res, err := Generate(t.Context(), dir, Options{Name: "greeter", Env: os.Environ(), ProbeTimeout: 20 * time.Second})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if res.Python == nil || res.Python.Installed {
		t.Fatalf("python environment = %+v, want one running from source", res.Python)
	}
	if len(res.Bundle.Skills) != 1 || res.Bundle.Skills[0].ID != "greet" {
		t.Fatalf("skills = %+v, want greet (notes %q)", res.Bundle.Skills, res.Notes)
	}
	out, err := exec.CommandContext(t.Context(), filepath.Join(dir, ".agentnet", "venv", "bin", "python"), filepath.Join(dir, ".agentnet", "bin", "greet"), "--version").Output()
	if err != nil || strings.TrimSpace(string(out)) != "1.2.3" {
		t.Errorf("greet --version = %q (%v), want 1.2.3", out, err)
	}
}

// TestPythonLibraryFallback generates a package whose only command fails
// (it imports a module the machine lacks): the command is left out and
// the package's API becomes the skills instead of the generation failing.
func TestPythonLibraryFallback(t *testing.T) {
	t.Parallel()
	dir := writeRepo(t, map[string]string{
		"pyproject.toml": "[project]\nname = \"shouter\"\nversion = \"0.1\"\n\n[project.scripts]\nshout = \"shouter.cli:main\"\n",
		"shouter/__init__.py": "\"\"\"Shout texts.\"\"\"\n\n__all__ = [\"shout\"]\n\n\n" +
			"def shout(text: str, times: int = 1) -> str:\n    \"\"\"Return the text in capitals with exclamation marks.\"\"\"\n    return text.upper() + \"!\" * times\n",
		"shouter/cli.py": "import sys\n\nimport module_not_installed_anywhere\n\nfrom shouter import shout\n\n\ndef main():\n    print(shout(\" \".join(sys.argv[1:])))\n",
	})
	res, err := Generate(t.Context(), dir, Options{Name: "shouter", Env: os.Environ(), ProbeTimeout: 20 * time.Second})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	var ids []string
	for _, sk := range res.Bundle.Skills {
		ids = append(ids, sk.ID)
	}
	if !slices.Equal(ids, []string{"shout"}) || len(res.Tools) != 1 || res.Tools[0].Kind != "python-library" {
		t.Errorf("skills = %v from %d tools, want the library's shout (notes %q)", ids, len(res.Tools), res.Notes)
	}
}

// TestDeclaredName checks the name a repository gives itself, which names
// its bundle rather than the directory it was cloned into.
func TestDeclaredName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"go module", map[string]string{"go.mod": "module github.com/acme/linter/v2\n\ngo 1.21\n", "package.json": `{"name": "other"}`}, "linter"},
		{"python project", map[string]string{"pyproject.toml": "[project]\nname = \"qrmaker\"\nversion = \"1.0\"\n", "qrmaker/__init__.py": ""}, "qrmaker"},
		{"node package", map[string]string{"package.json": `{"name": "@acme/slugify", "version": "1.0.0"}`}, "slugify"},
		{"none", map[string]string{"tool.sh": "#!/bin/sh\necho \"$1\"\n"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := mustScan(t, writeRepo(t, tc.files))
			sc, err := pythonScan(t.Context(), r, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := declaredName(r, sc); got != tc.want {
				t.Errorf("declaredName() = %q, want %q", got, tc.want)
			}
		})
	}
	// A bundle of several tools is named after the module, not the
	// directory.
	dir := writeRepo(t, map[string]string{
		"go.mod": "module example.com/acme/doctools/v2\n\ngo 1.21\n",
		"upper":  "x:#!/bin/sh\ncase \"$1\" in --help) echo 'Usage: upper TEXT'; exit 0;; esac\necho \"$1\" | tr a-z A-Z\n",
		"lower":  "x:#!/bin/sh\ncase \"$1\" in --help) echo 'Usage: lower TEXT'; exit 0;; esac\necho \"$1\" | tr A-Z a-z\n",
	})
	res, err := Generate(t.Context(), dir, Options{Name: "src-doctools", ProbeTimeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if res.Bundle.Name != "doctools" {
		t.Errorf("bundle name = %q, want doctools", res.Bundle.Name)
	}
}

// TestManPageDescribes: a program whose help and source say nothing of what
// it does is described by its man page in the repository.
func TestManPageDescribes(t *testing.T) {
	t.Parallel()
	dir := writeRepo(t, map[string]string{
		"peek":       "x:#!/bin/sh\ncase \"$1\" in --help) echo 'Usage: peek [--json] [INPUT]'; echo; echo 'Options:'; echo '  --json  Output JSON.'; exit 0;; esac\nhead -c 16 \"$1\" | od -c\n",
		"doc/peek.1": ".TH PEEK 1\n.SH NAME\npeek \\- show the header of a sealed file\n.SH DESCRIPTION\n.B peek\nreads a sealed file and displays metadata about it without opening it.\n.SH OPTIONS\n",
	})
	res, err := Generate(t.Context(), dir, Options{Name: "peek", ProbeTimeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	if len(res.Bundle.Skills) != 1 {
		t.Fatalf("skills = %d, want 1", len(res.Bundle.Skills))
	}
	if d := res.Bundle.Skills[0].Description; !strings.Contains(d, "Show the header of a sealed file") || strings.Contains(d, "Options:") {
		t.Errorf("description = %q, want the man page's", d)
	}
}
