package host_test

import (
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// A bundle shaped like generated bundles of real command-line tools: a
// filter that reads standard input only (jc, gojq), a linter that answers
// with status 1 (pyflakes, actionlint), a formatter that rewrites its file
// in place (yamlfmt, autopep8 -i), a dotenv reader, a fixer with switches,
// a transliterator whose text comes by a flag beside an optional file
// (unidecode -c TEXT) and a tool that crashes after printing.
const ioAgent = `version: 1
name: io
description: Tools shaped like real command-line programs.
skills:
  - id: lines
    name: lines
    description: Count the lines of the data read on standard input.
    params: {type: object, properties: {input: {type: string, format: path, description: the data read on standard input}}}
    stdin: "{{input}}"
    run: [python3, -c, "import sys; print(sum(1 for _ in sys.stdin))"]
  - id: lint
    name: lint
    description: Report unused names in a Python file.
    params: {type: object, properties: {path: {type: array, format: path, items: {type: string, format: path}}}}
    run: [python3, -c, "import sys\nbad = [a for a in sys.argv[1:] if 'import os' in open(a).read()]\nfor a in bad: print(a + \":1: 'os' imported but unused\")\nsys.exit(1 if bad else 0)", "{{path}}"]
  - id: fmt
    name: fmt
    description: Format a YAML file in place.
    params: {type: object, properties: {files: {type: array, format: path, items: {type: string, format: path}}}, required: [files]}
    run: [python3, -c, "import sys\nfor a in sys.argv[1:]:\n  t = open(a).read()\n  n = t.replace(':  ', ': ')\n  if n != t: open(a, 'w').write(n)", "{{files}}"]
  - id: getenv
    name: getenv
    description: Print the value of a key in a dotenv file.
    params: {type: object, properties: {file: {type: string, format: path}, key: {type: string}}, required: [file, key]}
    run: [python3, -c, "import os, sys\nfor l in open(sys.argv[1]):\n  k, _, v = l.strip().partition('=')\n  if k == sys.argv[2]: print(os.path.basename(sys.argv[1]) + ': ' + v)", "{{file}}", "{{key}}"]
  - id: parse
    name: parse
    description: Parse command output read on standard input into JSON.
    params:
      type: object
      properties:
        input: {type: string, format: path}
        ps: {type: boolean, description: "` + "`ps`" + ` command parser."}
        df: {type: boolean, description: "` + "`df`" + ` command parser."}
    stdin: "{{input}}"
    run: [python3, -c, "import sys; print(sys.argv[1:], sys.stdin.readline().split()[0])", --ps, "{{ps}}", --df, "{{df}}"]
  - id: setenv
    name: setenv
    description: Set a key to a value in a dotenv file.
    params: {type: object, properties: {file: {type: string, format: path}, key: {type: string}, value: {type: string}}, required: [file, key, value]}
    run: [python3, -c, "import sys; print(sys.argv[2] + '=' + sys.argv[3])", "{{file}}", "{{key}}", "{{value}}"]
  - id: fix
    name: fix
    description: Fix style problems in a Python file.
    params:
      type: object
      properties:
        file: {type: string, format: path}
        aggressive: {type: boolean, description: enable non-whitespace changes}
        diff: {type: boolean, description: print the diff for the fixed source}
        verbose: {type: boolean, description: print verbose messages}
      required: [file]
    run: [python3, -c, "import sys; print(' '.join(sys.argv[1:]))", --aggressive, "{{aggressive}}", --diff, "{{diff}}", --verbose, "{{verbose}}"]
  - id: translit
    name: translit
    description: Transliterate Unicode text into ASCII.
    params:
      type: object
      properties:
        text: {type: string, description: Transliterate TEXT instead of FILE.}
        encoding: {type: string, default: utf-8, description: Specify an encoding.}
        file: {type: string, format: path}
    run: [python3, -c, "import sys, unicodedata\nt = sys.argv[2] if sys.argv[1] == '-c' else open(sys.argv[-1]).read()\nprint(unicodedata.normalize('NFKD', t).encode('ascii', 'ignore').decode())", -c, "{{text}}", --encoding, "{{encoding}}", "{{file}}"]
  - id: crash
    name: crash
    description: Print half an answer, then fail.
    params: {type: object, properties: {file: {type: string, format: path}}}
    run: [python3, -c, "import sys; print('partial result'); sys.stderr.write('boom: disk full\\n'); sys.exit(3)", "{{file}}"]
  - id: convert
    name: convert
    description: Convert data read on standard input between formats.
    params:
      type: object
      properties:
        input: {type: string, format: path}
        in: {type: string, description: The format of the input data.}
        out: {type: string, description: The format of the output data., pattern: "^[A-Za-z0-9][A-Za-z0-9._+-]*$"}
    stdin: "{{input}}"
    run: [python3, -c, "import sys; print(sys.argv[1:], len(sys.stdin.read()))", --in, "{{in}}", --out, "{{out}}"]
  - id: highlight
    name: highlight
    description: Highlight source code.
    params:
      type: object
      properties:
        formatter: {type: string, description: Give the formatter name.}
        lexer: {type: string, description: Give the lexer name.}
        style: {type: string, description: Print style definitions for STYLE for a formatter given with -f.}
        a: {type: string, description: Formatter-specific additional argument for the -S (print style sheet) mode.}
        file: {type: string, format: path}
    run: [python3, -c, "import sys; print(sys.argv[1:-1])", -f, "{{formatter}}", -l, "{{lexer}}", -S, "{{style}}", -a, "{{a}}", "{{file}}"]
  - id: encrypt
    name: encrypt
    description: Encrypt a file to recipients.
    params:
      type: object
      properties:
        recipient: {type: array, items: {type: string}, description: Encrypt to the specified RECIPIENT. Can be repeated.}
        armor: {type: boolean, description: Encrypt to a PEM encoded format.}
        input: {type: string, format: path}
    run: [python3, -c, "import sys; print(sys.argv[1:-1])", --armor, "{{armor}}", -r, "{{recipient}}", "{{input}}"]
  - id: urls
    name: urls
    description: Pull out bits of URLs provided on stdin.
    params:
      type: object
      properties:
        input: {type: string, format: path}
        mode: {type: string}
        formatstring: {type: string}
    stdin: "{{input}}"
    run: [python3, -c, "import sys\nif len(sys.argv) < 2: sys.stderr.write('unknown mode: \\nusage: urls [MODE] [FORMATSTRING]\\n'); sys.exit(0)\nprint(sys.argv[1], len(sys.stdin.read().split()))", "{{mode}}", "{{formatstring}}"]
  - id: wrapper
    name: wrapper
    description: Run a helper program that is missing.
    run: [python3, -c, "import sys; print('helper program not found. exiting'); sys.exit(1)"]
  - id: render
    name: render
    description: Render Markdown as HTML.
    params:
      type: object
      properties:
        file: {type: string, format: path}
        safe: {type: string, description: "Sanitize literal HTML: 'escape' escapes HTML meta chars, 'replace' replaces with an [HTML_REMOVED] note."}
    run: [python3, -c, "import sys; print(sys.argv[1:-1])", --safe, "{{safe}}", "{{file}}"]
  - id: jp
    name: jp
    description: Search a JSON document with a JMESPath expression.
    params:
      type: object
      properties:
        filename: {type: string, format: path, description: The filename containing the input data.}
        expression: {type: string, description: The JMESPath expression to evaluate.}
      required: [expression]
    run: [python3, -c, "import sys; print(sys.argv[1:])", -f, "{{filename}}", "{{expression}}"]
  - id: gofmt
    name: gofmt
    description: Format Go source files.
    params:
      type: object
      properties:
        d: {type: boolean, description: display diffs instead of rewriting files}
        l: {type: boolean, description: list files whose formatting differs from gofmt's}
        w: {type: boolean, description: write result to (source) file instead of stdout}
        files: {type: array, items: {type: string, format: path}}
    run: [python3, -c, "import sys; print(sys.argv[1:-1])", -d, "{{d}}", -l, "{{l}}", -w, "{{w}}", "{{files}}"]
  - id: hello
    name: hello
    description: Say nothing at all.
    run: [python3, -c, "pass"]
`

func TestHostIO(t *testing.T) {
	t.Parallel()
	s := serve(t, ioAgent, nil)
	c := a2aClient(t, s.URL, "1.0")
	file := func(name, text string) *a2a.Part {
		return &a2a.Part{Content: a2a.Raw(text), Filename: name, MediaType: "text/plain"}
	}
	type want struct {
		state  a2a.TaskState
		output string // the standard output artifact's text
		status string // a substring of the status message; "" wants none
		files  map[string]string
	}
	tests := []struct {
		name, skill, text string
		parts             []*a2a.Part
		want              want
	}{
		{"an attached file on standard input", "lines", "How many lines?", []*a2a.Part{file("ps.txt", "a\nb\nc\n")},
			want{state: a2a.TaskStateCompleted, output: "3\n"}},
		{"text to work on, on standard input", "lines", "Count the lines of this.", []*a2a.Part{a2a.NewTextPart("x\ny\n")},
			want{state: a2a.TaskStateCompleted, output: "2\n"}},
		{"findings with status 1 are the answer", "lint", "Find unused imports in this file.", []*a2a.Part{file("bad.py", "import os\n")},
			want{state: a2a.TaskStateCompleted, output: "bad.py:1: 'os' imported but unused\n", status: "exited with status 1"}},
		{"pasted code reaches an optional file operand", "lint", "Is anything wrong with this code?", []*a2a.Part{a2a.NewTextPart("import os\n")},
			want{state: a2a.TaskStateCompleted, output: "path.txt:1: 'os' imported but unused\n", status: "exited with status 1", files: map[string]string{}}},
		{"a file changed in place comes back", "fmt", "Format this YAML.", []*a2a.Part{file("a.yaml", "k:  v\n"), file("b.yaml", "k: v\n")},
			want{state: a2a.TaskStateCompleted, files: map[string]string{"a.yaml": "k: v\n"}}},
		{"a dot file keeps its name", "getenv", "What is DB in this env file?", []*a2a.Part{file(".env", "DB=pg\n")},
			want{state: a2a.TaskStateCompleted, output: ".env: pg\n"}},
		{"a value assigned to the key", "setenv", "Set DEBUG to false in this env file.", []*a2a.Part{file(".env", "DEBUG=true\n")},
			want{state: a2a.TaskStateCompleted, output: "DEBUG=false\n"}},
		{"a quoted value assigned with =", "setenv", `In this file, make it GREETING="hello there".`, []*a2a.Part{file(".env", "A=1\n")},
			want{state: a2a.TaskStateCompleted, output: "GREETING=hello there\n"}},
		{"switches the text names", "fix", "Fix this file aggressively and show me the diff, verbose please.", []*a2a.Part{file("m.py", "x=1\n")},
			want{state: a2a.TaskStateCompleted, output: "--aggressive --diff\n"}},
		{"a switch named like a command", "parse", "Convert this ps output to JSON.", []*a2a.Part{file("ps.txt", "USER PID\nroot 1\n")},
			want{state: a2a.TaskStateCompleted, output: "['--ps'] USER\n"}},
		{"a negated switch stays off", "fix", "Fix this file aggressively, without a diff.", []*a2a.Part{file("m.py", "x=1\n")},
			want{state: a2a.TaskStateCompleted, output: "--aggressive\n"}},
		{"the text after the instruction's colon", "translit", "Transliterate to ASCII: Café déjà vu", nil,
			want{state: a2a.TaskStateCompleted, output: "Cafe deja vu\n"}},
		{"text to work on goes to the text flag", "translit", "Transliterate this.", []*a2a.Part{a2a.NewTextPart("Ærø naïve")},
			want{state: a2a.TaskStateCompleted, output: "r naive\n"}},
		{"formats from and to", "convert", "Convert this JSON file to YAML.", []*a2a.Part{file("d.json", "{}")},
			want{state: a2a.TaskStateCompleted, output: "['--in', 'json', '--out', 'yaml'] 2\n"}},
		{"the input format from the file", "convert", "Give me this as toml", []*a2a.Part{file("d.yaml", "a: 1\n")},
			want{state: a2a.TaskStateCompleted, output: "['--in', 'yaml', '--out', 'toml'] 5\n"}},
		{"a formatter named by the text", "highlight", "Highlight this Python file as HTML.", []*a2a.Part{file("h.py", "x = 1\n")},
			want{state: a2a.TaskStateCompleted, output: "['-f', 'html']\n"}},
		{"a setting named before its value", "encrypt", "Encrypt this to the recipient age1qucrdzthz3uz with ASCII armor.", []*a2a.Part{file("s.txt", "x")},
			want{state: a2a.TaskStateCompleted, output: "['--armor', '-r', 'age1qucrdzthz3uz']\n"}},
		{"a setting named after its value", "highlight", "Print the stylesheet of the monokai style for this file.", []*a2a.Part{file("h.py", "x = 1\n")},
			want{state: a2a.TaskStateCompleted, output: "['-S', 'monokai']\n"}},
		{"an adjective is no value", "highlight", "Highlight this file in the new style.", []*a2a.Part{file("h.py", "x = 1\n")},
			want{state: a2a.TaskStateCompleted, output: "[]\n"}},
		{"the content's words are no instruction", "highlight", "Highlight this.", []*a2a.Part{a2a.NewTextPart("import json\nprint(json.dumps(1))\n")},
			want{state: a2a.TaskStateCompleted, output: "[]\n"}},
		{"what a silent tool said on standard error", "urls", "Extract the domains.", []*a2a.Part{a2a.NewTextPart("https://a.example.com/x\n")},
			want{state: a2a.TaskStateCompleted, output: "", status: "on standard error:\nunknown mode: \nusage: urls [MODE] [FORMATSTRING]"}},
		{"content to standard input, not to an optional operand", "urls", "Show these URLs' paths.", []*a2a.Part{a2a.NewTextPart("https://a.example.com/x https://b.example.com/y\n"), a2a.NewDataPart(map[string]any{"mode": "paths"})},
			want{state: a2a.TaskStateCompleted, output: "paths 2\n"}},
		{"a complaint with status 1 is a failure", "wrapper", "Run it.", nil,
			want{state: a2a.TaskStateFailed, status: "helper program not found. exiting"}},
		{"a setting, a word for settings, its value", "render", "Render this escaping raw HTML (safe mode escape).", []*a2a.Part{file("r.md", "# x\n")},
			want{state: a2a.TaskStateCompleted, output: "['--safe', 'escape']\n"}},
		{"the argument after the instruction's colon, beside a file", "jp", "Get the names of people over 30: people[?age > `30`].name", []*a2a.Part{file("people.json", "{}")},
			want{state: a2a.TaskStateCompleted, output: "['-f', 'people.json', 'people[?age > `30`].name']\n"}},
		{"a one-letter switch by its help's words", "gofmt", "Show me the diff gofmt would apply to this file.", []*a2a.Part{file("m.go", "package m\n")},
			want{state: a2a.TaskStateCompleted, output: "['-d']\n"}},
		{"a one-letter switch the text does not name", "gofmt", "Format this file and write the result back.", []*a2a.Part{file("m.go", "package m\n")},
			want{state: a2a.TaskStateCompleted, output: "[]\n"}},
		{"a failure keeps what was printed", "crash", "Do it.", nil,
			want{state: a2a.TaskStateFailed, status: "boom: disk full\n[standard output]\npartial result"}},
		{"an empty answer says so", "hello", "Say nothing.", nil,
			want{state: a2a.TaskStateCompleted, output: "", status: "finished with exit status 0 and printed nothing"}},
		{"an input nothing took is no empty success", "hello", "Greet this file.", []*a2a.Part{file("n.txt", "hi\n")},
			want{state: a2a.TaskStateFailed, status: `took none of "n.txt"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			req := textMessage(tc.text, tc.parts...)
			req.Message.SetMeta("skill", tc.skill)
			task := send(t, c, req)
			if task.Status.State != tc.want.state {
				t.Fatalf("task state = %s (%q), want %s", task.Status.State, statusText(task), tc.want.state)
			}
			if got := statusText(task); tc.want.status == "" && got != "" || !strings.Contains(got, tc.want.status) {
				t.Errorf("status message = %q, want %q in it", got, tc.want.status)
			}
			var out string
			files := map[string]string{}
			for _, a := range task.Artifacts {
				for _, p := range a.Parts {
					if p.Filename != "" {
						files[p.Filename] = string(p.Raw())
					} else {
						out += p.Text()
					}
				}
			}
			if tc.want.state == a2a.TaskStateCompleted && out != tc.want.output && !(tc.want.output == "" && len(files) > 0) {
				t.Errorf("output = %q, want %q", out, tc.want.output)
			}
			for name, data := range tc.want.files {
				if files[name] != data {
					t.Errorf("file %s = %q, want %q (files %v)", name, files[name], data, files)
				}
			}
			if tc.want.files != nil && len(files) != len(tc.want.files) {
				t.Errorf("files = %v, want only %v", files, tc.want.files)
			}
		})
	}
}
