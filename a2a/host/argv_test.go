package host

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/bundle"
)

// argvSkill has every way a template can use a value: a file it reads
// (alone and as a list), a file it writes (after a flag, joined to one,
// optional-valued), a list of operands, a joined directory, a number, a
// value after "--", and one that may begin with a dash.
func argvSkill(t testing.TB) *bundle.Skill {
	t.Helper()
	b, err := bundle.Parse("agent.yaml", []byte(`version: 1
name: fuzz
description: every use of a value
skills:
  - id: all
    name: all
    description: all uses
    params:
      type: object
      properties:
        in: {type: string, format: path}
        ins: {type: array, items: {type: string, format: path}, format: path}
        out: {type: string, format: output-path}
        log: {type: string, format: output-path}
        words: {type: array, items: {type: string}}
        name: {type: string}
        n: {type: integer}
        expr: {type: string, x-allow-dash: true}
        rest: {type: string}
        mode: {type: string}
        keep: {type: string, format: output-path}
        report: {type: string, format: output-path, default: stdout}
    run: [tool, "--keep={{workdir}}/{{keep}}", --report, "{{report}}", --out, "{{out}}", "--log={{log}}", -n, "{{n}}", --mode, "{{mode}}", "{{in}}", "{{ins}}", "{{words}}", "{{workdir}}/{{name}}", -e, "{{expr}}", --, "{{rest}}"]
`))
	if err != nil {
		t.Fatalf("Parse() error = %v", err)
	}
	return &b.Skills[0]
}

// checkArgs asserts the two invariants of buildArgs over one argv.
func checkArgs(t *testing.T, sk *bundle.Skill, work string, els []bundle.Arg) {
	t.Helper()
	params := map[string]bundle.Param{}
	for _, p := range sk.ParamList() {
		params[p.Name] = p
	}
	end := slices.Index(sk.Run, "--")
	for i, el := range els {
		if el.Param == "" {
			continue
		}
		p, tmpl := params[el.Param], sk.Run[el.Index]
		// A dash starts a value only where the template wrote it, after
		// "--", for a number, "-" alone, or a parameter that allows it.
		if strings.HasPrefix(el.Value, "-") && !strings.HasPrefix(tmpl, "-") && el.Value != "-" &&
			!(end >= 0 && el.Index > end) && !p.AllowDash && !(p.Type == "integer" && isNumber(el.Value)) {
			t.Errorf("argv[%d] = %q (parameter %s) begins with a dash no template wrote", i, el.Value, el.Param)
		}
		// Every file value, and every value joined to a directory, lies
		// inside the work directory.
		if p.IsFile() || joinsDir(tmpl) {
			lit, _, _ := strings.Cut(tmpl, "{{")
			path := strings.TrimPrefix(el.Value, lit)
			// "-" (standard input or output) and the bundle's own default
			// are no caller's path.
			if p.IsFile() && (path == "-" || p.HasDefault && path == p.Default) {
				continue
			}
			// ("{{workdir}}/." is the work directory itself: inside.)
			if !filepath.IsAbs(path) || !within(work, filepath.Clean(path)) {
				t.Errorf("argv[%d] = %q (parameter %s): not a path inside %s", i, el.Value, el.Param, work)
			}
		}
	}
}

func isNumber(s string) bool {
	var f float64
	return json.Unmarshal([]byte(s), &f) == nil
}

// FuzzBuildArgv: whatever the arguments, no value becomes an option and no
// file lies outside the work directory (seed corpus in
// testdata/fuzz/FuzzBuildArgv).
func FuzzBuildArgv(f *testing.F) {
	f.Add("report.csv", "out.txt", "run.log", "a", "-b", "name.txt", "x", "--rest", 3)
	f.Add("/etc/passwd", "/tmp/evil", "../../x", "--output=/tmp/evil", "-o/tmp/e", "../../../etc/x", "--flag", "-r", -5)
	f.Add("a/../../b", "sub/out.csv", "~/.bashrc", "-", "", "..", "-e", "--", 0)
	sk := argvSkill(f)
	f.Fuzz(func(t *testing.T, in, out, log, w1, w2, name, expr, rest string, n int) {
		work := "/work/task"
		args := map[string]any{"in": in, "ins": []any{in, w2}, "out": out, "log": log, "words": []any{w1, w2},
			"name": name, "expr": expr, "rest": rest, "n": n, "mode": w1, "keep": log, "report": out}
		els, err := buildArgs(sk, bundle.Vars{Workdir: work}, args)
		if err != nil {
			if _, ok := err.(*failure); !ok {
				t.Fatalf("buildArgs() error %T %v, want a *failure", err, err)
			}
			return
		}
		checkArgs(t, sk, work, els)
	})
}

func TestBuildArgv(t *testing.T) {
	t.Parallel()
	sk := argvSkill(t)
	work := "/work/task"
	tests := []struct {
		name string
		args map[string]any
		want string // argv joined by spaces, or the error's text
	}{
		{"names join the work directory", map[string]any{"in": "a.csv", "out": "sub/r.csv", "log": "x.log", "name": "n.txt"},
			"tool --out /work/task/r.csv --log=/work/task/x.log /work/task/a.csv /work/task/n.txt"},
		{"the host's own paths stay", map[string]any{"in": "/work/task/a.csv"}, "tool /work/task/a.csv"},
		{"an output name is sanitised", map[string]any{"out": "my report?.csv"}, "tool --out /work/task/my_report_.csv"},
		{"absolute output", map[string]any{"out": "/home/u/.bashrc"}, `parameter out: "/home/u/.bashrc" is outside the task's work directory`},
		{"climbing input", map[string]any{"in": "../../etc/passwd"}, `parameter in: "../../etc/passwd" climbs out`},
		{"climbing list item", map[string]any{"ins": []any{"ok.txt", "../x"}}, `parameter ins: item 1: "../x" climbs out`},
		{"climbing joined name", map[string]any{"name": "../../x"}, `parameter name: "../../x" would leave`},
		{"an output file joined to the work directory", map[string]any{"keep": "a/../k.csv"}, "tool --keep=/work/task/k.csv"},
		{"absolute output joined", map[string]any{"keep": "/tmp/k.csv"}, `parameter keep: "/tmp/k.csv" is outside`},
		{"absolute joined name", map[string]any{"name": "/etc/passwd"}, `parameter name: "/etc/passwd" would leave`},
		{"option in a list", map[string]any{"words": []any{"--output=/tmp/x"}}, `parameter words: the value "--output=/tmp/x" begins with "-"`},
		{"option after a flag", map[string]any{"mode": "--exec=sh"}, `parameter mode: the value "--exec=sh" begins with "-"`},
		{"negative number", map[string]any{"n": -3}, "tool -n -3"},
		{"a dash alone", map[string]any{"words": []any{"-"}}, "tool -"},
		{"a dash for an output file is standard output", map[string]any{"out": "-"}, "tool --out -"},
		{"a dash for an input file is standard input", map[string]any{"in": "-"}, "tool -"},
		{"an output file's own default passes as the tool takes it", map[string]any{"report": "stdout"}, "tool --report stdout"},
		{"an output file other than its default is contained", map[string]any{"report": "stderr"}, "tool --report /work/task/stderr"},
		{"allowed dash", map[string]any{"expr": "-x"}, "tool -e -x"},
		{"after --", map[string]any{"rest": "--not-an-option"}, "tool -- --not-an-option"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			argv, err := buildArgv(sk, bundle.Vars{Workdir: work}, tc.args)
			got := strings.Join(argv, " ")
			if err != nil {
				got = err.Error()
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("buildArgv(%v) = %q, want %q", tc.args, got, tc.want)
			}
		})
	}
}

func TestUnnegated(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"Without decrypting it, what key was the file made for?", ", what key was the file made for?"},
		{"Flatten it, but do not sort the keys. Then stop.", "Flatten it, but do . Then stop."},
		{"Encrypt this file.", "Encrypt this file."},
		{"No diff please", ""},
	} {
		if got := unnegated(tc.in); got != tc.want {
			t.Errorf("unnegated(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
