package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

var update = flag.Bool("update", false, "rewrite docs/cli.md from the command tree")

// cliDocPath is the CLI reference, relative to this package.
const cliDocPath = "../../docs/cli.md"

// TestCLIReference keeps docs/cli.md in step with the command tree: it is
// generated from every command's help (usage, description, examples,
// flags). After changing a command, refresh it with
//
//	go test ./internal/cli -run TestCLIReference -update
func TestCLIReference(t *testing.T) {
	t.Parallel()
	got := cliReference(newRootCmd(&Env{Getenv: func(string) string { return "" }}))
	if *update {
		if err := os.WriteFile(cliDocPath, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(cliDocPath)
	if err != nil {
		t.Fatalf("%v (create it with: go test ./internal/cli -run TestCLIReference -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("docs/cli.md is out of step with the commands; refresh it with: go test ./internal/cli -run TestCLIReference -update")
	}
}

// cliReference renders the command tree under root as one Markdown page.
func cliReference(root *cobra.Command) []byte {
	var b bytes.Buffer
	b.WriteString("<!-- Generated from the command tree by `go test ./internal/cli -run TestCLIReference -update`; do not edit. -->\n\n")
	b.WriteString("# Command-line reference\n\n")
	b.WriteString("Every command takes `--help`, which prints the same text as this page. Exit codes: `0` done; `1` the command ran and\n")
	b.WriteString("failed (a failed audit, a generation with no passing attempt, a chain that failed); `2` bad usage or invalid input\n")
	b.WriteString("(the message names the file, line and field). Environment variables: [docs/README.md](README.md#environment).\n\n")
	var all []*cobra.Command
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if !c.IsAvailableCommand() && c != root {
			return
		}
		all = append(all, c)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	b.WriteString("## Commands\n\n")
	for _, c := range all[1:] {
		fmt.Fprintf(&b, "%s- [`%s`](#%s) — %s\n", strings.Repeat("  ", depth(c)-1), c.CommandPath(), anchor(c), c.Short)
	}
	for _, c := range all {
		writeCommand(&b, c)
	}
	return b.Bytes()
}

func depth(c *cobra.Command) int {
	n := 0
	for p := c; p.HasParent(); p = p.Parent() {
		n++
	}
	return n
}

// anchor is GitHub's heading anchor for a command's section.
func anchor(c *cobra.Command) string {
	return strings.ReplaceAll(c.CommandPath(), " ", "-")
}

func writeCommand(b *bytes.Buffer, c *cobra.Command) {
	fmt.Fprintf(b, "\n## %s\n\n", c.CommandPath())
	desc := c.Long
	if desc == "" {
		desc = c.Short
	}
	fmt.Fprintf(b, "%s\n\n", strings.TrimSpace(desc))
	if c.Runnable() {
		fmt.Fprintf(b, "```\n%s\n```\n", c.UseLine())
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\nSubcommands:\n\n")
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() {
				fmt.Fprintf(b, "- [`%s`](#%s) — %s\n", sub.CommandPath(), anchor(sub), sub.Short)
			}
		}
	}
	if c.Example != "" {
		fmt.Fprintf(b, "\nExamples:\n\n```\n%s\n```\n", strings.TrimRight(c.Example, "\n"))
	}
	if fl := c.NonInheritedFlags(); fl.HasAvailableFlags() {
		fmt.Fprintf(b, "\nFlags:\n\n```\n%s```\n", fl.FlagUsages())
	}
	if fl := c.InheritedFlags(); fl.HasAvailableFlags() {
		fmt.Fprintf(b, "\nInherited flags:\n\n```\n%s```\n", fl.FlagUsages())
	}
}

// TestFormatDocsCoverSchemas checks the format pages against the code: every
// field name in a format's generated JSON Schema (agentnet schema FORMAT)
// appears in its page under docs/.
func TestFormatDocsCoverSchemas(t *testing.T) {
	t.Parallel()
	for format, page := range map[string]string{"suite": "suite.md", "bundle": "bundle.md", "results": "results.md"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			doc, err := os.ReadFile("../../docs/" + page)
			if err != nil {
				t.Fatal(err)
			}
			var schema any
			if err := json.Unmarshal(schemas[format](), &schema); err != nil {
				t.Fatal(err)
			}
			for _, name := range schemaFields(schema) {
				if !regexp.MustCompile(`(^|[^A-Za-z0-9_])` + regexp.QuoteMeta(name) + `($|[^A-Za-z0-9_])`).Match(doc) {
					t.Errorf("docs/%s does not mention the field %q of agentnet schema %s", page, name, format)
				}
			}
		})
	}
}

// schemaFields lists the property names anywhere in a JSON Schema, sorted.
func schemaFields(v any) []string {
	var names []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, sub := range x {
				if props, ok := sub.(map[string]any); ok && k == "properties" {
					for name := range props {
						names = append(names, name)
					}
				}
				walk(sub)
			}
		case []any:
			for _, sub := range x {
				walk(sub)
			}
		}
	}
	walk(v)
	slices.Sort(names)
	return slices.Compact(names)
}
