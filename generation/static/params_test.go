package static

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/bundle"
	"github.com/google/go-cmp/cmp"
)

// TestShortFlagParamNames checks that an option with a short name only is
// named by what its value is (pygmentize, unidecode), not by its letter.
func TestShortFlagParamNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		help string
		want []string // parameter names, sorted
	}{
		{"metavars name them, case-distinct letters apart",
			"usage: pygmentize [-l LEXER] [-F FILTER[:options]] [-f FORMATTER] [-O OPTION=value[,OPTION=value,...]] [-P OPTION=value] [-o OUTPUTFILE] [-v] [INPUTFILE]\n\n" +
				"Main operation:\n  -l LEXER      Specify the lexer to use.\n  -F FILTER[:options]\n                Add a filter to the token stream.\n" +
				"  -f FORMATTER  Specify the formatter to use.\n  -O OPTION=value[,OPTION=value,...]\n                Give options to the lexer and formatter.\n" +
				"  -P OPTION=value\n                Give a single option.\n  -o OUTPUTFILE\n                Where to write the output.\n  INPUTFILE     Where to read the input.\n\n" +
				"Operation flags:\n  -v            Print a detailed traceback.\n",
			[]string{"filter", "formatter", "inputfile", "lexer", "o", "outputfile", "p", "v"}},
		{"argparse's dest as metavar",
			"usage: unidecode [-h] [-e ENCODING] [-c TEXT] [FILE]\n\npositional arguments:\n  FILE\n\noptions:\n  -h, --help            show this help message and exit\n" +
				"  -e ENCODING, --encoding ENCODING\n                        Specify an encoding (default is UTF-8)\n  -c TEXT               Transliterate TEXT instead of FILE\n",
			[]string{"encoding", "file", "text"}},
		{"a metavar an argument has, or a type, leaves the letter",
			"usage: tool [-n int] [-i FILE] FILE\n\noptions:\n  -n int    number of requests\n  -i FILE   input\n",
			[]string{"file", "i", "n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := parseHelp(tc.help)
			tool := &Tool{Name: "tool", Prog: []string{"tool"}, Root: c}
			sk := skillFor(tool, nil, c, "", nil, "", nil)
			var got []string
			for k := range sk.Params["properties"].(map[string]any) {
				got = append(got, k)
			}
			slices.Sort(got)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("skillFor() parameters (-want +got):\n%s", diff)
			}
		})
	}
}

// TestInheritedFlags checks that a subcommand's skill carries its group's
// options, before the subcommand's name, unless its own help lists the
// ones it inherits.
func TestInheritedFlags(t *testing.T) {
	t.Parallel()
	root := parseHelp("Usage: dotenv [OPTIONS] COMMAND [ARGS]...\n\nOptions:\n" +
		"  -f, --file PATH                 Location of the .env file.\n" +
		"  -q, --quote [always|never|auto]\n                                  Whether to quote or not the variable values.\n" +
		"  -e, --export                    Whether to write the dot file as an executable bash script.\n\n" +
		"Commands:\n  get    Retrieve the value for the given key.\n")
	get := parseHelp("Usage: dotenv get [OPTIONS] KEY\n\n  Retrieve the value for the given key.\n\nOptions:\n  --help  Show this message and exit.\n")
	get.Name = "get"
	root.Subs = []*Command{get}
	tool := &Tool{Name: "dotenv", Prog: []string{"dotenv"}, Root: root}
	sk := skillFor(tool, []string{"get"}, get, "", nil, "", nil)
	want := bundle.Command{"dotenv", "--file", "{{file}}", "--quote", "{{quote}}", "--export", "{{export}}", "get", "{{key}}"}
	if diff := cmp.Diff(want, sk.Run); diff != "" {
		t.Errorf("skillFor(get).Run (-want +got):\n%s", diff)
	}

	// cobra: the subcommand's help lists the persistent flags it takes.
	root = parseHelp("Usage:\n  tool [command]\n\nAvailable Commands:\n  scan        Scan a tree\n\nFlags:\n" +
		"      --config string   config file\n  -t, --toggle          a local flag of the root\n")
	scan := parseHelp("Usage:\n  tool scan [flags]\n\nFlags:\n      --deep   look deeper\n\nGlobal Flags:\n      --config string   config file\n")
	scan.Name = "scan"
	root.Subs = []*Command{scan}
	tool = &Tool{Name: "tool", Prog: []string{"tool"}, Root: root}
	sk = skillFor(tool, []string{"scan"}, scan, "", nil, "", nil)
	want = bundle.Command{"tool", "scan", "--deep", "{{deep}}", "--config", "{{config}}"}
	if diff := cmp.Diff(want, sk.Run); diff != "" {
		t.Errorf("skillFor(scan).Run (-want +got):\n%s", diff)
	}
}

// TestFlagSchemaKinds checks what a flag's schema says of its value: a
// format is no output file, a default on this machine's paths is left out,
// a switch on by default says so.
func TestFlagSchemaKinds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		flag Flag
		want map[string]any
	}{
		{"a format named out", Flag{Long: "out", Metavar: "OUT", Type: "string", Help: "The format of the output data"},
			map[string]any{"type": "string", "pattern": bundle.NamePattern, "description": "The format of the output data."}},
		{"an output format", Flag{Long: "output", Short: "o", Metavar: "string", Type: "string", Help: "output format (default text)"},
			map[string]any{"type": "string", "pattern": bundle.NamePattern, "description": "Output format (default text)."}},
		{"an output file", Flag{Long: "output", Metavar: "FILE", Type: "string", Help: "write the result to FILE"},
			map[string]any{"type": "string", "format": "output-path", "description": "Write the result to FILE. A file name: the file is written in the task's work directory and returned."}},
		{"an output file whose value may be left out", Flag{Long: "output", Metavar: "FILE", Type: "string", OptionalValue: true, Help: "write the result to FILE"},
			map[string]any{"type": []any{"boolean", "string"}, "format": "output-path", "description": "Write the result to FILE. A file name: the file is written in the task's work directory and returned."}},
		{"a default in the home directory", Flag{Long: "global-config", Metavar: "FILENAME", Type: "string", Default: "/root/.config/pep8", Help: "path to a global pep8 config file"},
			map[string]any{"type": "string", "format": "path", "description": "Path to a global pep8 config file."}},
		{"a default under ~", Flag{Long: "cache", Metavar: "DIR", Type: "string", Default: "~/.cache/tool"},
			map[string]any{"type": "string", "format": "path"}},
		{"a relative default stays", Flag{Long: "config", Metavar: "FILE", Type: "string", Default: "setup.cfg"},
			map[string]any{"type": "string", "format": "path", "default": "setup.cfg"}},
		{"a switch on by default", Flag{Long: "override", Type: "boolean", Default: true, Help: "Override variables"},
			map[string]any{"type": "boolean", "default": true, "description": "Override variables."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, flagSchema(&tc.flag)); diff != "" {
				t.Errorf("flagSchema(--%s) (-want +got):\n%s", tc.flag.Long, diff)
			}
		})
	}
}

// TestProjectSentenceOnce checks that the README's opening sentence
// describes one skill of a bundle, not each tool that says nothing of
// itself.
func TestProjectSentenceOnce(t *testing.T) {
	t.Parallel()
	readme := "# age\n\nage is a simple, modern and secure file encryption tool, format, and Go library.\n"
	tool := func(name, help string) *Tool {
		return &Tool{Name: name, Prog: []string{name}, Root: parseHelp(help)}
	}
	tools := []*Tool{
		tool("age", "Usage:\n    age [--encrypt] (-r RECIPIENT | -R PATH)... [--armor] [-o OUTPUT] [INPUT]\n\nOptions:\n    -a, --armor   Encrypt to a PEM encoded format.\n"),
		tool("age-inspect", "Usage:\n    age-inspect [--json] [INPUT]\n\nOptions:\n    --json                      Output machine-readable JSON.\n"),
		tool("age-keygen", "Usage:\n    age-keygen [-pq] [-o OUTPUT]\n\nOptions:\n    -pq                       Generate a post-quantum key pair.\n"),
	}
	b := compose(nil, tools, readme, Options{Name: "age"})
	var with []string
	descs := map[string]bool{}
	for _, sk := range b.Skills {
		if strings.Contains(sk.Description, "simple, modern and secure") {
			with = append(with, sk.ID)
		}
		if descs[sk.Description] {
			t.Errorf("compose(): description %q given twice", sk.Description)
		}
		descs[sk.Description] = true
	}
	if got, want := b.Skills[2].Description, "Run age-keygen (usage: age-keygen [-pq] [-o OUTPUT]). Options: -pq: Generate a post-quantum key pair."; got != want {
		t.Errorf("compose(): age-keygen's description = %q, want %q", got, want)
	}
	if want := []string{"age"}; !slices.Equal(with, want) {
		t.Errorf("compose(): skills described by the README's opening = %q, want %q", with, want)
	}
}

// TestSkillFlagForms checks the parameters and run template of flags whose
// form is not "--name VALUE": an optional value, a switch on by default, a
// boolean value; and that operands come first beside an optional value.
func TestSkillFlagForms(t *testing.T) {
	t.Parallel()
	c := parseHelp("Usage: tool [files...] [options]\n\nOptions:\n" +
		"  -m, --mangle [options]       Mangle names/specify mangler options.\n" +
		"  --color[=WHEN]               Colorize the output.\n" +
		"  --override / --no-override   Override variables.\n" +
		"  -e, --export BOOLEAN         Write an executable script.\n")
	c.flag("override", "").Default = true // as click's source says
	tool := &Tool{Name: "tool", Prog: []string{"tool"}, Root: c}
	sk := skillFor(tool, nil, c, "", nil, "", nil)
	wantRun := bundle.Command{"tool", "{{files}}", "--mangle", "{{mangle}}", "--color={{color_value}}", "--color", "{{color}}",
		"--no-override", "{{no_override}}", "--export={{export}}"}
	if diff := cmp.Diff(wantRun, sk.Run); diff != "" {
		t.Errorf("skillFor().Run (-want +got):\n%s", diff)
	}
	props := sk.Params["properties"].(map[string]any)
	types := map[string]any{}
	for k, v := range props {
		types[k] = v.(map[string]any)["type"]
	}
	wantTypes := map[string]any{"files": "array", "mangle": []any{"boolean", "string"}, "color": "boolean", "color_value": "string",
		"no_override": "boolean", "export": "boolean"}
	if diff := cmp.Diff(wantTypes, types); diff != "" {
		t.Errorf("skillFor() parameter types (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"files": []any{"a.js"}, "mangle": true}, []string{"tool", "a.js", "--mangle"}},
		{map[string]any{"files": []any{"a.js"}, "mangle": "toplevel"}, []string{"tool", "a.js", "--mangle", "toplevel"}},
		{map[string]any{"color": true, "no_override": true, "export": false}, []string{"tool", "--color", "--no-override", "--export=false"}},
		{map[string]any{"color_value": "always"}, []string{"tool", "--color=always"}},
	} {
		got, err := bundle.Expand(sk.Run, bundle.Vars{}, tc.args)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("Expand(%v) = %q, %v, want %q", tc.args, got, err, tc.want)
		}
	}
	// The host reads a switch that may take a value as a switch.
	for _, p := range sk.ParamList() {
		if p.Name == "mangle" && p.Type != "boolean" {
			t.Errorf("ParamList() mangle type = %q, want boolean", p.Type)
		}
	}
}

// TestExamplesAsRequests checks that a skill's examples are its help's
// captions when it gives them, else its command lines as "Run `…`".
func TestExamplesAsRequests(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, help string
		want       []string
	}{
		{"captions", "Usage: tool [options] DIR\n\nExamples:\n\n  Count a specific folder:\n    tool src/\n\n  # count only Go files\n  tool --include-ext go .\n",
			[]string{"Count a specific folder.", "Count only Go files."}},
		{"commands and their output", "Usage: spark VALUE,...\n\nExamples:\n  spark 1 5 22 13 53\n  ▁▁▃▂█\n  echo 9 13 5 | spark\n  ▄▆▂\n",
			[]string{"Run `spark 1 5 22 13 53`", "Run `echo 9 13 5 | spark`"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := parseHelp(tc.help)
			name := strings.Fields(c.Usage)[0]
			tool := &Tool{Name: name, Prog: []string{name}, Root: c}
			if got := examplesFor(tool, nil, c); !slices.Equal(got, tc.want) {
				t.Errorf("examplesFor() = %q, want %q", got, tc.want)
			}
		})
	}
}
