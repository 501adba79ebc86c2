package host_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/agentnet/agentnet/a2a/host"
)

// A bundle shaped like generated ones of real tools: a code counter whose
// positional list of paths sits among file flags (an ignore file, a
// configuration), a version checker and an ordinal formatter whose only
// parameter is a number.
const shapesAgent = `version: 1
name: shapes
description: Tools shaped like real repositories' commands.
skills:
  - id: count
    name: count
    description: Count lines of code in files or directories.
    params:
      type: object
      properties:
        config: {type: string, format: path, description: Load this file as the global config source.}
        files: {type: array, format: path, items: {type: string, format: path}}
        ignore_file:
          type: array
          format: path
          items: {type: string, format: path}
          description: Path to an additional gitignore-format ignore file.
    run: [python3, "{{repo}}/count.py", --config, "{{config}}", --ignore-file, "{{ignore_file}}", "{{files}}"]
  - id: check
    name: check
    description: Checks if a string is a valid semver version.
    params: {type: object, properties: {version: {type: string, description: Version to check.}}, required: [version]}
    run: [python3, "{{repo}}/check.py", "{{version}}"]
  - id: ordinal
    name: ordinal
    description: Gives you the input number in a rank/ordinal format.
    params: {type: object, properties: {x: {type: integer}}, required: [x]}
    run: [python3, -c, "import sys; n = int(sys.argv[1].split('=')[1]); print(str(n) + ('th' if n % 100 in (11, 12, 13) else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')))", "--x={{x}}"]
`

const countPy = `import argparse, os
ap = argparse.ArgumentParser()
ap.add_argument("--config")
ap.add_argument("--ignore-file", action="append", default=[])
ap.add_argument("files", nargs="*")
a = ap.parse_args()
ignored = set()
for f in a.ignore_file:
    ignored |= {l.strip() for l in open(f) if l.strip()}
for f in a.files:
    name = os.path.basename(f)
    if name in ignored:
        continue
    print(name, sum(1 for _ in open(f)))
print("config:", os.path.basename(a.config) if a.config else "-")
`

const checkPy = `import re, sys
ok = re.fullmatch(r"\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?", sys.argv[1])
print(("valid: " if ok else "invalid: ") + sys.argv[1])
`

func TestBindShapes(t *testing.T) {
	t.Parallel()
	s := serve(t, shapesAgent, map[string]string{"count.py": countPy, "check.py": checkPy})
	c := a2aClient(t, s.URL, "1.0")
	file := func(name, text string) *a2a.Part {
		return &a2a.Part{Content: a2a.Raw(text), Filename: name, MediaType: "text/plain"}
	}
	tests := []struct {
		name, skill, text string
		parts             []*a2a.Part
		want              string
	}{
		{"attached files to the positional paths, the ignore file by its name", "count", "Count the lines of code in these files.",
			[]*a2a.Part{file("main.go", "package main\n\nfunc main() {}\n"), file("util.py", "x = 1\ny = 2\n"), file("gen.go", "package main\n"), file(".sccignore", "gen.go\n")},
			"main.go 3\nutil.py 2\nconfig: -\n"},
		{"one attached file is the input, not the configuration", "count", "How many lines of code?",
			[]*a2a.Part{file("main.go", "package main\n")},
			"main.go 1\nconfig: -\n"},
		{"the version out of a question", "check", "Is 1.2.3-beta a valid version?", nil, "valid: 1.2.3-beta\n"},
		{"the number out of a question", "ordinal", "What is the ordinal of 193?", nil, "193rd\n"},
		{"a bare number", "ordinal", "112", nil, "112th\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			req := textMessage(tc.text, tc.parts...)
			req.Message.SetMeta("skill", tc.skill)
			task := send(t, c, req)
			if task.Status.State != a2a.TaskStateCompleted {
				t.Fatalf("task state = %s (%s), want completed", task.Status.State, statusText(task))
			}
			if got := artifactText(task); got != tc.want {
				t.Errorf("output = %q, want %q", got, tc.want)
			}
		})
	}
}

// An agent with a filter that writes to standard output and a converter
// that writes the file its -o names.
const namedOutputAgent = `version: 1
name: files
description: Text file tools.
skills:
  - id: upper
    name: upper
    description: Upper-case a text file.
    params: {type: object, properties: {file: {type: string, format: path}}, required: [file]}
    run: [python3, -c, "import sys; print(open(sys.argv[1]).read().upper(), end='')", "{{file}}"]
  - id: lower
    name: lower
    description: Lower-case a text file into another file.
    params:
      type: object
      properties:
        file: {type: string, format: path}
        output: {type: string, format: path, description: Where to write the result.}
      required: [file]
    run: [python3, -c, "import sys; open(sys.argv[2], 'w').write(open(sys.argv[1]).read().lower())", "{{file}}", "{{output}}"]
  - id: lint
    name: lint
    description: Report the lines of a text file that shout.
    params: {type: object, properties: {file: {type: string, format: path}}, required: [file]}
    run: [python3, -c, "import sys; print(sys.argv[1] + ':1: shouting')", "{{file}}"]
`

// TestOutputPathsRelative checks that a tool echoing the path of an
// attached file shows it by its name, not under the task's work directory.
func TestOutputPathsRelative(t *testing.T) {
	t.Parallel()
	s := serve(t, namedOutputAgent, nil)
	c := a2aClient(t, s.URL, "1.0")
	req := textMessage("Lint the attached note.", &a2a.Part{Content: a2a.Raw("HELLO\n"), Filename: "note.txt", MediaType: "text/plain"})
	req.Message.SetMeta("skill", "lint")
	task := send(t, c, req)
	if got := artifactText(task); got != "note.txt:1: shouting\n" {
		t.Errorf("output = %q, want the file by its name", got)
	}
}

// TestNamedOutput checks that a file name the instruction gives the result
// reaches the skill's output parameter, and that a skill writing to
// standard output has its output returned as a file of that name.
func TestNamedOutput(t *testing.T) {
	t.Parallel()
	s := serve(t, namedOutputAgent, nil)
	c := a2aClient(t, s.URL, "1.0")
	for _, tc := range []struct {
		skill, text, wantName, wantData string
	}{
		{"lower", "Lower-case the attached note and save it as quiet.txt.", "quiet.txt", "hello, world\n"},
		{"upper", "Make the attached note loud and save it as loud.txt.", "loud.txt", "HELLO, WORLD\n"},
	} {
		t.Run(tc.skill, func(t *testing.T) {
			t.Parallel()
			req := textMessage(tc.text, &a2a.Part{Content: a2a.Raw("Hello, World\n"), Filename: "note.txt", MediaType: "text/plain"})
			req.Message.SetMeta("skill", tc.skill)
			task := send(t, c, req)
			if task.Status.State != a2a.TaskStateCompleted {
				t.Fatalf("task state = %s (%s), want completed", task.Status.State, statusText(task))
			}
			var names []string
			for _, a := range task.Artifacts {
				for _, p := range a.Parts {
					if p.Filename == "" {
						continue
					}
					names = append(names, p.Filename)
					if p.Filename == tc.wantName {
						if got := string(p.Raw()); got != tc.wantData {
							t.Errorf("%s = %q, want %q", p.Filename, got, tc.wantData)
						}
					}
				}
			}
			if !slices.Contains(names, tc.wantName) {
				t.Errorf("files returned = %v, want %s", names, tc.wantName)
			}
		})
	}
}

// A pair of skills whose descriptions share the message's context words.
const askAgent = `version: 1
name: codes
description: Account codes.
skills:
  - id: check
    name: check
    description: Validates an account code, its country and its check digits, and reports its bank.
    params: {type: object, properties: {code: {type: string}}}
    run: [python3, -c, "print('check')"]
  - id: format
    name: format
    description: Writes an account code in the print form, groups of four characters, or the electronic form.
    params: {type: object, properties: {code: {type: string}}}
    run: [python3, -c, "print('format')"]
`

// TestChooseByQuestion checks that without a named skill, the message's
// question outweighs the words around it when BM25 picks the skill.
func TestChooseByQuestion(t *testing.T) {
	t.Parallel()
	s := serve(t, askAgent, nil)
	c := a2aClient(t, s.URL, "1.0")
	task := send(t, c, textMessage("A customer typed the code AB12 into our payment form. Is it valid? If not, why not?"))
	if got := artifactText(task); got != "check\n" {
		t.Errorf("ran %q, want the check skill", got)
	}
}

// A skill that copies its input file to standard output, as a decrypter
// or decompressor writes what it recovered.
const catAgent = `version: 1
name: unwrap
description: Unwraps a file.
skills:
  - id: unwrap
    name: unwrap
    description: Unwrap a wrapped file and print what it held.
    params: {type: object, properties: {file: {type: string, format: path}}, required: [file]}
    run: [cat, "{{file}}"]
`

// TestBinaryStdout checks that bytes a skill prints that are not text come
// back as a file of their sniffed type, named after the input they were
// made from or as the instruction asks, byte for byte, with no text part
// holding them mangled; text output stays text.
func TestBinaryStdout(t *testing.T) {
	t.Parallel()
	s := serve(t, catAgent, nil)
	c := a2aClient(t, s.URL, "1.0")
	pdf := "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n"
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01"
	for _, tc := range []struct {
		text, file, data, wantName, wantType string
	}{
		{"Unwrap the attached file.", "notes.pdf.wrapped", pdf, "notes.pdf", "application/pdf"},
		{"Unwrap the attached file and save it as dot.png.", "dot.wrapped", png, "dot.png", "image/png"},
		{"Unwrap the attached file.", "blob.wrapped", "\x00\x01\x02\xff", "output.bin", "application/octet-stream"},
		{"Unwrap the attached file.", "note.wrapped", "plain text, café\n", "", ""},
	} {
		req := textMessage(tc.text, &a2a.Part{Content: a2a.Raw(tc.data), Filename: tc.file, MediaType: "application/octet-stream"})
		task := send(t, c, req)
		if task.Status.State != a2a.TaskStateCompleted {
			t.Fatalf("%s: task state = %s (%s), want completed", tc.file, task.Status.State, statusText(task))
		}
		var files []*a2a.Part
		var text string
		for _, a := range task.Artifacts {
			for _, p := range a.Parts {
				if p.Filename != "" {
					files = append(files, p)
				} else {
					text += p.Text()
				}
			}
		}
		if tc.wantName == "" {
			if len(files) != 0 || text != tc.data {
				t.Errorf("%s: files %d, text %q; want the text %q", tc.file, len(files), text, tc.data)
			}
			continue
		}
		if len(files) != 1 || text != "" {
			t.Fatalf("%s: %d files and text %q, want one file and no text", tc.file, len(files), text)
		}
		f := files[0]
		if f.Filename != tc.wantName || f.MediaType != tc.wantType || string(f.Raw()) != tc.data {
			t.Errorf("%s: got %s (%s) %q, want %s (%s) %q", tc.file, f.Filename, f.MediaType, f.Raw(), tc.wantName, tc.wantType, tc.data)
		}
	}
}

// A skill that refuses whatever it is given.
const refuseAgent = `version: 1
name: refuse
description: Refuses.
skills:
  - id: check
    name: check
    description: Check a phrase.
    params: {type: object, properties: {phrase: {type: string}}, required: [phrase]}
    run: [python3, -c, "import sys; print('refused: ' + sys.argv[1], file=sys.stderr); sys.exit(2)", "{{phrase}}"]
`

// TestFailureCarriesBinding checks that a run that fails says how it was
// called: the failed status message carries the binding, as an answer's
// output artifact does.
func TestFailureCarriesBinding(t *testing.T) {
	t.Parallel()
	s := serve(t, refuseAgent, nil)
	c := a2aClient(t, s.URL, "1.0")
	task := send(t, c, textMessage(`Check "open sesame".`))
	if task.Status.State != a2a.TaskStateFailed || task.Status.Message == nil {
		t.Fatalf("task state = %s, want failed with a message", task.Status.State)
	}
	trace := toJSON(t, task.Status.Message.Metadata[host.BindingMetadataKey])
	if !strings.Contains(trace, `"param":"phrase"`) || !strings.Contains(trace, `"value":"open sesame"`) || !strings.Contains(trace, `"skill":"check"`) {
		t.Errorf("failed status binding = %s, want the phrase argument and its skill", trace)
	}
}
