package static

import (
	"maps"
	"os/exec"
	"slices"
	"testing"
	"time"
)

// TestWithStdin checks which commands get an input read on standard
// input: those whose help pipes into them, redirects a file to them or
// speaks of standard input, unless they take a file operand or an input
// file option the host can bind a file to.
func TestWithStdin(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, prog, help string
		want             string // the stdin template, "" for none
	}{
		{"pipe", "jc", "jc converts the output of commands to JSON\n\nUsage:\n\n    Standard syntax:\n\n        COMMAND | jc [OPTIONS] PARSER\n\nOptions:\n    -p, --pretty   pretty print\n", "{{input}}"},
		{"synopsis", "gojq", "gojq - Go implementation of jq\n\nSynopsis:\n  % echo '{\"foo\": 128}' | gojq '.foo'\n\nUsage:\n  gojq [OPTIONS]\n\nCommand Options:\n  -c, --compact-output   output without pretty-printing\n", "{{input}}"},
		{"redirect", "toml-test-decoder", "Usage: toml-test-decoder < toml-file\n", "{{input}}"},
		{"words", "reflow", "Usage: reflow [-w WIDTH]\n\nReflow the text read from STDIN to WIDTH columns.\n\nOptions:\n  -w WIDTH   the width (default 72)\n", "{{input}}"},
		{"taken name", "conv", "Usage: conv [--input FORMAT]\n\nConvert data read on standard input.\n\nOptions:\n  --input FORMAT   the input format\n", "{{stdin}}"},
		{"optional file operand", "lines", "Usage: lines [FILE]\n\nCount the lines of FILE, or of standard input when none is given.\n", ""},
		{"input file option", "summ", "Usage: summ [-i FILE]\n\nSummarise data.\n\nOptions:\n  -i, --input FILE   the input file (default: stdin)\n", ""},
		{"placeholder", "greet", "Usage: greet <name>\n\nGreet someone.\n", ""},
		{"flag named after stdin", "hello", "Usage: hello [--stdin-name NAME]\n\nWrite a greeting to standard output.\n\nOptions:\n  --stdin-name NAME   a name\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := parseHelp(tc.help)
			root.Help = tc.help
			tool := &Tool{Name: tc.prog, Prog: []string{"./" + tc.prog}, Root: root}
			sk := withStdin(skillFor(tool, nil, root, "", nil, "", nil), tool, nil, root, "")
			if sk.Stdin != tc.want {
				t.Fatalf("withStdin(%q).Stdin = %q, want %q", tc.help, sk.Stdin, tc.want)
			}
			if tc.want == "" {
				return
			}
			p := sk.StdinParam()
			prop, _ := sk.Params["properties"].(map[string]any)[p].(map[string]any)
			if prop["format"] != "path" || prop["type"] != "string" {
				t.Errorf("withStdin(%q) parameter %s = %v, want a path", tc.help, p, prop)
			}
			if req, _ := sk.Params["required"].([]any); slices.Contains(req, any(p)) {
				t.Errorf("withStdin(%q) requires %s, want it optional", tc.help, p)
			}
		})
	}
}

// TestHelpExitingNonZero generates a repository with two tools, one whose
// --help prints its usage and exits 1 (a usage function ending in
// os.Exit(1)): both stay, the failing one reads its input on standard
// input, and every check of the bundle exits 0.
func TestHelpExitingNonZero(t *testing.T) {
	t.Parallel()
	dir := writeRepo(t, map[string]string{
		"decode": "x:#!/bin/sh\n# Decode a document read on standard input.\ncase \"$1\" in -h|--help) echo 'Usage: decode < doc-file' >&2; exit 1;; esac\ntr a-z A-Z\n",
		"count":  "x:#!/bin/sh\n# Count the words of a file.\ncase \"$1\" in --help) echo 'Usage: count FILE'; exit 0;; esac\nwc -w < \"$1\"\n",
	})
	res, err := Generate(t.Context(), dir, Options{Name: "docs", ProbeTimeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	stdin := map[string]string{}
	for _, sk := range res.Bundle.Skills {
		stdin[sk.ID] = sk.Stdin
	}
	if want := map[string]string{"count": "", "decode": "{{input}}"}; !maps.Equal(stdin, want) {
		t.Errorf("skills' stdin = %v, want %v (notes %q)", stdin, want, res.Notes)
	}
	for _, c := range res.Bundle.Check {
		cmd := exec.CommandContext(t.Context(), c[0], c[1:]...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("check %q: %v\n%s", c, err, out)
		}
	}
}

// TestReadmePipes checks that a command whose help never mentions standard
// input reads it when the README pipes into it: into the program itself,
// or for its default subcommand into the bare program, not into another
// subcommand.
func TestReadmePipes(t *testing.T) {
	t.Parallel()
	query := parseHelp("Usage: dasel query [<query>] [flags]\n\n[default] Execute a query\n\nFlags:\n  -i, --in=STRING   The format of the input data.\n")
	query.Name, query.Summary = "query", "[default] Execute a query."
	put := parseHelp("Usage: dasel put <selector> [flags]\n\nPut a value.\n")
	put.Name, put.Summary = "put", "Put a value."
	root := &Command{Subs: []*Command{query, put}}
	tool := &Tool{Name: "dasel", Prog: []string{"dasel"}, Root: root}
	for _, tc := range []struct {
		readme string
		cmd    *Command
		want   string
	}{
		{"```sh\necho '{\"name\": \"Tom\"}' | dasel -i json 'name'\n```\n", query, "{{input}}"},
		{"```sh\necho '{\"name\": \"Tom\"}' | dasel -i json 'name'\n```\n", put, ""},
		{"```sh\ncat a.json | dasel put -i json x\n```\n", query, ""},
		{"```sh\ndasel -f a.json 'name'\n```\n", query, ""},
	} {
		sk := withStdin(skillFor(tool, []string{tc.cmd.Name}, tc.cmd, "", nil, "", nil), tool, []string{tc.cmd.Name}, tc.cmd, tc.readme)
		if sk.Stdin != tc.want {
			t.Errorf("withStdin(%s, README %q).Stdin = %q, want %q", tc.cmd.Name, tc.readme, sk.Stdin, tc.want)
		}
	}
}

// The subcommands of one toolkit share its convention for their data:
// when the README pipes a file into one of them, the others that take no
// input read standard input too; one with an operand keeps it.
func TestSiblingsStdin(t *testing.T) {
	t.Parallel()
	help := "tabkit -- tables\n\nUsage:\n  tabkit [command]\n\nAvailable Commands:\n" +
		"  pretty      convert CSV to a readable aligned table\n  csv2json    convert CSV to JSON format\n" +
		"  grep        grep rows by a pattern\n\nFlags:\n  -h, --help   help for tabkit\n"
	root := parseHelp(help)
	for _, s := range root.Subs {
		if s.Name == "grep" {
			s.Args = []*Arg{{Name: "pattern"}}
		}
	}
	tool := &Tool{Name: "tabkit", Prog: []string{"tabkit"}, Root: root}
	readme := "# tabkit\n\nLook at a table:\n\n    $ cat data.csv | tabkit pretty\n"
	b := compose(nil, []*Tool{tool}, readme, Options{Name: "tabkit"})
	got := map[string]string{}
	for _, sk := range b.Skills {
		got[sk.ID] = sk.Stdin
	}
	want := map[string]string{"pretty": "{{input}}", "csv2json": "{{input}}", "grep": ""}
	if !maps.Equal(got, want) {
		t.Errorf("stdin by skill = %v, want %v", got, want)
	}
}
