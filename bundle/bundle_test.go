package bundle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentnet/agentnet/internal/yamlx"
)

const good = `version: 1
name: textkit
description: Text statistics for plain-text documents.
system_packages: [libyaml-0-2, g++, libgtk-3.0-dev]
setup: [[go, build, -o, .agentnet/bin/textkit, ./cmd/textkit]]
check: [[.agentnet/bin/textkit, --help]]
skills:
  - id: word-frequency
    name: Word frequency
    description: Count word frequencies in a text and list the most common words.
    tags: [text, statistics]
    examples: ["Which words occur most often in this file?"]
    input_modes: [text/plain]
    output_modes: [text/plain]
    params:
      type: object
      properties:
        file: {type: string, format: path, description: the text file}
        n: {type: integer, default: 10}
      required: [file]
    run: ["{{repo}}/.agentnet/bin/textkit", top, --n, "{{n}}", "{{file}}"]
    timeout: 60s
    outputs: ["*.png"]
`

func writeBundle(t *testing.T, text string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLoadGood(t *testing.T) {
	t.Parallel()
	dir := writeBundle(t, good)
	b, err := Load(dir)
	if err != nil {
		t.Fatalf("Load() error = %v", err)
	}
	sk := b.Skill("word-frequency")
	if sk == nil {
		t.Fatal(`Skill("word-frequency") = nil`)
	}
	if diff := cmp.Diff([]string{"libyaml-0-2", "g++", "libgtk-3.0-dev"}, b.SystemPackages); diff != "" {
		t.Errorf("SystemPackages mismatch (-want +got):\n%s", diff)
	}
	if got, want := sk.RunTimeout(), 60*time.Second; got != want {
		t.Errorf("RunTimeout() = %v, want %v", got, want)
	}
	if got, want := b.RepoDir(), dir; got != want {
		t.Errorf("RepoDir() = %q, want %q", got, want)
	}
	args := sk.WithDefaults(map[string]any{"file": "alice.txt"})
	if issues := sk.Check(args); issues != nil {
		t.Fatalf("Check(%v) = %v, want none", args, issues)
	}
	argv, err := sk.Argv(Vars{Repo: "/r", Workdir: "/w"}, args)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"/r/.agentnet/bin/textkit", "top", "--n", "10", "alice.txt"}, argv); diff != "" {
		t.Errorf("Argv() mismatch (-want +got):\n%s", diff)
	}
	if issues := sk.Check(map[string]any{"n": "x"}); len(issues) != 2 {
		t.Errorf("Check(bad) = %v, want 2 issues (missing file, n not an integer)", issues)
	}
	params := sk.ParamList()
	if len(params) != 2 || params[0].Name != "file" || !params[0].IsPath() || !params[0].Required {
		t.Errorf("ParamList() = %+v, want file (required, path) first", params)
	}
}

// TestWithDefaultsEmptyString checks that an empty string default leaves
// its flag out rather than passing it an empty value.
func TestWithDefaultsEmptyString(t *testing.T) {
	t.Parallel()
	b, err := Parse("agent.yaml", []byte(`version: 1
name: x
description: y
skills:
  - id: a
    name: A
    description: d
    params: {type: object, properties: {ignore: {type: string, default: ""}, jobs: {type: integer, default: 1}}}
    run: [fix, --ignore, "{{ignore}}", --jobs, "{{jobs}}"]
`))
	if err != nil {
		t.Fatal(err)
	}
	sk := b.Skill("a")
	argv, err := sk.Argv(Vars{}, sk.WithDefaults(nil))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"fix", "--jobs", "1"}, argv); diff != "" {
		t.Errorf("Argv() mismatch (-want +got):\n%s", diff)
	}
}

func TestLoadProblems(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		yaml string
		want []string // substrings of the problems, in order
	}{
		{
			name: "missing everything",
			yaml: "version: 1\n",
			want: []string{"agent.yaml:1:1: name: missing or empty", "description: missing or empty", "skills: at least one skill"},
		},
		{
			name: "unknown field and bad version",
			yaml: "version: 2\nname: x\ndescription: y\nskils: []\n",
			want: []string{"1:10: version: unsupported version 2", `4:1: skils: unknown field "skils" (did you mean "skills"?)`},
		},
		{
			name: "duplicate skill ids and undeclared param",
			yaml: `version: 1
name: x
description: y
skills:
  - {id: a, name: A, description: d, run: [echo, "{{text}}"]}
  - {id: a, name: A, description: d, params: {type: object, properties: {text: {type: string}}}, run: [echo, "{{text}}"]}
`,
			want: []string{`5:50: skills[0].run[1]: {{text}} is not a declared parameter`, `6:10: skills[1].id: duplicate skill id "a" (first at skills[0])`},
		},
		{
			name: "stdin not one declared parameter",
			yaml: `version: 1
name: x
description: y
skills:
  - {id: a, name: A, description: d, run: [cat], stdin: "{{file}}"}
  - {id: b, name: B, description: d, params: {type: object, properties: {file: {type: string}}}, run: [cat], stdin: "<{{file}}"}
`,
			want: []string{`skills[0].stdin: {{file}} is not a declared parameter`, `skills[1].stdin: "<{{file}}" is not one placeholder`},
		},
		{
			name: "params do not compile",
			yaml: `version: 1
name: x
description: y
skills:
  - id: a
    name: A
    description: d
    params: {type: object, properties: {n: {type: 12}}, required: [m]}
    run: [echo]
`,
			want: []string{"8:13: skills[0].params: not a valid JSON Schema", "skills[0].params.required[0]: required parameter m is not in properties"},
		},
		{
			name: "escaping paths",
			yaml: `version: 1
name: x
description: y
repo: {source: /abs/repo}
skills:
  - id: a
    name: A
    description: d
    run: [/bin/cat, "{{repo}}/../secret", --out=/etc/passwd]
    outputs: [../*.txt]
`,
			want: []string{`repo.source: absolute path "/abs/repo"`, `run[0]: absolute path "/bin/cat"`, `run[1]: "{{repo}}/../secret" climbs out`, `run[2]: absolute path "--out=/etc/passwd"`, `outputs[0]: glob "../*.txt" climbs out`},
		},
		{
			name: "neither run nor serve, bad modes and timeout",
			yaml: `version: 1
name: x
description: y
skills:
  - {id: a, name: A, description: d, input_modes: [plain], timeout: soon}
`,
			want: []string{`skills[0].input_modes[0]: "plain" is not a MIME type`, `skills[0].timeout: bad duration "soon"`, "skills[0].run: missing"},
		},
		{
			name: "serve without port, skill with run",
			yaml: `version: 1
name: x
description: y
serve: [python3, server.py]
skills: [{id: a, name: A, description: d, run: [echo]}]
`,
			want: []string{"serve: the server must listen on {{port}}", "skills[0].run: a bundle with serve runs its own server"},
		},
		{
			name: "bundle is a built-in, not a parameter; workdir is no setup's",
			yaml: `version: 1
name: x
description: y
setup: [[sh, "{{workdir}}/x"]]
skills:
  - id: a
    name: A
    description: d
    params: {type: object, properties: {bundle: {type: string}}}
    run: [echo, "{{bundle}}"]
`,
			want: []string{"setup[0][1]: {{workdir}} is not available here", `skills[0].params.properties.bundle: "bundle" is a built-in template variable`},
		},
		{
			name: "output file not marked",
			yaml: `version: 1
name: x
description: y
skills:
  - id: a
    name: A
    description: d
    params:
      type: object
      properties:
        out: {type: string}
        report: {type: string}
        log: {type: string}
        format: {type: string, enum: [json, text]}
        ok: {type: string, format: output-path}
    run: [tool, --output, "{{out}}", "--save-to={{report}}", "-o{{log}}", --out, "{{format}}", --outfile, "{{ok}}"]
`,
			want: []string{
				"skills[0].run[2]: parameter out is passed to --output, an option for a file the tool writes, but its schema does not say it names a file (format: output-path)",
				"skills[0].run[3]: parameter report is passed to --save-to",
				"skills[0].run[4]: parameter log is passed to -o",
			},
		},
		{
			name: "bad system packages",
			yaml: `version: 1
name: x
description: y
system_packages: [libyaml-dev, "--force-yes", "Libfoo", "a", "libyaml-dev", "x;rm"]
skills:
  - {id: a, name: A, description: d, run: [echo]}
`,
			want: []string{
				`agent.yaml:4:32: system_packages[1]: "--force-yes" is not a Debian package name`,
				`system_packages[2]: "Libfoo" is not a Debian package name`,
				`system_packages[3]: "a" is not a Debian package name`,
				`system_packages[4]: duplicate package "libyaml-dev" (first at system_packages[0])`,
				`system_packages[5]: "x;rm" is not a Debian package name`,
			},
		},
		{
			name: "syntax error",
			yaml: "version: 1\nname: [x\n",
			want: []string{"agent.yaml:2:7: syntax error"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := writeBundle(t, tc.yaml)
			_, err := Load(dir)
			ps, ok := yamlx.AsProblems(err)
			if !ok {
				t.Fatalf("Load() error = %v, want problems", err)
			}
			got := ps.Error()
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("Load() problems lack %q; got:\n%s", w, got)
				}
			}
			if len(ps) < len(tc.want) {
				t.Errorf("Load() = %d problems, want at least %d:\n%s", len(ps), len(tc.want), got)
			}
		})
	}
}

func TestLoadServe(t *testing.T) {
	t.Parallel()
	dir := writeBundle(t, "version: 1\nname: own\ndescription: brings its own server\nserve: [python3, server.py, --port, \"{{port}}\"]\n")
	b, err := Load(dir)
	if err != nil {
		t.Fatalf("Load() error = %v", err)
	}
	argv, err := Expand(b.Serve, Vars{Repo: dir, Port: 8123}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"python3", "server.py", "--port", "8123"}, argv); diff != "" {
		t.Errorf("Expand(serve) mismatch (-want +got):\n%s", diff)
	}
}

// TestLoadBundleVar loads a bundle whose wrapper lives beside agent.yaml
// and whose repo lies elsewhere: {{bundle}} names the bundle directory in
// setup, check and run, and expands to its absolute path.
func TestLoadBundleVar(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "repo"), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "b")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	text := `version: 1
name: lib
description: A library behind a wrapper.
repo: {source: ../repo}
setup: [[go, build, -C, "{{bundle}}/wrapper/go", -o, bin/w, .]]
check: [["{{bundle}}/wrapper/go/bin/w", --check]]
skills:
  - id: a
    name: A
    description: d
    params: {type: object, properties: {text: {type: string}}}
    run: [python3, "{{bundle}}/wrapper/w.py", a, "--text={{text}}", --repo, "{{repo}}"]
`
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(mustWd(t), dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Load(rel)
	if err != nil {
		t.Fatalf("Load() error = %v", err)
	}
	if b.AbsDir() != dir {
		t.Errorf("AbsDir() = %s, want %s", b.AbsDir(), dir)
	}
	argv, err := b.Skills[0].Argv(Vars{Repo: b.RepoDir(), Bundle: b.AbsDir(), Workdir: "/work"}, map[string]any{"text": "hi"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"python3", dir + "/wrapper/w.py", "a", "--text=hi", "--repo", filepath.Join(root, "repo")}
	if diff := cmp.Diff(want, argv); diff != "" {
		t.Errorf("Argv() mismatch (-want +got):\n%s", diff)
	}
	if _, err := Expand(b.Check[0], Vars{Repo: b.RepoDir()}, nil); err == nil || !strings.Contains(err.Error(), "{{bundle}} has no value") {
		t.Errorf("Expand(check) without a bundle directory: error = %v, want {{bundle}} has no value", err)
	}
}

func mustWd(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}

func TestExpand(t *testing.T) {
	t.Parallel()
	vars := Vars{Repo: "/repo", Bundle: "/b", Workdir: "/work", Port: 9000}
	tests := []struct {
		name string
		tmpl Command
		args map[string]any
		want []string
	}{
		{"literal values need no quoting", Command{"echo", "{{text}}"}, map[string]any{"text": "a b; rm -rf / $(x)"}, []string{"echo", "a b; rm -rf / $(x)"}},
		{"numbers and bools", Command{"t", "{{n}}", "{{f}}", "{{b}}"}, map[string]any{"n": 3, "f": 1.5, "b": true}, []string{"t", "3", "1.5", "true"}},
		{"switch on", Command{"t", "--json", "{{b}}", "x"}, map[string]any{"b": true}, []string{"t", "--json", "x"}},
		{"switch off", Command{"t", "--json", "{{b}}", "x"}, map[string]any{"b": false}, []string{"t", "x"}},
		{"embedded", Command{"t", "--n={{n}}", "{{workdir}}/out.txt"}, map[string]any{"n": 3.0}, []string{"t", "--n=3", "/work/out.txt"}},
		{"absent optional drops its flag", Command{"t", "--n", "{{n}}", "-v", "{{file}}"}, map[string]any{"file": "x"}, []string{"t", "-v", "x"}},
		{"absent embedded", Command{"t", "--n={{n}}", "x"}, nil, []string{"t", "x"}},
		{"list spreads", Command{"t", "{{files}}"}, map[string]any{"files": []any{"a", "b"}}, []string{"t", "a", "b"}},
		{"object as JSON", Command{"t", "{{o}}"}, map[string]any{"o": map[string]any{"k": 1}}, []string{"t", `{"k":1}`}},
		{"relative program resolves in repo", Command{"bin/tool", "{{port}}"}, nil, []string{"/repo/bin/tool", "9000"}},
		{"bare program stays for PATH", Command{"python3", "{{repo}}/x.py"}, nil, []string{"python3", "/repo/x.py"}},
		{"bundle directory", Command{"{{bundle}}/wrapper/bin/w", "--data={{bundle}}/d"}, nil, []string{"/b/wrapper/bin/w", "--data=/b/d"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := Expand(tc.tmpl, vars, tc.args)
			if err != nil {
				t.Fatalf("Expand(%q) error = %v", tc.tmpl, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Expand(%q) mismatch (-want +got):\n%s", tc.tmpl, diff)
			}
		})
	}
}

func TestSchemaJSON(t *testing.T) {
	t.Parallel()
	s := string(SchemaJSON())
	for _, w := range []string{`"$id": "https://agentnet.dev/schema/bundle.json"`, `"input_modes"`, `"run"`, `"serve"`} {
		if !strings.Contains(s, w) {
			t.Errorf("SchemaJSON() lacks %s", w)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte("version: 1\nname: x\ndescription: y\nserve: [a, \"{{port}}\"]\n"))
	f.Add([]byte("{version: 1, skills: [{id: a, params: {type: object, properties: {x: {}}}, run: ['{{x}}']}]}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Parse("agent.yaml", data)
		if err == nil && b == nil {
			t.Fatal("Parse() = nil, nil")
		}
		if err != nil {
			if _, ok := yamlx.AsProblems(err); !ok {
				t.Fatalf("Parse() error %v is not yamlx.Problems", err)
			}
		}
	})
}
